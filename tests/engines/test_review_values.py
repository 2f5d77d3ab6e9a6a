"""The values the hard levels give each action (issue 38's review after a game): `values`
and `judge` of games.triumfdrez.search and games.triggs.search.

They weigh the actions as `hard` does, on the same sampled deals for every action: the
card `hard` plays is the first of the highest values; they read only the seat's view
(cards it cannot see dealt again, the same values); and a move that throws the game or a
trick away is judged worse than the move that does not. Budgets are small here.
"""

import random

import pytest

from games.triggs import search as triggs_search
from games.triggs.engine import legal_actions as triggs_legal
from games.triggs.engine import view as triggs_view
from games.triumfdrez import engine, search

from .test_triggs_hard import _mid_game
from .test_triggs_hard import redeal_unseen as triggs_redeal
from .test_triggs_positions import nearly_full, position
from .test_triumfdrez_hard import _mid_hand
from .test_triumfdrez_support import redeal_unseen

SMALL = {"play_work": 2_000, "play_deals": (4, 8), "bid_deals": 6, "bid_combos": 3}
TRIGGS_SMALL = {"work": 300, "horizon": 4}


def _in_play(players, tricks, seed):
    state = _mid_hand(players, seed=seed, tricks=tricks)
    for _ in range(tricks % players):  # a trick in progress too
        state = engine.apply(state, state["turn"], engine.legal_actions(state)[0])
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tricks", [1, 5, 9])
def test_the_card_hard_plays_is_the_first_of_the_highest_values(players, tricks):
    state = _in_play(players, tricks, seed=players * 7 + tricks)
    if state["phase"] != "play":
        pytest.skip("the hand ended early")
    seat = state["turn"]
    seen, legal = engine.view(state, seat), engine.legal_actions(state)
    found = search.values(seen, legal, random.Random(3), **SMALL)
    assert len(found) == len(legal)
    best = max(range(len(legal)), key=found.__getitem__)
    assert search.hard(seen, legal, random.Random(3), **SMALL) == legal[best]


@pytest.mark.parametrize("players", [2, 4])
def test_triumfdrez_values_do_not_change_when_unseen_cards_are_dealt_again(players):
    state = _in_play(players, 4, seed=players * 3)
    seat = state["turn"]
    other = redeal_unseen(state, seat)
    assert other["hands"] != state["hands"]
    legal = engine.legal_actions(state)

    def judged(position):
        seen = engine.view(position, seat)
        return search.values(seen, legal, random.Random(9), **SMALL)

    assert judged(other) == judged(state)


def test_triumfdrez_judge_in_the_auction_weighs_the_bid_made_and_a_pass():
    state = engine.new_game({"players": 3}, 5)
    seat = state["turn"]
    legal = engine.legal_actions(state)
    bids = [action for action in legal if action["type"] == "bid"]
    played = bids[-1]  # the highest bid there is: not among hard's candidates
    pairs = search.judge(engine.view(state, seat), legal, played, random.Random(1), **SMALL)
    actions = [action for action, _value in pairs]
    assert played in actions and len(actions) <= SMALL["bid_combos"] + 2
    assert all(action in legal for action in actions)


def test_triggs_discarding_the_card_that_wins_is_judged_worse_than_crossing_it():
    # T-WIN: the 9 crosses the last open box of the sheet; the other seat needs one 1
    state = position(hands=[[9, 3], [1]], sheets=[nearly_full({9: 1}), nearly_full({1: 1})])
    legal = triggs_legal(state)
    thrown = {"type": "discard", "value": 9, "count": 1}
    assert thrown in legal
    pairs = triggs_search.judge(
        triggs_view(state, 0), legal, thrown, random.Random(3), **TRIGGS_SMALL
    )
    values = {repr(action): value for action, value in pairs}
    best, top = max(pairs, key=lambda pair: pair[1])
    assert best == {"type": "cross", "value": 9, "sets": [[9]]} and top == 1.0
    assert top - values[repr(thrown)] > 0.2


@pytest.mark.parametrize("plies", [0, 9, 30])
def test_triggs_values_do_not_change_when_unseen_cards_are_dealt_again(plies):
    state = _mid_game(2, seed=200 + plies, plies=plies)
    seat = state["turn"]
    other = triggs_redeal(state, seat)
    legal = triggs_legal(state)

    def judged(position):
        seen = triggs_view(position, seat)
        return triggs_search.values(seen, legal, random.Random(5), **TRIGGS_SMALL)

    found = judged(state)
    assert found == judged(other)
    assert all(0.0 <= value <= 1.0 for value in found)


def test_triggs_judge_returns_the_move_played_as_it_was_played():
    # the same cross as a listed one, its sets in another order
    state = position(hands=[[3, 5, 4, 4], [1]], sheets=[nearly_full({8: 2}), nearly_full({1: 1})])
    legal = triggs_legal(state)
    listed = next(a for a in legal if a["type"] == "cross" and a["value"] == 8)
    played = {**listed, "sets": list(reversed(listed["sets"]))}
    if played == listed:
        played = {**listed, "sets": [list(reversed(cards)) for cards in listed["sets"]]}
    pairs = triggs_search.judge(
        triggs_view(state, 0), legal, played, random.Random(3), **TRIGGS_SMALL
    )
    assert sum(action == played for action, _value in pairs) == 1
