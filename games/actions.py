"""Form fields (from a POST or a WebSocket message) → an engine action.

Both transports send the same flat fields: `kind` plus the action's own
fields, all as strings. Anything malformed raises BadInput; whether the
action is legal is the engine's business.
"""

from games.models import Table


class BadInput(ValueError):
    pass


def _int(fields: dict, name: str, low: int, high: int) -> int:
    raw = fields.get(name)
    if not isinstance(raw, str | int) or isinstance(raw, bool):
        raise BadInput(name)
    try:
        value = int(raw)
    except ValueError:
        raise BadInput(name) from None
    if not low <= value <= high:
        raise BadInput(name)
    return value


def _optional_int(fields: dict, name: str, low: int, high: int) -> int | None:
    return None if fields.get(name) in ("", None) else _int(fields, name, low, high)


def _choice(fields: dict, name: str, choices) -> str | None:
    raw = fields.get(name)
    if raw in ("", None):
        return None
    if raw not in choices:
        raise BadInput(name)
    return raw


def _flag(fields: dict, name: str) -> bool:
    return fields.get(name) in ("on", "true", "1", True)


FIGURES = ("joker", "queen", "rook", "bishop", "knight", "pawn")


def _bid_fields(fields: dict) -> dict:
    return {
        "tricks": _int(fields, "tricks", 1, 13),
        "trump": _choice(fields, "trump", FIGURES),
        "supertrump": _optional_int(fields, "supertrump", 1, 9),
        "open": _flag(fields, "open"),
    }


def _triggs_companion(kind: str, fields: dict) -> dict:
    if kind == "cross":
        return {
            "type": "cross",
            "value": _int(fields, "value", 1, 12),
            "sets": _int(fields, "sets", 1, 5),
        }
    if kind == "extra":
        return {"type": "extra", "value": _int(fields, "value", 1, 12)}
    if kind in ("pass", "undo"):
        return {"type": kind}
    raise BadInput("kind")


def _triumfdrez_companion(kind: str, fields: dict) -> dict:
    if kind == "bid":
        return {"type": "bid", **_bid_fields(fields)}
    if kind == "contract":
        return {"type": "contract", "seat": _int(fields, "declarer", 0, 3), **_bid_fields(fields)}
    if kind == "result":
        return {"type": "result", "tricks": _int(fields, "tricks", 0, 13)}
    if kind in ("pass", "undo_bid", "undo_hand"):
        return {"type": kind}
    raise BadInput("kind")


PARSERS = {
    ("triggs", "companion"): _triggs_companion,
    ("triumfdrez", "companion"): _triumfdrez_companion,
}


def parse_action(table: Table, fields: dict) -> dict:
    parser = PARSERS.get((table.game, table.mode))
    kind = fields.get("kind")
    if parser is None or not isinstance(kind, str):
        raise BadInput("kind")
    return parser(kind, fields)
