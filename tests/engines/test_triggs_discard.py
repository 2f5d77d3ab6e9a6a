"""T-B (discard cards of one value) and T-EMPTY-HAND (draw five from the stock)."""

from collections import Counter

import pytest

from games.triggs.engine import IllegalAction, apply, legal_actions

from .test_triggs_positions import DECK, all_cards, nearly_full, play, position, row_sheet


def test_sara_discards_two_nines():
    # T-B: the rulebook's example
    state = position(hands=[[9, 9, 9, 4], [1]], discard=[2])
    after = play(state, {"type": "discard", "value": 9, "count": 2})
    assert Counter(after["hands"][0]) == Counter([9, 4])
    assert after["discard"] == [2, 9, 9]
    assert after["turn"] == 1
    assert after["sheets"] == state["sheets"]
    assert all_cards(after) == DECK


def test_any_number_of_cards_of_one_value_is_listed():
    state = position(hands=[[6, 6, 6, 2], [1]])
    discards = [(a["value"], a["count"]) for a in legal_actions(state) if a["type"] == "discard"]
    assert sorted(discards) == [(2, 1), (6, 1), (6, 2), (6, 3)]


def test_cannot_discard_more_cards_of_a_value_than_held():
    state = position(hands=[[6, 6, 2], [1]])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "discard", "value": 6, "count": 3})
    assert err.value.code == "cards_not_in_hand"


def test_mixed_values_cannot_be_discarded_in_one_action():
    # T-B: one single value per discard; a list of values is refused
    state = position(hands=[[6, 2], [1]])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "discard", "value": [6, 2], "count": 2})
    assert err.value.code == "bad_value"


def test_empty_hand_after_discard_draws_five_from_the_stock():
    # T-EMPTY-HAND
    state = position(hands=[[3, 3], [1]], stock=[1, 2, 4, 5, 6, 8, 10], under="left")
    after = play(state, {"type": "discard", "value": 3, "count": 2})
    assert after["hands"][0] == [10, 8, 6, 5, 4]
    assert after["piles"]["stock"] == [1, 2]
    assert after["discard"] == [3, 3]
    assert after["turn"] == 1


def test_empty_hand_after_cross_draws_five_before_the_extra_cross():
    # T-EMPTY-HAND ruling: drawn as soon as the cards are laid, before extra crosses
    state = position(
        hands=[[7, 5, 2, 5, 2], [1]],
        sheets=[row_sheet({7: 1}), row_sheet()],
        stock=[9, 9, 9, 9, 9, 9],
        under="left",
    )
    after = play(state, {"type": "cross", "value": 7, "sets": [[7], [5, 2], [5, 2]]})
    assert after["phase"] == "extra"
    assert after["turn"] == 0
    assert after["hands"][0] == [9] * 5
    assert after["piles"]["stock"] == [9]


def test_stock_runs_out_during_the_empty_hand_draw_and_is_refilled():
    # T-EMPTY-HAND with T-REFILL between cards: the laid cards come back
    state = position(hands=[[4, 4], [1]], stock=[11, 12], discard=[], under="left")
    after = play(state, {"type": "discard", "value": 4, "count": 2})
    assert Counter(after["hands"][0]) == Counter([12, 11, 4, 4])
    assert after["piles"]["stock"] == [] and after["discard"] == []
    assert after["refills"] == 1
    assert all_cards(after) == DECK


def test_empty_hand_takes_what_there_is_when_stock_and_discard_hold_fewer_than_five():
    # T-EMPTY-HAND ruling
    state = position(hands=[[4], [1]], stock=[11], discard=[2], under="left")
    after = play(state, {"type": "discard", "value": 4, "count": 1})
    assert Counter(after["hands"][0]) == Counter([11, 2, 4])
    assert after["piles"]["stock"] == [] and after["discard"] == []


def test_empty_hand_with_empty_stock_and_discard_draws_nothing():
    state = position(hands=[[4], [1]], stock=[], discard=[], under="left")
    # the laid 4 refills the empty stock at once and comes straight back
    after = play(state, {"type": "discard", "value": 4, "count": 1})
    assert after["hands"][0] == [4]
    state = position(hands=[[], [1]], stock=[], under="left")
    assert {"type": "draw", "from": ["left", "right"]} in legal_actions(state)


def test_player_who_just_won_draws_nothing():
    # T-EMPTY-HAND ruling + T-WIN
    state = position(hands=[[12], [1]], sheets=[nearly_full({12: 1}), row_sheet()])
    after = play(state, {"type": "cross", "value": 12, "sets": [[12]]})
    assert after["phase"] == "over"
    assert after["hands"][0] == []
    assert after["piles"] == state["piles"]


def test_discard_that_leaves_cards_draws_nothing():
    state = position(hands=[[3, 3, 5], [1]])
    after = play(state, {"type": "discard", "value": 3, "count": 2})
    assert after["hands"][0] == [5]
    assert after["piles"] == state["piles"]
