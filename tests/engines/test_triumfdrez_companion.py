"""TriumfDrez companion mode (games/triumfdrez/companion.py): the bid and score tracker.

D-PLAYERS, D-DEAL, D-AUCTION, D-SCORE, D-MATCH, contract entry and the undo actions; one
test per error code; random legal play as a property.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.triumfdrez import auction, companion, errors
from games.triumfdrez.cards import first_dealer

PASS = {"type": "pass"}
UNDO_BID = {"type": "undo_bid"}
UNDO_HAND = {"type": "undo_hand"}


def bid(tricks, trump="queen", supertrump=3, open_=False):
    """A bid; by default one naming a figure and a colour, as an opening bid must."""
    return {
        "type": "bid",
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }


def contract(seat, tricks, trump=None, supertrump=None, open_=False):
    return {
        "type": "contract",
        "seat": seat,
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }


def result(tricks):
    return {"type": "result", "tricks": tricks}


def frozen(state):
    return json.loads(json.dumps(state))


def game(players=4, dealer=3, **config):
    return companion.new_game({"players": players, "dealer": dealer, **config}, 5)


def run(state, *actions, seat=0):
    """Apply the actions one after the other, all entered from `seat`'s phone."""
    for action in actions:
        state = companion.apply(state, seat, action)
    return state


def illegal(state, action, seat=0):
    before = frozen(state)
    with pytest.raises(companion.IllegalAction) as error:
        companion.apply(state, seat, action)
    assert state == before
    return error.value.code


def in_tricks(players=4, dealer=3, declarer=0, tricks=8, **config):
    """A hand whose contract (no trump, no super-trump) was just entered."""
    return run(game(players, dealer, **config), contract(declarer, tricks))


# -- setup -----------------------------------------------------------------------------


def test_new_game_keys_and_teams():  # D-PLAYERS
    state = game(4, dealer=3)
    assert state == {
        "game": "triumfdrez-companion",
        "players": 4,
        "seed": 5,
        "target": 50,
        "teams": [[0, 2], [1, 3]],
        "dealer": 3,
        "hand_no": 1,
        "phase": "auction",
        "turn": 0,
        "auction": [],
        "contract": None,
        "scores": [0, 0],
        "history": [],
        "winner": None,
        "correction": None,
        "adjustments": [],
        "events": [],
    }
    assert game(3, dealer=0)["teams"] == [[0], [1], [2]]
    assert game(2, dealer=0)["scores"] == [0, 0]


def test_first_dealer_is_random_from_the_seed_and_the_next_seat_bids_first():  # D-DEAL
    for seed in range(6):
        state = companion.new_game({"players": 3, "target": 20}, seed)
        assert state["dealer"] == first_dealer(seed, 3)
        assert state["turn"] == (state["dealer"] + 1) % 3
        assert companion.new_game({"players": 3, "target": 20}, seed) == state


def test_dealer_moves_one_seat_each_hand():  # D-DEAL ruling
    state = run(in_tricks(4, dealer=3), result(8))
    assert (state["dealer"], state["turn"], state["hand_no"]) == (0, 1, 2)
    assert (state["phase"], state["auction"], state["contract"]) == ("auction", [], None)


# -- the auction -----------------------------------------------------------------------


def test_seed_example_auction_is_attributed_to_the_turn():  # D-AUCTION
    state = run(
        game(4, dealer=3),
        bid(8, "knight", 5),
        bid(9, "bishop", 2),
        bid(9, None, 9),
        bid(9, None, 7, open_=True),
        bid(10, "knight", 5),
        PASS,
        PASS,
        seat=2,  # one phone enters the whole auction
    )
    assert [entry["seat"] for entry in state["auction"]] == [0, 1, 2, 3, 0, 1, 2]
    assert state["phase"] == "auction" and state["turn"] == 3
    state = companion.apply(state, 1, PASS)
    assert state["phase"] == "tricks"
    assert state["contract"] == {
        "seat": 0,
        "tricks": 10,
        "trump": "knight",
        "supertrump": 5,
        "open": False,
    }
    assert state["turn"] == 0


def test_first_bidder_must_bid_and_equal_bids_do_not_beat():  # D-AUCTION
    state = game()
    assert illegal(state, PASS) == "must_bid"
    assert companion.legal_actions(state) == auction.bids_above(None)
    assert illegal(state, bid(8, None, 3)) == "opening_bid_names_both"  # D-AUCTION ruling
    state = run(state, bid(7), bid(8, None, 3))
    assert illegal(state, bid(8, None, 4)) == "bid_too_low"  # equal in the order of bids
    assert illegal(state, bid(8, "queen", 3, open_=False)) == "bid_too_low"
    assert run(state, bid(8, "queen", 3, open_=True))["auction"][-1]["open"] is True


