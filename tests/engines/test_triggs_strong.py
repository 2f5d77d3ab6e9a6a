"""The strong computer player (games/triggs/bots.py `strong`) and the LEVELS table."""

import copy
import random

import pytest

from games.triggs.bots import LEVELS, greedy, strong
from games.triggs.engine import apply, legal_actions, new_game, view

from .test_triggs_positions import nearly_full, position, row_sheet


def choice(state, player=strong):
    seat = state["turn"]
    return player(view(state, seat), legal_actions(state), random.Random(1))


def play(seed, players):
    state = new_game({"players": len(players)}, seed)
    rng = random.Random(seed)
    while state["phase"] != "over":
        seat = state["turn"]
        action = players[seat](view(state, seat), legal_actions(state), rng)
        state = apply(state, seat, action)  # raises if a player ever chose an illegal move
    return state["winner"]


def test_the_levels_are_greedy_and_strong():
    assert dict(LEVELS) == {"greedy": greedy, "strong": strong}


def test_strong_beats_greedy_clearly():
    wins = games = 0
    for seed in range(40):
        # the same deal twice, each player once in each seat
        wins += play(seed, [strong, greedy]) == 0
        wins += play(seed, [greedy, strong]) == 1
        games += 2
    assert wins / games >= 0.8


def test_strong_finishes_games_of_three_and_four():
    for players in (3, 4):
        assert play(7, [strong] * players) in range(players)


def test_a_hand_of_one_value_is_discarded_whole_for_five_new_cards():
    # nothing to cross: greedy draws two cards, strong empties its hand (T-EMPTY-HAND)
    state = position(hands=[[9, 9], [1]], sheets=[nearly_full({1: 1}), row_sheet()])
    assert choice(state, greedy)["type"] == "draw"
    assert choice(state) == {"type": "discard", "value": 9, "count": 2}


def test_extra_crosses_go_where_the_hand_cannot_help_and_most_boxes_are_open():
    # greedy fills row 1 (one box open); strong keeps its 11s for row 11 and takes row 10
    state = position(hands=[[11, 11], [1]], sheets=[row_sheet({1: 1, 4: 3}), row_sheet()])
    state.update(phase="extra", pending_extra=1)
    assert choice(state, greedy) == {"type": "extra", "value": 1}
    assert choice(state) == {"type": "extra", "value": 10}


def test_it_chooses_which_cards_make_the_sets():
    # rows 5 and 6 are full: after 11 ×2, a 5 and a 6 kept could never be laid, 4 and 7 can
    sheet = row_sheet({5: 3, 6: 3, 11: 3})
    state = position(hands=[[11, 7, 4, 6, 5], [1]], sheets=[sheet, row_sheet()])
    listed = [a for a in legal_actions(state) if a["type"] == "cross" and a["value"] == 11]
    assert listed[-1]["sets"] == [[11], [4, 7]]
    assert choice(state) == {"type": "cross", "value": 11, "sets": [[11], [5, 6]]}


def test_a_cross_that_empties_the_hand_is_preferred():
    # one box either way: 3 + 9 in row 12 lays both cards and brings five new ones
    state = position(hands=[[3, 9], [1]])
    assert choice(state) == {"type": "cross", "value": 12, "sets": [[3, 9]]}


def test_it_sees_nothing_but_its_view():
    state = position(hands=[[3, 4, 7, 12], [5, 5, 5]], left=[8], right=[2], under="stock")
    other = copy.deepcopy(state)
    # what seat 0 may not see: the other hand and the order of the stock
    other["hands"][1] = [10, 11, 1]
    other["piles"]["stock"] = sorted(other["piles"]["stock"] + [5, 5, 5])
    other["piles"]["stock"].remove(10)
    other["piles"]["stock"].remove(11)
    other["piles"]["stock"].remove(1)
    assert view(state, 0) == view(other, 0)
    assert choice(state) == choice(other)


def test_refuses_to_move_when_nothing_is_legal():
    with pytest.raises(ValueError):
        strong(view(position(hands=[[1], [1]]), 0), [])
