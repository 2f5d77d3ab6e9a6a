"""A phone's fields → a TriumfDrez action (games.fields refuses malformed input)."""

import datetime

from django.utils import timezone

from games import fields as f
from games.triumfdrez.engine import BID_MAX, BID_MIN, COLOURS, DECK, FIGURES, TRICKS_MAX

# what the tracker's corrections and adjustments read (the engine checks the rules: an
# adjustment's size, a reason's length, which hand was recorded, with its own refusals)
HAND_NO_MAX = 9999
POINTS_READ = 10**6
REASON_READ = 1000
STAMPED = ("correct_hand", "confirm", "reject", "set_dealer", "adjust")


def stamp() -> str:
    """When a correction, an answer, a dealer set or an adjustment was entered (UTC, to the
    minute): kept by the tracker for its history."""
    return timezone.now().astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M")


def reason(fields) -> str:
    """An adjustment's reason: text (its length is the engine's rule, bad_reason)."""
    raw = fields.get("reason")
    if not isinstance(raw, str) or len(raw) > REASON_READ:
        raise f.BadInput("reason")
    return raw


def amendment(kind: str, fields) -> dict:
    """A correction of a recorded hand, its answer, the dealer set or an adjustment."""
    if kind == "correct_hand":
        action = {
            "type": kind,
            "hand_no": f.integer(fields, "hand_no", 1, HAND_NO_MAX),
            "seat": f.integer(fields, "declarer", 0, 3),
            **bid_fields(fields),
            "won": f.integer(fields, "won", 0, TRICKS_MAX),
        }
    elif kind == "set_dealer":
        action = {"type": kind, "seat": f.integer(fields, "dealer", 0, 3)}
    elif kind == "adjust":
        action = {
            "type": kind,
            "team": f.integer(fields, "team", 0, 3),
            "points": f.integer(fields, "points", -POINTS_READ, POINTS_READ),
            "reason": reason(fields),
        }
    else:
        action = {"type": kind}
    return {**action, "at": stamp()}


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
    next deal at a digital table; a contract entered directly, a hand's tricks, taking
    an entry back, correcting a recorded hand (and answering that), setting the dealer or
    adjusting a side's total on the companion tracker."""
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
        if kind in STAMPED:
            return amendment(kind, fields)
        raise f.BadInput("kind")
    if kind == "play":
        card = fields.get("card")
        if not isinstance(card, str) or card not in DECK:
            raise f.BadInput("card")
        return {"type": "play", "card": card}
    if kind in ("pass", "next_hand"):
        return {"type": kind}
    raise f.BadInput("kind")