def test_a_player_who_passed_may_bid_again():  # D-AUCTION ruling
    state = run(game(3, dealer=2), bid(5), PASS, bid(6))  # seat 1 passed, seat 2 bid
    state = run(state, PASS, bid(7))  # seat 0 passes, seat 1 comes back
    assert state["phase"] == "auction"
    state = run(state, PASS, PASS)
    assert state["phase"] == "tricks" and state["contract"]["seat"] == 1


def test_two_players_auction_ends_after_one_pass():  # D-AUCTION
    state = run(game(2, dealer=0), bid(4), PASS)
    assert state["phase"] == "tricks" and state["contract"]["seat"] == 1


def test_entering_just_the_contract_replaces_the_auction():
    state = run(game(), bid(5), bid(6))
    state = companion.apply(state, 3, contract(1, 9, "rook", None, open_=True))
    assert state["phase"] == "tricks"
    assert state["auction"] == []
    assert state["contract"] == {
        "seat": 1,
        "tricks": 9,
        "trump": "rook",
        "supertrump": None,
        "open": True,
    }
    assert state["turn"] == 1


def test_legal_actions_list_pass_bids_results_and_undos():
    state = run(game(), bid(12, open_=True), bid(12, None, None, open_=True))
    top = state["auction"][-1]
    assert companion.legal_actions(state) == [PASS, *auction.bids_above(top), UNDO_BID]
    assert len(companion.legal_actions(state)) == 2 + 2 * 7 * 10  # only 13-trick bids left
    state = run(state, PASS, PASS, PASS)
    assert companion.legal_actions(state, 3) == [result(n) for n in range(14)] + [UNDO_BID]
    state = run(state, result(12))
    assert companion.legal_actions(state)[-1] == UNDO_HAND


def test_undo_actions_are_the_undos_the_legal_actions_end_with():
    rng = random.Random(11)
    state, seen = game(), set()
    for _step in range(120):
        legal = companion.legal_actions(state)
        undos = companion.undo_actions(state)
        assert legal[len(legal) - len(undos) :] == undos
        assert not [a for a in legal[: len(legal) - len(undos)] if a["type"].startswith("undo")]
        seen.add(tuple(a["type"] for a in undos))
        if companion.is_over(state):
            break
        state = companion.apply(state, 0, rng.choice(legal))
    assert {(), ("undo_bid",), ("undo_bid", "undo_hand")} <= seen


# -- undo ------------------------------------------------------------------------------


def test_undo_bid_removes_the_latest_entry_and_gives_its_turn_back():
    state = run(game(), bid(5), PASS)
    state = run(state, UNDO_BID)
    assert state["auction"] == [
        {"seat": 0, "tricks": 5, "trump": "queen", "supertrump": 3, "open": False}
    ]
    assert state["turn"] == 1
    state = run(state, UNDO_BID)
    assert (state["auction"], state["turn"]) == ([], 0)


def test_undo_bid_reopens_a_finished_auction():
    state = run(game(), bid(5), PASS, PASS, PASS)
    assert state["phase"] == "tricks"
    state = run(state, UNDO_BID)
    assert (state["phase"], state["contract"], state["turn"]) == ("auction", None, 3)
    assert len(state["auction"]) == 3
    state = run(state, bid(6))
    assert state["auction"][-1]["seat"] == 3


def test_undo_bid_takes_back_a_directly_entered_contract():
    state = run(in_tricks(4, dealer=1, declarer=3), UNDO_BID)
    assert (state["phase"], state["contract"], state["auction"], state["turn"]) == (
        "auction",
        None,
        [],
        2,
    )


def test_undo_hand_restores_the_hand_for_new_tricks():
    before = run(game(), bid(8), PASS, PASS, PASS)
    state = run(before, result(6), bid(3))  # the next hand's auction has begun
    assert state["scores"] == [0, 12]
    state = run(state, UNDO_HAND)
    assert state == before
    assert run(state, result(9))["scores"] == [10, 0]


def test_undo_hand_works_once_the_match_is_over():
    state = run(in_tricks(tricks=13, target=13), result(13))
    assert (state["phase"], state["winner"], state["turn"]) == ("match_over", 0, None)
    assert companion.legal_actions(state) == [UNDO_HAND]
    state = run(state, UNDO_HAND)
    assert (state["phase"], state["winner"], state["scores"]) == ("tricks", None, [0, 0])


