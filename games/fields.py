"""A phone's fields, from a form POST or a WebSocket message, read safely.

Both transports send the same flat fields, all as strings (a ticked card field repeats).
Games' adapters read their actions' fields with these; anything malformed raises
BadInput (a translated "not understood" for the phone, nothing changed).
"""

import math
import re

from games.errors import BadInput

__all__ = ["BadInput", "action_id", "choice", "flag", "integer", "optional_integer", "repeated"]

# A phone's id for one request (a form sent twice is applied once). Computer players and
# imports use ids with a ":" (games.autoplay, games.services), which no phone can send.
ACTION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
# the range a request's seat and version fields are read in
MAX_SEAT = 63
MAX_VERSION = 2**31 - 1


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


def action_id(raw) -> str:
    """A phone's action id, whole: 8 to 64 letters, digits, "_" or "-"."""
    if not isinstance(raw, str) or not ACTION_ID.fullmatch(raw):
        raise BadInput("action_id")
    return raw
