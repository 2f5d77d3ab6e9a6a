"""Illegal-action codes for Triggs, all in one place (rule ids are those of rules.md).

The web layer turns a code into a translated sentence; the English text here is only
for logs and for the code's own documentation.
"""

from games import engine_errors

# code -> (rule id, English description)
CODES: dict[str, tuple[str, str]] = {
    "bad_config": ("T-SETUP-1", "config needs players 2-4 (an int) and the seed must be an int"),
    "bad_action": ("T-A", "an action is a dict with a string 'type'"),
    "unknown_action": ("T-A", "the action type is not draw, discard, cross or extra"),
    "missing_field": ("T-A", "the action lacks a field its type requires"),
    "unexpected_field": ("T-A", "the action has a field its type does not take"),
    "game_over": ("T-WIN", "the game is over"),
    "bad_seat": ("T-SETUP-3", "the seat is not an int naming a player of this game"),
    "not_your_turn": ("T-SETUP-3", "it is another seat's turn"),
    "extra_pending": ("T-C-BONUS", "an extra cross must be placed before anything else"),
    "no_extra_pending": ("T-C-BONUS", "there is no extra cross to place"),
    "bad_sources": ("T-A", "'from' must be a list of pile names: left, stock, right"),
    "hand_full": ("T-A-LIMIT", "a hand of 10 cards may not draw"),
    "wrong_draw_count": ("T-A-LIMIT", "draw 2 cards, or exactly 1 with 9 cards in hand"),
    "pile_empty": ("T-REFILL", "that pile is empty and the discard pile cannot refill it"),
    "bad_value": ("T-SHEET", "the value must be one int from 1 to 12"),
    "bad_count": ("T-B", "the count must be an int of at least 1"),
    "cards_not_in_hand": ("T-B", "the hand does not hold those cards"),
    "row_full": ("T-C-CAP", "that row is already full"),
    "bad_sets": ("T-C", "sets must be a non-empty list of card lists with values 1 to 12"),
    "set_too_large": ("T-C", "a set is one card or two cards, never three or more"),
    "set_wrong_sum": ("T-C", "a set must be one card of the value or two cards summing to it"),
    "too_many_sets": ("T-C-CAP", "more sets than open boxes in that row"),
    # the companion score sheet (games/triggs/companion.py)
    "no_turns": ("T-SETUP-3", "companion: a turn without a cross needs the turn marker"),
    "nothing_to_undo": ("T-SHEET", "companion: only a seat's own latest entry can be undone"),
    "bad_crosses": ("T-SHEET", "companion: a row holds from 0 to its size crosses"),
    "no_change": ("T-SHEET", "companion: the correction leaves the row as it is"),
    "correction_pending": ("T-SHEET", "companion: another correction waits for its answer"),
    "no_correction": ("T-SHEET", "companion: no correction waits for this seat's answer"),
}


class IllegalAction(engine_errors.IllegalAction):
    """An illegal or malformed action (or config); `code` is a stable key of CODES."""

    CODES = CODES


def check_shape(action, fields_by_type: dict) -> str:
    """The action's type, once it is a dict with exactly the fields its type takes."""
    if type(action) is not dict or type(action.get("type")) is not str:
        raise IllegalAction("bad_action")
    kind = action["type"]
    fields = fields_by_type.get(kind)
    if fields is None:
        raise IllegalAction("unknown_action", kind)
    if action.keys() != fields:
        missing = fields - action.keys()
        if missing:
            raise IllegalAction("missing_field", ", ".join(sorted(missing)))
        raise IllegalAction("unexpected_field", ", ".join(sorted(action.keys() - fields)))
    return kind
