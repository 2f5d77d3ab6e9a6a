"""Digital Triggs draws in two taps (T-A): the player takes a first card, sees what that
uncovered on a face-up pile, then chooses where the second card comes from.

The engine's draw stays one action naming both piles (the engine contract); this table
layer step only remembers the first choice (Seat.pending_draw, "<version>:<pile>"),
which commits the seat to drawing, and works out the card it uncovered: public at a
real table the moment the first card is taken.
"""

from collections import Counter

from games.triggs import engine

PILES = ("left", "stock", "right")


def committed_pile(seat, version: int) -> str | None:
    """The pile `seat` took its first card from at this version, if it did."""
    stamp, _sep, pile = (seat.pending_draw or "").partition(":")
    return pile if stamp == str(version) and pile in PILES else None


def first_draw_refusal(state: dict, seat: int, pile: str):
    """None if some draw starting with `pile` is legal for `seat`, else the engine's error."""
    error = None
    for second in PILES:
        try:
            engine.apply(state, seat, {"type": "draw", "from": [pile, second]})
            return None
        except engine.IllegalAction as refusal:
            error = refusal
    return error


def preview(state: dict, seat: int, pile: str) -> dict:
    """What the first card from `pile` showed: that card when it lay face up, and the card
    it uncovered on a face-up pile (None when face down or when the pile ran out)."""
    if pile == "stock":
        return {"pile": pile, "first": None, "uncovered": None}
    cards = state["piles"][pile]
    first = cards[-1] if cards else None
    try:
        after = engine.apply(state, seat, {"type": "draw", "from": [pile, pile]})
    except engine.IllegalAction:
        return {"pile": pile, "first": first, "uncovered": None}
    drawn = Counter(after["hands"][seat]) - Counter(state["hands"][seat])
    if first is not None:
        drawn[first] -= 1
    rest = sorted(drawn.elements())
    return {"pile": pile, "first": first, "uncovered": rest[0] if len(rest) == 1 else None}
