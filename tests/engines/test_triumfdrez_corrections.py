"""TriumfDrez companion tracker: correcting any recorded hand (proposed by one side,
confirmed by another), setting the dealer, adjusting a side's total (D-DEAL, D-SCORE,
D-MATCH). A refusal changes nothing."""

import json

import pytest

from games.triumfdrez import companion
from games.triumfdrez.scoring import hand_points


def frozen(state):
    return json.loads(json.dumps(state))


def contract(seat, tricks, trump=None, supertrump=None, open_=False):
    return {
        "type": "contract",
        "seat": seat,
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }


def correct(hand_no, seat, tricks, won, trump=None, supertrump=None, open_=False, **more):
    return {
        "type": "correct_hand",
        "hand_no": hand_no,
        "seat": seat,
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
        "won": won,
        **more,
    }


CONFIRM = {"type": "confirm"}
REJECT = {"type": "reject"}


def four_hands(players=4, target=200):
    """Four hands recorded: declarers 0, 1, 2, 3 bid 7; won 8, 5, 7, 9."""
    state = companion.new_game({"players": players, "dealer": players - 1, "target": target}, 5)
    for declarer, won in ((0, 8), (1 % players, 5), (2 % players, 7), (3 % players, 9)):
        state = companion.apply(state, 0, contract(declarer, 7))
        state = companion.apply(state, 0, {"type": "result", "tricks": won})
    return state


def illegal(state, seat, action):
    before = frozen(state)
    with pytest.raises(companion.IllegalAction) as error:
        companion.apply(state, seat, action)
    assert state == before
    return error.value.code


def test_correct_hand_two_of_four_recomputes_every_total():
    state = four_hands()
    assert state["scores"] == [9 + 11 + 7, 11]  # hand 2 failed: side 0 scored
    proposed = companion.apply(state, 1, correct(2, 1, 7, 9, at="2026-11-27 13:00"))
    # proposed only: nothing scored yet
    assert proposed["scores"] == state["scores"]
    assert proposed["history"] == state["history"]
    assert proposed["correction"]["hand_no"] == 2
    confirmed = companion.apply(proposed, 0, CONFIRM | {"at": "2026-11-27 13:01"})
    hand2 = confirmed["history"][1]
    assert hand2["tricks_won"] == 9
    assert hand2["points"] == hand_points(2, 1, 7, 9) == [0, 11]
    assert [r["scores"] for r in confirmed["history"]] == [
        [9, 0],
        [9, 11],
        [16, 11],
        [16, 22],
    ]
    assert confirmed["scores"] == [16, 22]
    assert confirmed["correction"] is None
    event = confirmed["events"][-1]
    assert event["type"] == "correction" and event["by"] == 1 and event["confirmed_by"] == 0
    assert event["at"] == "2026-11-27 13:00" and event["confirmed_at"] == "2026-11-27 13:01"
    assert event["before"]["tricks_won"] == 5 and event["after"]["tricks_won"] == 9
    assert json.loads(json.dumps(confirmed)) == confirmed


def test_a_correction_may_change_the_declarer_and_the_contract():
    state = companion.apply(four_hands(), 0, correct(1, 1, 9, 9, "rook", 4, True))
    state = companion.apply(state, 1, CONFIRM)
    record = state["history"][0]
    assert record["contract"] == {
        "seat": 1,
        "tricks": 9,
        "trump": "rook",
        "supertrump": 4,
        "open": True,
    }
    assert record["declaring_team"] == 1 and record["points"] == [0, 9]


def test_confirmation_by_the_other_side_is_required():
    proposed = companion.apply(four_hands(), 0, correct(2, 1, 7, 9))
    # the proposer and the partner may not confirm
    assert illegal(proposed, 0, CONFIRM) == "same_side"
    assert illegal(proposed, 2, CONFIRM) == "same_side"
    assert companion.legal_actions(proposed, 1)[-2:] == [CONFIRM, REJECT]
    assert REJECT in companion.legal_actions(proposed, 0)
    assert REJECT not in companion.legal_actions(proposed, 2)
    assert companion.apply(proposed, 3, CONFIRM)["scores"] == [16, 22]


def test_at_two_or_three_players_any_other_player_confirms():
    proposed = companion.apply(four_hands(3), 2, correct(1, 0, 7, 5))
    assert illegal(proposed, 2, CONFIRM) == "same_side"
    assert companion.apply(proposed, 1, CONFIRM)["history"][0]["points"] == [0, 11, 11]


def test_a_rejected_or_superseded_proposal_changes_nothing():
    state = four_hands()
    proposed = companion.apply(state, 0, correct(2, 1, 7, 9))
    for seat in (0, 1):  # the proposer, or a player of the other side
        rejected = companion.apply(proposed, seat, REJECT)
        assert {k: v for k, v in rejected.items() if k != "correction"} == {
            k: v for k, v in state.items() if k != "correction"
        }
        assert rejected["correction"] is None
    assert illegal(proposed, 2, REJECT) == "no_correction"  # the proposer's partner
    superseded = companion.apply(proposed, 1, correct(3, 2, 7, 8))
    assert superseded["correction"]["hand_no"] == 3
    confirmed = companion.apply(superseded, 0, CONFIRM)
    assert confirmed["history"][1] == state["history"][1]  # hand 2 untouched
    # taking back the corrected hand drops its proposal
    last = companion.apply(state, 0, correct(4, 3, 7, 5))
    assert companion.apply(last, 0, {"type": "undo_hand"})["correction"] is None


