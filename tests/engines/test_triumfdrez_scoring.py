"""D-SCORE and D-MATCH."""

import pytest

from games.triumfdrez import engine
from games.triumfdrez.scoring import hand_points, match_winner

from .test_triumfdrez_support import play, play_position


def test_seed_examples_made_and_failed():  # D-SCORE
    assert hand_points(2, 0, 8, 10) == [12, 0]  # 8 bid, 10 won: 8 + 2 × 2
    assert hand_points(2, 1, 8, 7) == [10, 0]  # 8 bid, 7 won: 8 + 2 × 1 to the opponent
    assert hand_points(3, 1, 8, 7) == [10, 0, 10]  # both opponents score at 3 players
    assert hand_points(3, 2, 8, 8) == [0, 0, 8]
    assert hand_points(2, 0, 13, 0) == [0, 39]


def _last_trick(tricks_won, declarer, tricks, declarer_wins_last, scores=None, **kw):
    """Every seat holds one card for the 13th trick; `tricks_won` are the first twelve."""
    players = len(tricks_won)
    assert sum(tricks_won) == 12
    hands = [[f"pawn-{seat + 1}"] for seat in range(players)]
    if declarer_wins_last:
        hands[declarer] = ["joker-9"]  # the super-trump colour
    state = play_position(
        hands,
        declarer=declarer,
        tricks=tricks,
        trump="queen",
        supertrump=9,
        tricks_won=tricks_won,
        scores=scores,
        **kw,
    )
    for _ in range(players):
        seat = state["turn"]
        state = engine.apply(state, seat, play(state["hands"][seat][0]))
    return state


def test_made_contract_scores_contract_plus_two_per_overtrick():  # D-SCORE
    state = _last_trick([3, 9], declarer=1, tricks=8, declarer_wins_last=True)
    assert state["phase"] == "hand_over"
    assert state["scores"] == [0, 12]
    assert state["last_result"] == {
        "hand_no": 1,
        "dealer": 0,
        "contract": state["contract"],
        "declaring_team": 1,
        "tricks_taken": 10,
        "made": True,
        "points": [0, 12],
        "scores": [0, 12],
    }
    assert state["history"] == [state["last_result"]]


def test_failed_contract_pays_each_opponent_at_three_players():  # D-SCORE
    state = _last_trick([7, 2, 3], declarer=0, tricks=8, declarer_wins_last=False, scores=[5, 6, 7])
    assert state["tricks_won"][0] == 7
    assert state["scores"] == [5, 16, 17]
    assert state["last_result"]["points"] == [0, 10, 10]
    assert state["last_result"]["made"] is False


def test_four_players_partner_tricks_make_the_contract():  # D-SCORE
    state = play_position(
        [["pawn-1"], ["pawn-2"], ["joker-9"], ["pawn-4"]],
        declarer=0,
        tricks=8,
        trump="queen",
        supertrump=9,
        tricks_won=[3, 2, 5, 2],
    )
    for seat in range(4):
        state = engine.apply(state, seat, play(state["hands"][seat][0]))
    assert state["tricks_won"] == [3, 2, 6, 2]
    assert state["scores"] == [10, 0]  # 9 tricks for seats 0 + 2: 8 + 2


def test_scores_do_not_change_before_the_end_of_the_hand():  # D-SCORE
    state = play_position(
        [["pawn-1", "rook-1"], ["pawn-2", "rook-2"]], tricks=1, scores=[3, 4], tricks_won=[6, 5]
    )
    state = engine.apply(state, 0, play("pawn-1"))
    state = engine.apply(state, 1, play("pawn-2"))
    assert state["phase"] == "play" and state["scores"] == [3, 4]


def test_first_to_reach_the_target_wins():  # D-MATCH
    state = _last_trick([3, 9], declarer=1, tricks=8, declarer_wins_last=True, scores=[49, 40])
    assert state["scores"] == [49, 52]
    assert state["phase"] == "match_over" and state["winner"] == 1
    assert engine.legal_actions(state) == []


def test_target_is_configurable():  # D-MATCH
    state = _last_trick([3, 9], declarer=1, tricks=8, declarer_wins_last=True, target=12)
    assert state["phase"] == "match_over" and state["winner"] == 1


def test_several_reach_the_target_highest_total_wins():  # D-MATCH ruling
    state = _last_trick(
        [6, 3, 3], declarer=0, tricks=8, declarer_wins_last=False, scores=[0, 45, 38]
    )
    assert state["scores"] == [0, 57, 50]
    assert state["phase"] == "match_over" and state["winner"] == 1


def test_tie_at_the_top_plays_another_hand():  # D-MATCH ruling
    state = _last_trick(
        [7, 3, 2], declarer=0, tricks=8, declarer_wins_last=False, scores=[0, 45, 45]
    )
    assert state["scores"] == [0, 55, 55]
    assert state["phase"] == "hand_over" and state["winner"] is None
    assert engine.legal_actions(state) == [{"type": "next_hand"}]
    state = engine.apply(state, 1, {"type": "next_hand"})
    assert state["phase"] == "auction" and state["hand_no"] == 2


def test_match_winner_function():  # D-MATCH
    assert match_winner([49, 10], 50) is None
    assert match_winner([50, 10], 50) == 0
    assert match_winner([55, 60, 3], 50) == 1
    assert match_winner([60, 60, 3], 50) is None


def test_no_action_after_the_match():  # D-MATCH
    state = _last_trick([3, 9], declarer=1, tricks=8, declarer_wins_last=True, scores=[0, 45])
    for seat, action in [(0, {"type": "next_hand"}), (1, play("pawn-1")), (0, {"type": "pass"})]:
        with pytest.raises(engine.IllegalAction) as error:
            engine.apply(state, seat, action)
        assert error.value.code == "game_over"
