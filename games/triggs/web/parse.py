"""A phone's fields → a Triggs action, and the digital draw's two taps (T-A): the first
pile is stored on the seat (Seat.pending), which is then committed to drawing, and the
phone is shown what that first card uncovered before it picks the second."""

from games import fields as f
from games.errors import Refused
from games.triggs import engine

LOWEST, HIGHEST = engine.VALUES[0], engine.VALUES[-1]  # the cards' values, and the rows'
MOST_SETS = max(engine.ROW_SIZES)  # no row takes more sets than its boxes (T-C-CAP)
SETS_MAX_LENGTH = 40


def value(fields, name: str = "value") -> int:
    """A card's value or a row's (1–12)."""
    return f.integer(fields, name, LOWEST, HIGHEST)


def sets_text(raw) -> list[list[int]]:
    """'11|7+4' → [[11], [7, 4]]; the engine judges the sets themselves."""
    if not isinstance(raw, str) or len(raw) > SETS_MAX_LENGTH:
        raise f.BadInput("sets")
    parts = raw.split("|")
    if len(parts) > MOST_SETS:
        raise f.BadInput("sets")
    sets = []
    for part in parts:
        cards = part.split("+")
        if len(cards) > engine.MAX_SET_CARDS:
            raise f.BadInput("sets")
        sets.append([value({"card": card}, "card") for card in cards])
    return sets


def ticked_cards(fields) -> list[int]:
    """The hand's ticked cards."""
    raw = f.repeated(fields, "card", engine.HAND_LIMIT)
    return [value({"card": item}, "card") for item in raw]


def parse(mode: str, fields) -> dict:
    """The action a phone's fields ask for (GameWeb.parse)."""
    kind = fields.get("kind")
    if kind == "extra":
        return {"type": "extra", "value": value(fields)}
    if kind == "cross" and "box" in fields:
        # a button of the play sheet ("<row>:<number of sets>") or of the digital
        # proposals ("<row>:<sets>", as in `sets_text`)
        row, colon, sets = str(fields["box"]).partition(":")
        if not (colon and sets):
            raise f.BadInput("box")
        fields = {"value": row, "sets": sets}
    if mode == "companion":
        return _companion(kind, fields)
    return _digital(kind, fields)


def _companion(kind, fields) -> dict:
    if kind == "cross":
        return {
            "type": "cross",
            "value": value(fields),
            "sets": f.integer(fields, "sets", 1, MOST_SETS),
        }
    if kind in ("pass", "undo", "confirm", "reject"):
        return {"type": kind}
    if kind == "correct":  # a correction of seat `target`'s row `value`
        return {
            "type": "correct",
            "seat": f.integer(fields, "target", 0, 3),
            "value": value(fields),
            "crosses": f.integer(fields, "crosses", 0, MOST_SETS),
        }
    raise f.BadInput("kind")


def _digital(kind, fields) -> dict:
    if kind == "draw":
        first = f.choice(fields, "first", engine.PILE_NAMES)
        second = f.choice(fields, "second", engine.PILE_NAMES)
        if first is None:
            raise Refused("bad_sources", "T-A")
        return {"type": "draw", "from": [first] if second is None else [first, second]}
    if kind == "discard":
        cards = ticked_cards(fields)
        if not cards:
            raise Refused("bad_count", "T-B")
        if len(set(cards)) > 1:
            raise Refused("mixed_values", "T-B")
        return {"type": "discard", "value": cards[0], "count": len(cards)}
    if kind == "cross":
        row = value(fields)
        if fields.get("sets") not in ("", None):
            return {"type": "cross", "value": row, "sets": sets_text(fields["sets"])}
        cards = ticked_cards(fields)
        if not cards:
            raise Refused("bad_sets", "T-C")
        try:
            sets = engine.sets_from_cards(row, cards)
        except engine.IllegalAction as error:
            raise Refused(error.code, error.rule) from None
        return {"type": "cross", "value": row, "sets": sets}
    raise f.BadInput("kind")


def wants_step(mode: str, fields) -> bool:
    return mode == "digital" and fields.get("kind") == "draw_first"


def step(state: dict, seat: int, fields) -> str:
    """The first pile of a draw, stored on the seat until its second card."""
    pile = f.choice(fields, "first", engine.PILE_NAMES)
    if pile is None:
        raise f.BadInput("first")
    error = engine.first_draw_refusal(state, seat, pile)
    if error is not None:
        raise Refused(error.code, error.rule)
    return pile


def check_move(pending: str | None, action: dict) -> None:
    """A seat that took its first card may only finish that draw."""
    if pending and not (
        action.get("type") == "draw"
        and type(action.get("from")) is list
        and action["from"][:1] == [pending]
    ):
        raise Refused("draw_committed", "T-A")


def sets_field(sets) -> str:
    """[[11], [7, 4]] → '11|7+4': sets as a button sends them (`sets_text` reads them)."""
    return "|".join("+".join(map(str, cards)) for cards in sets)