# -- scoring and the match -------------------------------------------------------------


def test_contract_made_scores_for_the_declaring_team():  # D-SCORE
    state = run(in_tricks(4, declarer=2, tricks=8), result(10))
    assert state["scores"] == [12, 0]  # seat 2 plays with seat 0
    assert state["history"] == [
        {
            "hand_no": 1,
            "dealer": 3,
            "contract": {
                "seat": 2,
                "tricks": 8,
                "trump": None,
                "supertrump": None,
                "open": False,
            },
            "auction": [],
            "tricks_won": 10,
            "declaring_team": 0,
            "points": [12, 0],
            "scores": [12, 0],
        }
    ]


def test_contract_failed_scores_for_every_opponent():  # D-SCORE
    state = run(in_tricks(3, dealer=0, declarer=1, tricks=8), result(7))
    assert state["scores"] == [10, 0, 10]
    assert state["history"][-1]["points"] == [10, 0, 10]


def test_first_side_to_reach_the_target_wins():  # D-MATCH
    state = in_tricks(2, dealer=0, declarer=1, tricks=10, target=20)
    state = run(state, result(10))
    assert state["phase"] == "auction" and state["scores"] == [0, 10]
    state = run(state, contract(1, 10), result(10))
    assert (state["phase"], state["winner"]) == ("match_over", 1)
    assert illegal(state, bid(3)) == "game_over"


def test_a_tie_at_the_top_plays_another_hand():  # D-MATCH ruling
    state = game(3, dealer=0, target=10) | {"scores": [0, 7, 7]}
    state = run(state, contract(0, 3), result(2))  # failed: both opponents get 5
    assert state["scores"] == [0, 12, 12]
    assert (state["phase"], state["winner"], state["hand_no"]) == ("auction", None, 2)
    state = game(3, dealer=0, target=10) | {"scores": [0, 9, 7]}
    state = run(state, contract(0, 3), result(2))
    assert (state["phase"], state["winner"]) == ("match_over", 1)  # the highest total


# -- view ------------------------------------------------------------------------------


def test_view_shows_everything_but_the_seed():
    state = run(game(), bid(5, "pawn", 2), PASS)
    seen = companion.view(state, 1)
    assert set(seen) == (set(state) - {"seed"}) | {
        *("seat", "current_bid", "lowest_beating", "declaring_team"),
    }
    assert seen["current_bid"] == state["auction"][0]
    assert seen["lowest_beating"] == [6, 5, 5, 5, 5, 5, 5, 5]  # beats 5 pawn 2 (D-AUCTION)
    assert seen["declaring_team"] is None
    seen = companion.view(run(state, PASS, PASS), None)
    assert (seen["seat"], seen["declaring_team"]) == (None, 0)
    assert seen["lowest_beating"] is None  # phase "tricks"
    seen["auction"].clear()
    assert len(state["auction"]) == 2  # the view is a copy


# -- error codes -----------------------------------------------------------------------


ERRORS = {
    "bad_seat": (game(), 4, PASS),
    "bad_action": (game(), 0, {"type": "bid", "tricks": 3}),
    "game_over": (game() | {"phase": "match_over", "winner": 0, "turn": None}, 0, bid(3)),
    "wrong_phase": (game(), 0, result(3)),
    "bad_tricks": (game(), 0, bid(14)),
    "bad_trump": (game(), 0, bid(3, "king")),
    "bad_supertrump": (game(), 0, bid(3, None, 0)),
    "must_bid": (game(), 0, PASS),
    "bid_too_low": (run(game(), bid(5)), 0, bid(4)),
    "opening_bid_names_both": (game(), 0, bid(5, None, 3)),
    "bad_result": (in_tricks(), 0, result(14)),
    "no_bid_to_undo": (game(), 0, UNDO_BID),
    "no_hand_to_undo": (game(), 0, UNDO_HAND),
    # corrections, the dealer and adjustments (tests/engines/test_triumfdrez_corrections.py)
    "no_such_hand": (game(), 0, {**contract(0, 7), "type": "correct_hand", "hand_no": 1, "won": 7}),
    "no_correction": (game(), 0, {"type": "confirm"}),
    "no_change": (
        run(in_tricks(declarer=0, tricks=7), result(7)),
        0,
        {**contract(0, 7), "type": "correct_hand", "hand_no": 1, "won": 7},
    ),
    "same_side": (
        run(
            run(in_tricks(declarer=0, tricks=7), result(7)),
            {**contract(0, 7), "type": "correct_hand", "hand_no": 1, "won": 8},
        ),
        2,
        {"type": "confirm"},
    ),
    "bids_entered": (run(game(), bid(5)), 0, {"type": "set_dealer", "seat": 1}),
    "bad_team": (game(), 0, {"type": "adjust", "team": 2, "points": 1, "reason": "x"}),
    "bad_points": (game(), 0, {"type": "adjust", "team": 0, "points": 0, "reason": "x"}),
    "bad_reason": (game(), 0, {"type": "adjust", "team": 0, "points": 1, "reason": ""}),
}


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_error_code(code):
    state, seat, action = ERRORS[code]
    assert illegal(state, action, seat) == code


