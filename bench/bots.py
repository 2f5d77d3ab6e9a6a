"""Triggs computer players: how often the strong level beats greedy, and how long it thinks.

Plays seeded 2-player games through the public engine contract (each player given only
`view(state, seat)` and `legal_actions(state)`). Every deal is played twice, the strong
player in seat 0 and then in seat 1, so each player starts as often as the other. Prints
the strong player's win rate with its 95% Wilson interval, and the median time of one
strong decision.

Run from the repository root: `python bench/bots.py [deals]` (default 500 deals, 1,000 games;
then TriumfDrez's comparison, bench/bots_triumfdrez.py, on as many hands).
"""

import math
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.triggs.bots import greedy, strong  # noqa: E402
from games.triggs.engine import apply, legal_actions, new_game, view  # noqa: E402

DEALS = 500
Z95 = 1.959964


def play(seed: int, strong_seat: int, decision_ns: list[int]) -> bool:
    """One game; True if the strong player won."""
    state = new_game({"players": 2}, seed)
    rng = random.Random(seed * 2 + strong_seat)
    clock = time.perf_counter_ns
    while state["phase"] != "over":
        seat = state["turn"]
        seen, legal = view(state, seat), legal_actions(state)
        if seat == strong_seat:
            start = clock()
            action = strong(seen, legal, rng)
            decision_ns.append(clock() - start)
        else:
            action = greedy(seen, legal, rng)
        state = apply(state, seat, action)
    return state["winner"] == strong_seat


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (centre - spread) / denominator, (centre + spread) / denominator


def main(deals: int = DEALS) -> dict:
    decision_ns: list[int] = []
    started = time.perf_counter()
    wins = games = 0
    for seed in range(deals):
        for strong_seat in (0, 1):
            wins += play(seed, strong_seat, decision_ns)
            games += 1
    low, high = wilson(wins, games)
    result = {
        "games": games,
        "win_rate": wins / games,
        "ci95": (low, high),
        "decision_median_us": statistics.median(decision_ns) / 1000,
        "seconds": time.perf_counter() - started,
    }
    print(
        f"triggs bots: strong beats greedy in {wins} of {games} 2-player games "
        f"({result['win_rate']:.1%}, 95% CI {low:.1%}–{high:.1%}; "
        f"{deals} seeded deals, each played with both seatings)"
    )
    print(
        f"triggs bots: strong decision median {result['decision_median_us']:.1f} us "
        f"over {len(decision_ns)} decisions ({result['seconds']:.1f} s in all)"
    )
    return result


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else None
    main(count or DEALS)
    # TriumfDrez: the strong level's score margin over the heuristic one (about a minute
    # at its default; as many hands as deals when a number is given)
    from bench import bots_triumfdrez

    bots_triumfdrez.main(count or bots_triumfdrez.HANDS)