def won_match():
    """Two hands to a target of 20: side 0 made 7 with 8 (9), then seat 1 failed 7 with 5
    (11 to side 0): 20 to 0, the match is over."""
    state = companion.new_game({"players": 4, "dealer": 3, "target": 20}, 5)
    for declarer, won in ((0, 8), (1, 5)):
        state = companion.apply(state, 0, contract(declarer, 7))
        state = companion.apply(state, 0, {"type": "result", "tricks": won})
    return state


def test_a_correction_ends_or_resumes_the_match():
    state = won_match()
    assert state["phase"] == "match_over" and state["winner"] == 0
    resumed = companion.apply(companion.apply(state, 1, correct(1, 0, 7, 7)), 0, CONFIRM)
    assert resumed["scores"] == [18, 0]
    assert (resumed["phase"], resumed["winner"], resumed["hand_no"]) == ("auction", None, 3)
    assert resumed["dealer"] == (state["history"][-1]["dealer"] + 1) % 4
    assert resumed["turn"] == (resumed["dealer"] + 1) % 4
    ended = companion.apply(companion.apply(resumed, 0, correct(1, 0, 7, 8)), 1, CONFIRM)
    assert (ended["phase"], ended["winner"], ended["turn"]) == ("match_over", 0, None)
    assert ended["hand_no"] == 2


def test_set_the_dealer_before_the_first_bid():
    state = companion.new_game({"players": 4, "dealer": 3}, 5)
    state = companion.apply(state, 2, {"type": "set_dealer", "seat": 1, "at": "13:05"})
    assert (state["dealer"], state["turn"]) == (1, 2)
    assert state["events"][-1] == {
        "type": "dealer",
        "hand_no": 1,
        "by": 2,
        "at": "13:05",
        "dealer": 1,
        "before": 3,
    }
    bid = {"type": "bid", "tricks": 5, "trump": "queen", "supertrump": 3, "open": False}
    state = companion.apply(state, 0, bid)
    assert state["auction"][0]["seat"] == 2
    assert illegal(state, 0, {"type": "set_dealer", "seat": 0}) == "bids_entered"
    state = companion.apply(state, 0, contract(2, 7))
    state = companion.apply(state, 0, {"type": "result", "tricks": 7})
    assert state["dealer"] == 2  # the next dealer follows the one set


def test_adjust_a_sides_total():
    state = four_hands()
    action = {"type": "adjust", "team": 1, "points": -4, "reason": "  counted twice "}
    adjusted = companion.apply(state, 2, action | {"at": "13:10"})
    assert adjusted["scores"] == [27, 7]
    assert adjusted["adjustments"][0]["reason"] == "counted twice"
    assert adjusted["events"][-1]["type"] == "adjustment"
    assert adjusted["events"][-1]["by"] == 2
    # a later correction keeps the adjustment
    corrected = companion.apply(companion.apply(adjusted, 1, correct(2, 1, 7, 9)), 0, CONFIRM)
    assert corrected["scores"] == [16, 18]
    # and the next hand's running totals include it
    more = companion.apply(corrected, 0, contract(0, 7))
    more = companion.apply(more, 0, {"type": "result", "tricks": 7})
    assert more["history"][-1]["scores"] == more["scores"] == [23, 18]
    back = companion.apply(more, 0, {"type": "undo_hand"})
    assert back["scores"] == [16, 18]


def test_a_player_at_three_players_is_a_side():
    state = four_hands(3)
    adjusted = companion.apply(state, 0, {"type": "adjust", "team": 2, "points": 5, "reason": "x"})
    assert adjusted["scores"][2] == state["scores"][2] + 5


REFUSALS = [
    (four_hands(), 0, correct(5, 0, 7, 7), "no_such_hand"),
    (four_hands(), 0, correct(True, 0, 7, 7), "no_such_hand"),
    (four_hands(), 0, correct(1, 0, 7, 8), "no_change"),
    (four_hands(), 0, correct(1, 0, 7, 14), "bad_result"),
    (four_hands(), 0, correct(1, 4, 7, 7), "bad_seat"),
    (four_hands(), 0, correct(1, 0, 14, 7), "bad_tricks"),
    (four_hands(), 0, correct(1, 0, 7, 7, at=5), "bad_action"),
    (four_hands(), 0, correct(1, 0, 7, 7, at="x" * 41), "bad_action"),
    (four_hands(), 0, CONFIRM, "no_correction"),
    (four_hands(), 0, REJECT, "no_correction"),
    (four_hands(), 0, {"type": "set_dealer", "seat": 9}, "bad_seat"),
    (won_match(), 0, {"type": "set_dealer", "seat": 1}, "game_over"),
    (four_hands(), 0, {"type": "adjust", "team": 2, "points": 3, "reason": "x"}, "bad_team"),
    (four_hands(), 0, {"type": "adjust", "team": 0, "points": 0, "reason": "x"}, "bad_points"),
    (four_hands(), 0, {"type": "adjust", "team": 0, "points": 1001, "reason": "x"}, "bad_points"),
    (four_hands(), 0, {"type": "adjust", "team": 0, "points": 2, "reason": "  "}, "bad_reason"),
    (four_hands(), 0, {"type": "adjust", "team": 0, "points": 2, "reason": "x" * 81}, "bad_reason"),
    (four_hands(), 0, {"type": "adjust", "team": 0, "points": 2}, "bad_action"),
]


@pytest.mark.parametrize(("state", "seat", "action", "code"), REFUSALS)
def test_refusals_change_nothing(state, seat, action, code):
    assert illegal(state, seat, action) == code


def test_set_dealer_in_the_tricks_phase_is_refused():
    state = companion.apply(four_hands(), 0, contract(0, 7))
    assert illegal(state, 0, {"type": "set_dealer", "seat": 1}) == "wrong_phase"
