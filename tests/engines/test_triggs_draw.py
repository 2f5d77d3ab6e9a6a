"""T-A (draw two cards, one after the other), T-A-LIMIT and T-REFILL."""

from collections import Counter

import pytest

from games.triggs.engine import IllegalAction, apply, legal_actions, view
from games.triggs.piles import refill_rng

from .test_triggs_positions import DECK, all_cards, play, position


def draws(state):
    return [a["from"] for a in legal_actions(state) if a["type"] == "draw"]


def test_tomas_draws_one_from_the_stock_and_one_from_the_left_pile():
    # T-A: the rulebook's example (5 cards in hand)
    state = position(hands=[[1, 2, 3, 4, 5], []], left=[8, 6], stock=[9, 12], under="right")
    after = play(state, {"type": "draw", "from": ["stock", "left"]})
    assert Counter(after["hands"][0]) == Counter([1, 2, 3, 4, 5, 12, 6])
    assert after["piles"]["left"] == [8]
    assert after["piles"]["stock"] == [9]
    assert after["turn"] == 1
    assert all_cards(after) == DECK


def test_second_card_can_be_the_one_the_first_uncovered():
    # T-A: after the first draw from a face-up pile its next card is visible and drawable
    state = position(hands=[[], []], left=[2, 7, 11], under="stock")
    after = play(state, {"type": "draw", "from": ["left", "left"]})
    assert sorted(after["hands"][0]) == [7, 11]
    assert after["piles"]["left"] == [2]


def test_order_of_sources_is_the_order_of_drawing():
    state = position(hands=[[], []], left=[3, 4], stock=[5, 6], under="right")
    after = play(state, {"type": "draw", "from": ["stock", "left"]})
    assert after["hands"][0] == [6, 4]


def test_with_nine_cards_exactly_one_card_is_drawn():
    # T-A-LIMIT
    hand = [1, 1, 2, 2, 3, 3, 4, 4, 5]
    state = position(hands=[hand, []], left=[10], under="stock")
    assert draws(state) == [["left"], ["stock"], ["right"]]
    after = play(state, {"type": "draw", "from": ["left"]})
    assert len(after["hands"][0]) == 10
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["left", "stock"]})
    assert err.value.code == "wrong_draw_count"


def test_with_ten_cards_there_is_no_draw():
    # T-A-LIMIT
    state = position(hands=[[1, 1, 2, 2, 3, 3, 4, 4, 5, 5], []])
    assert draws(state) == []
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["stock"]})
    assert err.value.code == "hand_full"


def test_with_eight_cards_two_cards_make_ten():
    state = position(hands=[[1, 1, 2, 2, 3, 3, 4, 4], []])
    after = play(state, {"type": "draw", "from": ["stock", "stock"]})
    assert len(after["hands"][0]) == 10
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["stock"]})
    assert err.value.code == "wrong_draw_count"


def test_refill_happens_between_the_two_cards_of_a_draw():
    # T-REFILL ruling: checked after every card that moves
    state = position(hands=[[], []], left=[6], discard=[1, 2, 3], under="stock")
    after = play(state, {"type": "draw", "from": ["left", "left"]})
    expected = [1, 2, 3]
    refill_rng(state["seed"], 0).shuffle(expected)
    assert after["hands"][0] == [6, expected[-1]]
    assert after["piles"]["left"] == expected[:-1]
    assert after["discard"] == []
    assert after["refills"] == 1
    assert all_cards(after) == DECK


def test_refill_shuffle_is_deterministic_and_counts_refills():
    state = position(hands=[[], []], stock=[8], discard=list(range(1, 11)), under="left")
    first = play(state, {"type": "draw", "from": ["stock", "stock"]})
    assert play(state, {"type": "draw", "from": ["stock", "stock"]}) == first
    later = dict(state, refills=5)
    again = play(later, {"type": "draw", "from": ["stock", "stock"]})
    assert again["refills"] == 6
    assert again["piles"]["stock"] != first["piles"]["stock"]


def test_stock_refilled_from_discard_stays_face_down_in_views():
    state = position(hands=[[], []], stock=[8], discard=[4, 5, 6], under="left")
    after = play(state, {"type": "draw", "from": ["stock", "stock"]})
    assert len(after["piles"]["stock"]) == 2
    assert view(after, 1)["piles"]["stock"] == {"count": 2}


def test_empty_pile_with_empty_discard_cannot_be_drawn_from():
    # T-REFILL ruling
    state = position(hands=[[], []], left=[], under="stock")
    assert ["left", "left"] not in draws(state)
    assert ["left", "stock"] not in draws(state)
    assert ["stock", "right"] in draws(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["left", "stock"]})
    assert err.value.code == "pile_empty"


def test_last_card_of_a_pile_cannot_be_drawn_twice_without_a_discard_pile():
    state = position(hands=[[], []], right=[9], under="stock")
    assert ["right", "right"] not in draws(state)
    assert ["stock", "right"] in draws(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["right", "right"]})
    assert err.value.code == "pile_empty"
    # the first card did move before the second failed; still nothing changed
    assert state["piles"]["right"] == [9]


def test_the_first_card_laid_refills_an_empty_pile():
    # T-REFILL ruling: a pile emptied while the discard was empty takes the next card laid
    state = position(hands=[[7, 7], [1]], right=[], under="stock")
    after = play(state, {"type": "discard", "value": 7, "count": 1})
    assert after["piles"]["right"] == [7]
    assert after["discard"] == []


def test_first_of_left_stock_right_takes_the_discard_pile():
    # T-REFILL ruling: with two piles empty at once the first in order is refilled
    state = position(hands=[[7, 7], [1]], left=[], right=[], under="stock")
    after = play(state, {"type": "discard", "value": 7, "count": 1})
    assert after["piles"]["left"] == [7]
    assert after["piles"]["right"] == []
    state = position(hands=[[7], [1]], stock=[], right=[], under="left")
    after = play(state, {"type": "cross", "value": 7, "sets": [[7]]})
    assert after["piles"]["stock"] == []  # refilled with the 7, then drawn (empty hand)
    assert after["hands"][0] == [7]
    assert after["piles"]["right"] == []


def test_a_pending_refill_in_an_edited_position_goes_to_the_first_empty_pile():
    state = position(hands=[[], []], left=[], right=[], discard=[1, 2, 3], under="stock")
    assert draws(state) == [["left", "left"], ["left", "stock"], ["stock", "stock"]]
    after = play(state, {"type": "draw", "from": ["stock", "stock"]})
    assert sorted(after["piles"]["left"]) == [1, 2, 3]
    assert after["piles"]["right"] == []


def test_a_position_without_the_refill_counter_still_refills():
    # `refills` is the engine's own key: a hand-made state may lack it
    state = position(hands=[[], []], left=[6], discard=[1, 2, 3], under="stock")
    del state["refills"]
    after = play(state, {"type": "draw", "from": ["left", "left"]})
    assert after["refills"] == 1
    assert sorted(after["hands"][0] + after["piles"]["left"]) == [1, 2, 3, 6]
