"""A phone's fields → a TriumfDrez action (games.fields refuses malformed input)."""

from games import fields as f
from games.triumfdrez.engine import BID_MAX, BID_MIN, COLOURS, DECK, FIGURES, TRICKS_MAX


def bid_fields(fields) -> dict:
    """A bid's tricks, trump, super-trump and whether it is open (D-AUCTION)."""
    return {
        "tricks": f.integer(fields, "tricks", BID_MIN, BID_MAX),
        "trump": f.choice(fields, "trump", FIGURES),
        "supertrump": f.optional_integer(fields, "supertrump", min(COLOURS), max(COLOURS)),
        "open": f.flag(fields, "open"),
    }


def parse(mode: str, fields) -> dict:
    """The action a phone's fields ask for: a bid or a pass in both modes; a card or the
    next deal at a digital table; a contract entered directly, a hand's tricks or taking
    an entry back on the companion tracker."""
    kind = fields.get("kind")
    if kind == "bid":
        return {"type": "bid", **bid_fields(fields)}
    if mode == "companion":
        if kind == "contract":
            declarer = f.integer(fields, "declarer", 0, 3)
            return {"type": "contract", "seat": declarer, **bid_fields(fields)}
        if kind == "result":
            return {"type": "result", "tricks": f.integer(fields, "tricks", 0, TRICKS_MAX)}
        if kind in ("pass", "undo_bid", "undo_hand"):
            return {"type": kind}
        raise f.BadInput("kind")
    if kind == "play":
        card = fields.get("card")
        if not isinstance(card, str) or card not in DECK:
            raise f.BadInput("card")
        return {"type": "play", "card": card}
    if kind in ("pass", "next_hand"):
        return {"type": kind}
    raise f.BadInput("kind")
