"""A phone's fields, from a form POST or a WebSocket message, read safely.

Both transports send the same flat fields, all as strings (a ticked card field repeats).
Games' adapters read their actions' fields with these; anything malformed raises
BadInput (a translated "not understood" for the phone, nothing changed).
"""

import math

from games.errors import BadInput

__all__ = ["BadInput", "choice", "flag", "integer", "optional_integer", "repeated"]


def integer(fields, name: str, low: int, high: int) -> int:
    raw = fields.get(name)
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise BadInput(name)
    if isinstance(raw, float) and not (math.isfinite(raw) and raw.is_integer()):
        raise BadInput(name)
    try:
        value = int(raw)
    except (ValueError, OverflowError):
        raise BadInput(name) from None
    if not low <= value <= high:
        raise BadInput(name)
    return value


def optional_integer(fields, name: str, low: int, high: int) -> int | None:
    return None if fields.get(name) in ("", None) else integer(fields, name, low, high)


def choice(fields, name: str, choices) -> str | None:
    """One of `choices`, or None when the field is empty or absent."""
    raw = fields.get(name)
    if raw in ("", None):
        return None
    if not isinstance(raw, str) or raw not in choices:
        raise BadInput(name)
    return raw


def flag(fields, name: str) -> bool:
    return fields.get(name) in ("on", "true", "1", True)


def repeated(fields, name: str, most: int) -> list:
    """A field that repeats (a list over the WebSocket, getlist in a form)."""
    if hasattr(fields, "getlist"):
        raw = fields.getlist(name)
    else:
        raw = fields.get(name, [])
        raw = [raw] if isinstance(raw, str) else raw
    if not isinstance(raw, list) or len(raw) > most:
        raise BadInput(name)
    return raw
