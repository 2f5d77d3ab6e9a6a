"""Property tests over many seeded games (random, greedy and mixed play, 2-4 players):
card conservation, the hand limit, growing sheets, a legal action until someone wins,
no mutation, JSON round trips, replays and views that leak nothing."""

import copy
import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.triggs.bots import greedy
from games.triggs.engine import (
    apply,
    cross_options,
    legal_actions,
    new_game,
    sets_from_cards,
    view,
)
from games.triggs.piles import next_obsolete
from games.triggs.sheet import ROW_SIZES

from .test_triggs_positions import DECK, all_cards
from .test_triggs_view import scramble

SIZES = list(ROW_SIZES[1:])
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def choose(state, mode, rng):
    legal = legal_actions(state)
    assert legal, "no legal action before the game is over"
    if mode == "random" or (mode == "mixed" and rng.random() < 0.3):
        return rng.choice(legal), legal
    seat = state["turn"]
    return greedy(view(state, seat), legal, rng), legal


def check_invariants(state, previous):
    assert all_cards(state) == DECK
    assert all(len(hand) <= 10 for hand in state["hands"])
    for sheet, before in zip(state["sheets"], previous["sheets"], strict=True):
        assert all(b <= s <= size for s, b, size in zip(sheet, before, SIZES, strict=True))
    assert json.loads(json.dumps(state)) == state
    if state["phase"] == "over":
        assert state["sheets"][state["winner"]] == SIZES
        assert legal_actions(state) == []
        return
    assert state["winner"] is None
    assert all(sum(sheet) < 42 for sheet in state["sheets"])
    assert state["pending_extra"] == (state["phase"] == "extra")
    piles = state["piles"]
    if state["discard"]:  # T-REFILL: an empty pile takes the discard pile at once
        assert all(piles.values())
    assert state["obsolete"] == next_obsolete(state["sheets"], [])
    for name in ("left", "right"):
        assert not piles[name] or piles[name][-1] not in state["obsolete"]


def check_screen_keys(state, legal):
    """What a view works out for a screen agrees with legal_actions: the seat to act may
    cross exactly the rows cross_options lists, with at most as many sets, and its
    draw_count is the number of cards each legal draw takes (T-A, T-A-LIMIT)."""
    seat = state["turn"]
    seen = view(state, seat)
    most = {}
    for action in legal:
        if action["type"] == "cross":
            most[action["value"]] = max(most.get(action["value"], 0), len(action["sets"]))
    options = cross_options(seen)
    if state["phase"] == "play":
        assert {option["value"]: len(option["sets"]) for option in options} == most
        for option in options:
            value = option["value"]
            assert option["room"] == ROW_SIZES[value] - state["sheets"][seat][value - 1]
            assert sets_from_cards(value, [c for s in option["sets"] for c in s]) == sorted(
                option["sets"], key=len
            )
    draws = {len(action["from"]) for action in legal if action["type"] == "draw"}
    assert draws <= {seen["draw_count"]}
    other = (seat + 1) % state["players"]
    assert view(state, other)["draw_count"] == 0


def run(seed, players, mode, limit):
    rng = random.Random(seed)
    state = new_game({"players": players}, seed)
    history = [state]
    log = []
    while state["phase"] != "over" and len(log) < limit:
        action, legal = choose(state, mode, rng)
        if len(log) % 5 == 0:
            check_screen_keys(state, legal)
        seat = state["turn"]
        before = copy.deepcopy(state)
        after = apply(state, seat, action)
        assert state == before, "apply mutated its input"
        check_invariants(after, state)
        if len(log) % 7 == 0:
            watcher = rng.choice([None, *range(players)])
            assert view(scramble(after, watcher, rng), watcher) == view(after, watcher)
        log.append((seat, action))
        history.append(after)
        state = after
    return history, log


def replay(seed, players, log):
    state = new_game({"players": players}, seed)
    states = [state]
    for seat, action in log:
        state = apply(state, seat, json.loads(json.dumps(action)))
        states.append(state)
    return states


@PROPERTY
@given(
    seed=st.integers(0, 2**63),
    players=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(["greedy", "mixed"]),
)
@example(seed=0, players=4, mode="greedy")
@example(seed=1, players=2, mode="mixed")
def test_games_finish_and_keep_every_invariant(seed, players, mode):
    history, log = run(seed, players, mode, limit=5000)
    final = history[-1]
    assert final["phase"] == "over"
    assert final["winner"] == log[-1][0]
    assert replay(seed, players, log) == history


@PROPERTY
@given(seed=st.integers(0, 2**63), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_every_invariant(seed, players):
    # uniformly random legal actions rarely finish: check a long stretch of play
    history, log = run(seed, players, "random", limit=300)
    assert replay(seed, players, log) == history


def test_many_greedy_games_finish_for_every_table_size():
    lengths = []
    for seed in range(30):
        players = 2 + seed % 3
        state = new_game({"players": players}, seed)
        rng = random.Random(seed)
        steps = 0
        while state["phase"] != "over":
            seat = state["turn"]
            state = apply(state, seat, greedy(view(state, seat), legal_actions(state), rng))
            steps += 1
            assert steps < 5000
        assert all_cards(state) == DECK
        lengths.append(steps)
    assert min(lengths) > 20
