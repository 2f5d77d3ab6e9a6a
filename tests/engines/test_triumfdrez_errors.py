"""Every IllegalAction code: one case per code, plus the malformed actions that are refused."""

import pytest

from games.triumfdrez import engine
from games.triumfdrez.errors import CODES

from .test_triumfdrez_support import PASS, auction_state, bid, frozen, play, play_position


def _in_auction_after_a_bid():
    return engine.apply(auction_state(players=4, dealer=3), 0, bid(5, "rook", 3))


def _finished_match():
    state = play_position([["joker-9"], ["pawn-1"]], tricks=1, tricks_won=[7, 5], target=5)
    state = engine.apply(state, 0, play("joker-9"))
    state = engine.apply(state, 1, play("pawn-1"))
    assert state["phase"] == "match_over"
    return state


def _following_rook():
    return play_position(
        [["pawn-1"], ["rook-9", "joker-2", "neutral-1"], ["queen-5", "pawn-7"]],
        trick=[(0, "rook-3")],
    )


# code → (state, seat, action) that must be refused with that code
CASES = {
    "bad_seat": lambda: (auction_state(dealer=3), 7, bid(1, "pawn", 1)),
    "bad_action": lambda: (auction_state(dealer=3), 0, {"type": "bid", "tricks": 3}),
    "game_over": lambda: (_finished_match(), 0, {"type": "next_hand"}),
    "wrong_phase": lambda: (auction_state(dealer=3), 0, play("pawn-1")),
    "not_your_turn": lambda: (auction_state(dealer=3), 1, bid(1, "pawn", 1)),
    "bad_tricks": lambda: (auction_state(dealer=3), 0, bid(14, "pawn", 1)),
    "bad_trump": lambda: (auction_state(dealer=3), 0, bid(3, "king", 1)),
    "bad_supertrump": lambda: (auction_state(dealer=3), 0, bid(3, "pawn", 10)),
    "must_bid": lambda: (auction_state(dealer=3), 0, PASS),
    "bid_too_low": lambda: (_in_auction_after_a_bid(), 1, bid(5, "queen", 9)),
    "opening_bid_names_both": lambda: (auction_state(dealer=3), 0, bid(5, None, 3)),
    "unknown_card": lambda: (_following_rook(), 1, play("rook-10")),
    "card_not_in_hand": lambda: (_following_rook(), 1, play("rook-1")),
    "must_follow": lambda: (_following_rook(), 1, play("joker-2")),
    "neutral_not_allowed": lambda: (_following_rook(), 1, play("neutral-1")),
}


def test_every_code_is_listed_with_a_rule_and_a_description():
    from games.triumfdrez import companion

    # The full engine's codes are tested here, the companion tracker's own in its tests.
    companion_only = set(companion.CODES) - set(CASES) - {"bad_config"}
    assert companion_only == {
        "bad_result",
        "no_bid_to_undo",
        "no_hand_to_undo",
        "no_such_hand",
        "no_change",
        "no_correction",
        "same_side",
        "bids_entered",
        "bad_team",
        "bad_points",
        "bad_reason",
    }
    assert set(CASES) | {"bad_config"} | companion_only == set(CODES)
    for code, (rule, text) in CODES.items():
        assert rule.startswith("D-") and text.endswith(".")
        assert engine.IllegalAction(code).rule == rule
        assert code in str(engine.IllegalAction(code))


@pytest.mark.parametrize("code", sorted(CASES))
def test_code(code):
    state, seat, action = CASES[code]()
    before = frozen(state)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, seat, action)
    assert error.value.code == code
    assert state == before  # nothing changed


@pytest.mark.parametrize(
    ("config", "seed"),
    [
        ({"players": 5}, 1),
        ({"players": 4, "target": 0}, 1),
        ({"players": 4, "target": True}, 1),
        ({"players": 4, "target": "50"}, 1),
        ({}, 1),
        ({"players": 4}, "1"),
        ({"players": 4}, False),
        ([4], 1),
    ],
)
def test_code_bad_config(config, seed):
    with pytest.raises(engine.IllegalAction) as error:
        engine.new_game(config, seed)
    assert error.value.code == "bad_config"


MALFORMED_BIDS = [
    ("bad_action", "not a dict"),
    ("bad_action", None),
    ("bad_action", {}),
    ("bad_action", {"type": "bet"}),
    ("bad_action", {"type": ["bid"]}),
    ("bad_action", {"type": 1}),
    ("bad_action", {**bid(3, "pawn", 1), "extra": 1}),
    ("bad_action", {k: v for k, v in bid(3, "pawn", 1).items() if k != "open"}),
    ("bad_action", {**bid(3, "pawn", 1), "open": 1}),
    ("bad_action", {**bid(3, "pawn", 1), "open": None}),
    ("bad_action", {"type": "pass", "seat": 0}),
    ("bad_action", {"type": "next_hand", "now": True}),
    ("bad_action", {"type": "play"}),
    ("bad_action", {"type": "play", "card": "pawn-1", "seat": 0}),
    ("bad_tricks", bid(0, "pawn", 1)),
    ("bad_tricks", bid(True, "pawn", 1)),
    ("bad_tricks", bid(3.0, "pawn", 1)),
    ("bad_tricks", bid("3", "pawn", 1)),
    ("bad_tricks", bid(None, "pawn", 1)),
    ("bad_trump", bid(3, "Pawn", 1)),
    ("bad_trump", bid(3, "neutral", 1)),
    ("bad_trump", bid(3, 5, 1)),
    ("bad_trump", bid(3, ["pawn"], 1)),
    ("bad_supertrump", bid(3, "pawn", 0)),
    ("bad_supertrump", bid(3, "pawn", True)),
    ("bad_supertrump", bid(3, "pawn", "5")),
    ("bad_supertrump", bid(3, "pawn", 5.0)),
    ("unknown_card", play("neutral-3")),
    ("unknown_card", play(7)),
    ("unknown_card", play(["pawn-1"])),
    ("unknown_card", play(None)),
]


@pytest.mark.parametrize(("code", "action"), MALFORMED_BIDS)
def test_malformed_actions_are_refused(code, action):
    state = auction_state(dealer=3)
    before = frozen(state)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 0, action)
    assert error.value.code == code
    assert state == before


@pytest.mark.parametrize("seat", [None, -1, 4, True, "0", 0.0])
def test_seats_that_do_not_exist_are_refused(seat):
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(auction_state(dealer=3), seat, bid(1, "pawn", 1))
    assert error.value.code == "bad_seat"


@pytest.mark.parametrize(
    ("phase", "action"),
    [
        ("auction", {"type": "next_hand"}),
        ("play", PASS),
        ("play", bid(13, None, None, True)),
        ("play", {"type": "next_hand"}),
        ("hand_over", PASS),
        ("hand_over", play("rook-9")),
    ],
)
def test_actions_outside_their_phase(phase, action):
    state = _following_rook() if phase != "auction" else auction_state(dealer=0)
    state["phase"] = phase
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 1, action)
    assert error.value.code == "wrong_phase"


def test_next_hand_from_any_seat():
    state = _following_rook()
    state["phase"] = "hand_over"
    for seat in range(3):
        assert engine.apply(state, seat, {"type": "next_hand"})["phase"] == "auction"
