"""The strong computer player (games/triggs/bots.py `strong`) and the LEVELS table."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _reference_score(value, way, hand, sheet):
    """strong's score of a cross laying `way` in row `value` (bots.strong's docstring and
    weights), written out plainly: the boxes, emptying the hand, the cards laid, and each
    card left that can still be laid, alone in an open row or with another held card in
    the open row of their sum."""
    from games.triggs.bots import BOX, CARD, EMPTY_HAND, KEEP
    from games.triggs.sheet import ROW_SIZES

    rest = list(hand)
    for card in (c for s in way for c in s):
        rest.remove(card)
    after = list(sheet)
    after[value - 1] += len(way)

    def open_row(v):
        return 1 <= v <= 12 and after[v - 1] < ROW_SIZES[v]

    layable = sum(
        1
        for i, card in enumerate(rest)
        if open_row(card) or any(open_row(card + other) for j, other in enumerate(rest) if j != i)
    )
    cards = sum(map(len, way))
    return len(way) * BOX + (cards == len(hand)) * EMPTY_HAND + cards * CARD + KEEP * layable


def _every_way(hand, value, sets):
    """Every choice of `sets` sets for `value` from `hand` (T-C), by brute force."""
    kinds = [[value]] + [[a, value - a] for a in range(1, value // 2 + 1) if a <= value - a]
    found = set()

    def choose(left, chosen, start):
        if not left:
            found.add(tuple(tuple(s) for s in chosen))
            return
        for k in range(start, len(kinds)):
            laid = [c for s in chosen + [kinds[k]] for c in s]
            if all(laid.count(c) <= hand.count(c) for c in laid):
                choose(left - 1, chosen + [kinds[k]], k)

    choose(sets, [], 0)
    return [list(map(list, way)) for way in found]


@given(
    hand=st.lists(st.integers(1, 12), min_size=1, max_size=10),
    crossed=st.lists(st.integers(0, 6), min_size=12, max_size=12),
)
@settings(max_examples=300, deadline=None)
def test_strong_crosses_with_the_best_score_of_every_way(hand, crossed):
    """No cross it passes over without a look scores better than the one it chooses
    (bots._best_cross skips crosses that cannot beat the best so far)."""
    from games.triggs.sheet import ROW_SIZES

    sheet = [min(n, ROW_SIZES[v]) for v, n in zip(range(1, 13), crossed, strict=True)]
    state = position(hands=[hand, [1]], sheets=[sheet, row_sheet()])
    crosses = [a for a in legal_actions(state) if a["type"] == "cross"]
    if not crosses or any(sum(s) >= 36 for s in state["sheets"]):  # racing: boxes only
        return
    chosen = choice(state)
    assert chosen["type"] == "cross"
    apply(state, 0, chosen)  # legal
    best = max(
        _reference_score(a["value"], way, hand, sheet)
        for a in crosses
        for way in _every_way(hand, a["value"], len(a["sets"]))
    )
    assert _reference_score(chosen["value"], chosen["sets"], hand, sheet) == best