def test_every_code_is_tested_and_documented():
    assert set(ERRORS) | {"bad_config"} == set(companion.CODES)
    for code, (rule, text) in companion.CODES.items():
        assert rule.startswith("D-") and text, code


def test_the_error_class_is_the_triumfdrez_one():
    assert issubclass(companion.IllegalAction, errors.IllegalAction)
    with pytest.raises(errors.IllegalAction) as error:
        companion.apply(game(), 0, UNDO_HAND)
    assert error.value.rule == "D-SCORE"


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (True, bid(3), "bad_seat"),  # bools are not ints
        (0, "bid", "bad_action"),
        (0, {"type": "shout"}, "bad_action"),
        (0, {"type": "pass", "seat": 1}, "bad_action"),
        (0, bid(True), "bad_tricks"),
        (0, bid(0), "bad_tricks"),
        (0, bid(3, "Queen"), "bad_trump"),
        (0, bid(3, None, True), "bad_supertrump"),
        (0, bid(3) | {"open": 0}, "bad_action"),
        (0, contract(4, 3), "bad_seat"),
        (0, contract(False, 3), "bad_seat"),
        (0, contract(1, 14), "bad_tricks"),
        (0, result(-1), "bad_result"),
        (0, result(False), "bad_result"),
    ],
)
def test_malformed_actions(seat, action, code):
    assert illegal(game(), action, seat) == code


def test_phases_of_actions():
    assert illegal(in_tricks(), bid(13)) == "wrong_phase"
    assert illegal(in_tricks(), PASS) == "wrong_phase"
    assert illegal(in_tricks(), contract(0, 13)) == "wrong_phase"
    assert illegal(game(), result(3)) == "wrong_phase"


@pytest.mark.parametrize(
    "config",
    [
        None,
        {"players": 1},
        {"players": 5},
        {"players": 4.0},
        {"players": 4, "target": 0},
        {"players": 4, "target": 1001},
        {"players": 4, "target": True},
        {"players": 4, "dealer": 4},
        {"players": 4, "dealer": None},
    ],
)
def test_bad_config(config):
    with pytest.raises(companion.IllegalAction) as error:
        companion.new_game(config, 1)
    assert error.value.code == "bad_config"


# -- random play -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    target=st.integers(1, 60),
    seed=st.integers(0, 2**32),
)
def test_random_legal_play_reaches_the_end_of_the_match(players, target, seed):
    rng = random.Random(seed)
    state = companion.new_game({"players": players, "target": target}, seed)
    for _ in range(5000):
        if state["phase"] == "match_over":
            break
        legal = companion.legal_actions(state, rng.randrange(players))
        assert legal
        roll = rng.random()
        if roll < 0.05:
            choices = [a for a in legal if a["type"].startswith("undo")] or legal
        elif roll < 0.1 and state["phase"] == "auction":
            choices = [contract(rng.randrange(players), rng.randint(1, 13), "queen", 4)]
        elif state["phase"] == "auction" and rng.random() < 0.6:
            choices = [a for a in legal[:30] if a["type"] in ("pass", "bid")]  # low bids
        else:
            choices = [a for a in legal if not a["type"].startswith("undo")]
        before = frozen(state)
        new = companion.apply(state, rng.randrange(players), rng.choice(choices))
        assert state == before  # no mutation
        assert frozen(new) == new  # plain JSON
        assert "seed" not in companion.view(new, None)
        assert new["scores"] == [
            sum(hand["points"][team] for hand in new["history"])
            for team in range(len(new["teams"]))
        ]
        state = new
    assert state["phase"] == "match_over"
    assert max(state["scores"]) >= target
    assert state["scores"].count(max(state["scores"])) == 1
