"""Every refusal the TriumfDrez engine can give, in one place.

`CODES` maps each stable code to the rule it enforces and a plain English
description (for logs; the web layer translates codes itself).
"""

from games import engine_errors

CODES: dict[str, tuple[str, str]] = {
    "bad_config": (
        "D-PLAYERS",
        "The table settings are invalid: 2 to 4 players, a positive whole-number target "
        "and a whole-number seed.",
    ),
    "bad_seat": ("D-PLAYERS", "There is no such seat at this table."),
    "bad_action": (
        "D-PLAY",
        "The action is malformed: unknown type, missing or extra fields, or a field of the "
        "wrong type.",
    ),
    "game_over": ("D-MATCH", "The match is over; no more actions are possible."),
    "wrong_phase": ("D-PLAY", "That action is not possible at this stage of the hand."),
    "not_your_turn": ("D-DEAL", "It is not this seat's turn."),
    "bad_tricks": ("D-AUCTION", "A bid must name a whole number of tricks from 1 to 13."),
    "bad_trump": (
        "D-AUCTION",
        "The trump must be one of the six figures (Joker, Queen, Rook, Bishop, Knight, "
        "Pawn) or none.",
    ),
    "bad_supertrump": (
        "D-AUCTION",
        "The super-trump must be a colour number from 1 to 9 or none.",
    ),
    "must_bid": ("D-AUCTION", "The first bidder of a hand cannot pass and must bid."),
    "bid_too_low": ("D-AUCTION", "A bid must beat the current highest bid."),
    "opening_bid_names_both": (
        "D-AUCTION",
        "The opening bid of a hand must name a trump figure and a super-trump colour.",
    ),
    "unknown_card": ("D-DECK", "There is no such card in the deck."),
    "card_not_in_hand": ("D-PLAY", "That card is not in this player's hand."),
    "must_follow": (
        "D-FOLLOW",
        "A player who holds a card of the led figure must play one.",
    ),
    "bad_result": (
        "D-SCORE",
        "Companion tracker: the tricks won by the declaring side must be a whole number "
        "from 0 to 13.",
    ),
    "no_bid_to_undo": ("D-AUCTION", "Companion tracker: no bid or pass of this hand yet."),
    "no_hand_to_undo": ("D-SCORE", "Companion tracker: no hand has been recorded yet."),
    "no_such_hand": ("D-SCORE", "Companion tracker: no hand of that number has been recorded."),
    "no_change": ("D-SCORE", "Companion tracker: the correction changes nothing in that hand."),
    "no_correction": (
        "D-SCORE",
        "Companion tracker: no correction is waiting, or this seat may not answer it.",
    ),
    "same_side": (
        "D-PLAYERS",
        "Companion tracker: a correction is confirmed by a player of another side than "
        "the one who proposed it.",
    ),
    "bids_entered": (
        "D-DEAL",
        "Companion tracker: the dealer is set before the first bid of the hand.",
    ),
    "bad_team": ("D-PLAYERS", "Companion tracker: there is no such side."),
    "bad_points": (
        "D-SCORE",
        "Companion tracker: an adjustment is a whole number of points from -1000 to 1000, not 0.",
    ),
    "bad_reason": (
        "D-SCORE",
        "Companion tracker: an adjustment gives a reason of 1 to 80 characters.",
    ),
    "neutral_not_allowed": (
        "D-NEUTRAL",
        "A neutral card may only be led, or played by a player without a card of the led figure.",
    ),
}


class IllegalAction(engine_errors.IllegalAction):
    """An illegal or malformed action; `code` is a key of `CODES`, `rule` its rule id."""

    CODES = CODES
