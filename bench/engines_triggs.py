"""Triggs engine benchmark (one core, public contract only).

Prints complete 4-player games per second with the greedy player driving every seat
(given only `view(state, seat)` and `legal_actions(state)`), best of a few rounds of the
same seeded games since the machine may be shared, and the median microseconds per
`legal_actions` and per `apply` call.

Run from the repository root: `python bench/engines_triggs.py [games]`.
"""

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.triggs.bots import greedy  # noqa: E402
from games.triggs.engine import apply, legal_actions, new_game, view  # noqa: E402

PLAYERS = 4
GAMES = 200
ROUNDS = 3


def play(seed: int) -> int:
    """One greedy game; returns the number of apply calls."""
    state = new_game({"players": PLAYERS}, seed)
    rng = random.Random(seed)
    calls = 0
    while state["phase"] != "over":
        seat = state["turn"]
        legal = legal_actions(state)
        state = apply(state, seat, greedy(view(state, seat), legal, rng))
        calls += 1
    return calls


def play_timed(
    seed: int, legal_ns: list[int], apply_ns: list[int], view_ns: list[int] | None = None
) -> None:
    state = new_game({"players": PLAYERS}, seed)
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    while state["phase"] != "over":
        seat = state["turn"]
        t0 = clock()
        legal = legal_actions(state)
        t1 = clock()
        seen = view(state, seat)
        t2 = clock()
        action = greedy(seen, legal, rng)
        t3 = clock()
        state = apply(state, seat, action)
        t4 = clock()
        legal_ns.append(t1 - t0)
        apply_ns.append(t4 - t3)
        if view_ns is not None:
            view_ns.append(t2 - t1)


def main(games: int = GAMES, rounds: int = ROUNDS) -> dict:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        calls = sum(play(seed) for seed in range(games))
        best = min(best, time.perf_counter() - start)
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    view_ns: list[int] = []
    for seed in range(games):
        play_timed(seed, legal_ns, apply_ns, view_ns)
    result = {
        "games_per_second": games / best,
        "actions_per_game": calls / games,
        "legal_actions_median_us": statistics.median(legal_ns) / 1000,
        "apply_median_us": statistics.median(apply_ns) / 1000,
        "view_median_us": statistics.median(view_ns) / 1000,
    }
    print(
        f"triggs: {result['games_per_second']:,.0f} complete {PLAYERS}-player greedy games/s "
        f"(best of {rounds} rounds of {games} seeded games, one core; "
        f"{result['actions_per_game']:.1f} actions per game)"
    )
    print(f"triggs: legal_actions median {result['legal_actions_median_us']:.2f} us")
    print(f"triggs: apply median {result['apply_median_us']:.2f} us")
    print(f"triggs: view (the seat to act) median {result['view_median_us']:.2f} us")
    return result


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
