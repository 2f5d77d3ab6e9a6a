"""The hard TriumfDrez player (games.triumfdrez.search): legal, blind to what it cannot see.

`hard` samples the cards its seat cannot see and solves the end of each deal exactly;
these tests check that its decision depends on its view only (D-DEAL), that it plays
whole matches with legal actions only at 2, 3 and 4 players (D-PLAYERS, D-MATCH), and that
its exact solver agrees with playing every line out through the engine (D-FOLLOW,
D-RANK, D-NEUTRAL). Budgets are small here; its strength is measured by bench/ladder.py.
"""

import random

import pytest

from games.triumfdrez import bots, engine, search
from games.triumfdrez.cards import DECK
from games.triumfdrez.scoring import team_of

from .test_triumfdrez_support import auction_state, play_position, redeal_unseen

SMALL = {"play_work": 2_000, "play_deals": (4, 8), "bid_deals": 6, "bid_combos": 3}


def _hard(view, legal, rng):
    return search.hard(view, legal, rng, **SMALL)


def _decide(state, seed=0):
    seat = state["turn"]
    return search.hard(
        engine.view(state, seat), engine.legal_actions(state), random.Random(seed), **SMALL
    )


def test_hard_is_not_one_of_the_lobby_levels():
    assert search.hard not in bots.LEVELS.values()


def _mid_hand(players, seed, tricks):
    """A dealt hand played by heuristic players through the auction and `tricks` tricks."""
    state = engine.new_game({"players": players}, seed)
    rng = random.Random(seed)
    while state["phase"] == "auction" or (
        state["phase"] == "play" and len(state["played_tricks"]) < tricks
    ):
        seat = state["turn"]
        action = bots.heuristic(engine.view(state, seat), engine.legal_actions(state), rng)
        state = engine.apply(state, seat, action)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tricks", [0, 4, 9])
def test_decision_does_not_change_when_unseen_cards_are_dealt_again(players, tricks):  # D-DEAL
    state = _mid_hand(players, seed=players * 10 + tricks, tricks=tricks)
    # a few seats into the trick, so that the position has a trick in progress too
    for _ in range(tricks % players):
        seat = state["turn"]
        state = engine.apply(state, seat, engine.legal_actions(state)[0])
    seat = state["turn"]
    other = redeal_unseen(state, seat)
    assert other["hands"] != state["hands"]
    assert engine.view(other, seat) == engine.view(state, seat)
    assert _decide(other) == _decide(state)


def test_bid_does_not_change_when_unseen_cards_are_dealt_again():  # D-DEAL, D-AUCTION
    for dealer in range(4):
        state = auction_state(dealer=dealer, seed=dealer)
        other = redeal_unseen(state, state["turn"])
        assert engine.view(other, state["turn"]) == engine.view(state, state["turn"])
        assert _decide(other, dealer) == _decide(state, dealer)


@pytest.mark.parametrize(
    ("players", "line_up"),
    [
        (2, ("hard", "strong")),
        (3, ("heuristic", "hard", "strong")),
        (4, ("hard", "strong", "hard", "random")),
    ],
)
def test_hard_finishes_whole_matches_with_legal_actions(players, line_up):  # D-MATCH
    chosen = [_hard if name == "hard" else bots.LEVELS[name] for name in line_up]
    state = engine.new_game({"players": players, "target": 15}, players)
    rng = random.Random(players)
    for _ in range(3000):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state)
        action = chosen[seat](engine.view(state, seat), legal, rng)
        assert action in legal
        state = engine.apply(state, seat, action)
    assert engine.is_over(state) and max(state["scores"]) >= 15


def _best_by_engine(state, side):
    """The declaring side's tricks from here on with best play by both sides, every line
    played out through the engine."""
    if state["phase"] != "play":
        return 0
    seat = state["turn"]
    before = sum(state["tricks_won"][s] for s in side)
    values = []
    for action in engine.legal_actions(state):
        after = engine.apply(state, seat, action)
        won = sum(after["tricks_won"][s] for s in side) - before
        values.append(won + _best_by_engine(after, side))
    return max(values) if seat in side else min(values)


def test_the_exact_solver_agrees_with_the_engine():  # D-FOLLOW, D-RANK, D-NEUTRAL
    rng = random.Random(7)
    figures = [None, "joker", "queen", "rook", "bishop", "knight", "pawn"]
    for _ in range(60):
        players = rng.choice([2, 3, 4])
        size = rng.choice([3, 4]) if players == 2 else rng.choice([2, 3])
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        trump, supertrump = rng.choice(figures), rng.choice([None, *range(1, 10)])
        state = play_position(
            hands, declarer=rng.randrange(players), tricks=1, trump=trump, supertrump=supertrump
        )
        side = state["teams"][team_of(state["teams"], state["contract"]["seat"])]
        solver = search._Solver(bots._table(trump, supertrump), players, side)
        ints = [sorted(bots._INDEX[card] for card in hand) for hand in state["hands"]]
        masks = [sum(1 << card for card in hand) for hand in ints]
        assert solver.lead(ints, masks, state["turn"], -1, 99) == _best_by_engine(state, side)
