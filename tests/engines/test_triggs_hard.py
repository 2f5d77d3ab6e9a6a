"""The hard Triggs player (games.triggs.search): legal, blind to what its seat cannot see.

Its decision may depend only on its view: the other hands, the stock and the cards under
the visible tops are dealt again and it must choose the same (T-SETUP-2, T-A). It plays
whole games at 2, 3 and 4 players through the engine (T-WIN). Budgets are small here;
its strength is measured by bench/ladder.py.
"""

import random

import pytest

from games.triggs import search
from games.triggs.bots import LEVELS, greedy, strong
from games.triggs.engine import apply, is_over, legal_actions, new_game, view

SMALL = {"work": 300, "horizon": 4}
TINY_TREE = {"iterations": 20, "horizon": 4}


def _mid_game(players, seed, plies):
    state = new_game({"players": players}, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        seat = state["turn"]
        state = apply(state, seat, strong(view(state, seat), legal_actions(state), rng))
    return state


def redeal_unseen(state, seat):
    """The same position with every card `seat` cannot see in another place: the other
    hands, the stock, and the face-up and discard piles under their top cards are pooled
    and handed out again in reverse order, keeping every size; another seed."""
    other = {**state, "hands": [list(h) for h in state["hands"]], "seed": state["seed"] + 1}
    piles = {name: list(pile) for name, pile in state["piles"].items()}
    discard = list(state["discard"])
    pool = [card for s, hand in enumerate(other["hands"]) if s != seat for card in hand]
    pool += piles["stock"] + piles["left"][:-1] + piles["right"][:-1] + discard[:-1]
    pool.reverse()

    def take(count):
        nonlocal pool
        taken, pool = pool[:count], pool[count:]
        return taken

    for s, hand in enumerate(other["hands"]):
        if s != seat:
            other["hands"][s] = take(len(hand))
    piles["stock"] = take(len(piles["stock"]))
    for name in ("left", "right"):
        if piles[name]:
            piles[name] = take(len(piles[name]) - 1) + piles[name][-1:]
    if discard:
        discard = take(len(discard) - 1) + discard[-1:]
    other["piles"], other["discard"] = piles, discard
    return other


def test_hard_is_not_one_of_the_lobby_levels():
    assert search.hard not in LEVELS.values() and search.ismcts not in LEVELS.values()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("plies", [0, 9, 30])
@pytest.mark.parametrize("player", ["hard", "ismcts"])
def test_decision_does_not_change_when_unseen_cards_are_dealt_again(players, plies, player):
    state = _mid_game(players, seed=players * 100 + plies, plies=plies)
    seat = state["turn"]
    other = redeal_unseen(state, seat)
    assert other["hands"] != state["hands"] or other["piles"] != state["piles"]
    assert view(other, seat) == view(state, seat)
    bot, options = (search.hard, SMALL) if player == "hard" else (search.ismcts, TINY_TREE)

    def decide(position):
        return bot(view(position, seat), legal_actions(position), random.Random(5), **options)

    assert decide(other) == decide(state)


def test_determinize_keeps_what_the_seat_sees():
    state = _mid_game(3, seed=4, plies=25)
    seen = view(state, 1)
    dealt = search.determinize(seen, random.Random(0))
    assert view(dealt, 1) == seen
    everything = [c for hand in dealt["hands"] for c in hand] + dealt["discard"] + dealt["box"]
    everything += [c for pile in dealt["piles"].values() for c in pile]
    assert sorted(everything) == sorted(v for v in range(1, 13) for _ in range(9))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hard_finishes_whole_games_with_legal_actions(players):  # T-WIN
    for seed in range(2):
        state = new_game({"players": players}, seed)
        rng = random.Random(seed)
        hard_seat = seed % players
        while not is_over(state):
            seat = state["turn"]
            legal = legal_actions(state)
            if seat == hard_seat:
                action = search.hard(view(state, seat), legal, rng, **SMALL)
            else:
                action = (strong if seat % 2 else greedy)(view(state, seat), legal, rng)
            state = apply(state, seat, action)  # raises on an illegal action
        assert state["winner"] is not None


def test_ismcts_finishes_a_game_with_legal_actions():
    state = new_game({"players": 2}, 3)
    rng = random.Random(3)
    while not is_over(state):
        seat = state["turn"]
        legal = legal_actions(state)
        bot = strong if seat else lambda v, lg, r: search.ismcts(v, lg, r, **TINY_TREE)
        state = apply(state, seat, bot(view(state, seat), legal, rng))
    assert state["winner"] is not None
