"""Form fields (from a POST or a WebSocket message) → an engine action.

Both transports send the same flat fields: `kind` plus the action's own
fields, all as strings (a ticked card field repeats). Anything malformed
raises BadInput; whether the action is legal is the engine's business —
except ticked Triggs cards that no engine action can express (mixed values
to discard, cards that make no sets), refused here with their rule.
"""

import re

from games import services
from games.models import Table
from games.services import Refused


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


PILES = ("left", "stock", "right")
HAND_LIMIT = 10  # T-A-LIMIT: no hand holds more cards
SETS_MAX_LENGTH = 40
# "11|7+4|10+1": up to five sets (T-C-CAP) of one card or two (T-C), values 1 to 12
_CARD = r"(?:1[0-2]|[1-9])"
SETS_TEXT = re.compile(rf"{_CARD}(?:\+{_CARD})?(?:\|{_CARD}(?:\+{_CARD})?){{0,4}}")


def _cards(fields: dict) -> list[int]:
    """The hand's ticked cards: the repeated field `card` (a list over the WebSocket)."""
    if hasattr(fields, "getlist"):
        raw = fields.getlist("card")
    else:
        raw = fields.get("card", [])
        raw = [raw] if isinstance(raw, str) else raw
    if not isinstance(raw, list) or len(raw) > HAND_LIMIT:
        raise BadInput("card")
    return [_int({"card": item}, "card", 1, 12) for item in raw]


def _sets_text(raw) -> list[list[int]]:
    if not isinstance(raw, str) or len(raw) > SETS_MAX_LENGTH or not SETS_TEXT.fullmatch(raw):
        raise BadInput("sets")
    return [[int(card) for card in part.split("+")] for part in raw.split("|")]


def _sets_from_cards(value: int, cards: list[int]) -> list[list[int]]:
    """Ticked cards as the sets of a cross of `value` (T-C): the cards of the value alone,
    the others in pairs adding up to it; there is only one way, or none."""
    left = sorted(cards)
    sets = [[card] for card in left if card == value]
    left = [card for card in left if card != value]
    while left:
        a = left.pop(0)
        if value - a not in left:
            raise Refused("set_wrong_sum", "T-C")
        left.remove(value - a)
        sets.append([a, value - a])
    return sets


def _triggs_digital(kind: str, fields: dict) -> dict:
    if kind == "draw":
        first, second = _choice(fields, "first", PILES), _choice(fields, "second", PILES)
        if first is None:
            raise Refused("bad_sources", "T-A")
        return {"type": "draw", "from": [first] if second is None else [first, second]}
    if kind == "discard":
        cards = _cards(fields)
        if not cards:
            raise Refused("bad_count", "T-B")
        if len(set(cards)) > 1:
            raise Refused("mixed_values", "T-B")
        return {"type": "discard", "value": cards[0], "count": len(cards)}
    if kind == "cross":
        value = _int(fields, "value", 1, 12)
        if fields.get("sets") not in ("", None):
            return {"type": "cross", "value": value, "sets": _sets_text(fields["sets"])}
        cards = _cards(fields)
        if not cards:
            raise Refused("bad_sets", "T-C")
        return {"type": "cross", "value": value, "sets": _sets_from_cards(value, cards)}
    if kind == "extra":
        return {"type": "extra", "value": _int(fields, "value", 1, 12)}
    raise BadInput("kind")


CARD_ID = re.compile(r"^(?:(?:joker|queen|rook|bishop|knight|pawn)-[1-9]|neutral-[12])$")


def _triumfdrez_digital(kind: str, fields: dict) -> dict:
    if kind == "bid":
        return {"type": "bid", **_bid_fields(fields)}
    if kind == "play":
        card = fields.get("card")
        if not isinstance(card, str) or not CARD_ID.match(card):
            raise BadInput("card")
        return {"type": "play", "card": card}
    if kind in ("pass", "next_hand"):
        return {"type": kind}
    raise BadInput("kind")


PARSERS = {
    ("triggs", "companion"): _triggs_companion,
    ("triggs", "digital"): _triggs_digital,
    ("triumfdrez", "companion"): _triumfdrez_companion,
    ("triumfdrez", "digital"): _triumfdrez_digital,
}


def parse_action(table: Table, fields: dict) -> dict:
    parser = PARSERS.get((table.game, table.mode))
    kind = fields.get("kind")
    if parser is None or not isinstance(kind, str):
        raise BadInput("kind")
    return parser(kind, fields)


def perform(table: Table, seat: int, fields: dict, version: int, action_id: str, holder=None):
    """One phone's request, from a POST or a WebSocket message alike: a move through
    services.apply_action, or the first pick of a two-tap Triggs draw (games.draws).
    `holder`: the phone's token hashes, when the seat is still to be checked as its own."""
    if fields.get("kind") == "draw_first" and (table.game, table.mode) == ("triggs", "digital"):
        pile = _choice(fields, "first", PILES)
        if pile is None:
            raise BadInput("first")
        services.pick_first_draw(table, seat, pile, version, holder)
        return services.Applied(version)
    action = parse_action(table, fields)
    return services.apply_action(table, seat, action, version, action_id, holder)
