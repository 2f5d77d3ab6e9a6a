"""The greedy reference player (games/triggs/bots.py)."""

import random

import pytest

from games.triggs.bots import greedy
from games.triggs.engine import apply, legal_actions, view

from .test_triggs_positions import nearly_full, position, row_sheet


def choice(state, rng=None):
    seat = state["turn"]
    legal = legal_actions(state)
    action = greedy(view(state, seat), legal, rng)
    assert action in legal
    return action


def test_crosses_the_most_boxes():
    state = position(hands=[[11, 11, 7, 4, 10, 1, 3], [2]])
    action = choice(state)
    assert (action["type"], action["value"], len(action["sets"])) == ("cross", 11, 4)


def test_counts_the_extra_crosses_a_full_row_brings():
    # two boxes in row 10, or one box filling row 2 plus a chain through row 3 and one more
    state = position(
        hands=[[10, 10, 2], [1]],
        sheets=[row_sheet({2: 1, 3: 1}), row_sheet()],
    )
    assert choice(state) == {"type": "cross", "value": 2, "sets": [[2]]}


def test_draws_when_nothing_can_be_crossed_preferring_useful_visible_cards():
    state = position(
        hands=[[12], [1]],
        sheets=[row_sheet({12: 5, 4: 0}), row_sheet()],
        left=[12],
        right=[4],
        under="stock",
    )
    action = choice(state)
    assert action["type"] == "draw"
    assert "right" in action["from"] and "left" not in action["from"]


def test_discards_the_most_numerous_value_when_it_cannot_draw():
    hand = [5, 5, 5, 8, 8, 9, 9, 9, 9, 10]
    state = position(hands=[hand, [1]], sheets=[nearly_full({1: 2}), row_sheet()])
    assert choice(state) == {"type": "discard", "value": 9, "count": 4}


def test_discards_dead_cards_first():
    # open rows 1 and 5 only: 6, 7, 8 and 9 can never be laid again; 3 can (3 + 2 = 5)
    hand = [3, 3, 3, 3, 6, 6, 7, 8, 9, 9]
    state = position(hands=[hand, [1]], sheets=[nearly_full({1: 2, 5: 1}), row_sheet()])
    assert choice(state) == {"type": "discard", "value": 9, "count": 2}


def test_extra_cross_goes_to_the_row_closest_to_full():
    state = position(hands=[[1], [1]], sheets=[row_sheet({9: 3, 12: 2, 1: 1}), row_sheet()])
    state.update(phase="extra", pending_extra=1)
    assert choice(state) == {"type": "extra", "value": 1}


def test_uses_the_rng_only_to_break_ties():
    # single 3, single 4 and single 9 tie (one box, one card); 3 + 4 uses two cards
    state = position(hands=[[3, 4, 9], [1]], sheets=[row_sheet(), row_sheet()])
    picks = [choice(state, random.Random(seed)) for seed in range(30)]
    assert {(a["value"], len(a["sets"][0])) for a in picks} == {(3, 1), (4, 1), (9, 1)}
    assert choice(state) == choice(state)


def test_refuses_to_move_when_nothing_is_legal():
    with pytest.raises(ValueError):
        greedy(view(position(hands=[[1], [1]]), 0), [])


def test_plays_only_through_the_view():
    state = position(hands=[[3, 4, 7], [1]], left=[7], under="stock")
    seat = state["turn"]
    action = greedy(view(state, seat), legal_actions(state))
    assert apply(state, seat, action)["sheets"][0][6] == 2
