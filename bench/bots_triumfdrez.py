"""TriumfDrez computer players: the strong level's score margin over heuristic, and its speed.

Plays seeded single hands (auction and play) through the public engine contract, each
player given only `view(state, seat)` and `legal_actions(state)`. The strong level plays
one side, heuristic the other; every deal is played twice with the sides swapped (strong
as team 0, then as team 1), so that both sides hold both sets of cards. The margin of a
hand is the strong side's D-SCORE points minus the heuristic side's. Prints the mean
margin per hand with its 95% confidence interval (mean ± 1.96·sd/√n over the deals, each
deal's two hands averaged, since they share the cards), and the median and worst time of
one strong decision. At 4 players strong partners strong (seats 0+2 or 1+3); at 2 players
it is one seat against the other.

Run from the repository root: `python bench/bots_triumfdrez.py [hands]` (default 300
hands per table size, 4 and 2 players).
"""

import math
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.triumfdrez import engine  # noqa: E402
from games.triumfdrez.bots import heuristic, strong  # noqa: E402
from games.triumfdrez.scoring import team_of  # noqa: E402

HANDS = 300
PLAYERS = (4, 2)
Z95 = 1.959964


def play_hand(seed: int, players: int, strong_team: int, decision_ns: list[int]) -> int:
    """One hand of deal `seed`; the strong side's points minus the heuristic side's."""
    state = engine.new_game({"players": players}, seed)
    teams = state["teams"]
    rng = random.Random(seed * 2 + strong_team)
    clock = time.perf_counter_ns
    while state["phase"] in ("auction", "play"):
        seat = state["turn"]
        seen, legal = engine.view(state, seat), engine.legal_actions(state)
        if team_of(teams, seat) == strong_team:
            start = clock()
            action = strong(seen, legal, rng)
            decision_ns.append(clock() - start)
        else:
            action = heuristic(seen, legal, rng)
        state = engine.apply(state, seat, action)
    points = state["last_result"]["points"]
    return points[strong_team] - points[1 - strong_team]


def run(players: int, hands: int) -> dict:
    decision_ns: list[int] = []
    started = time.perf_counter()
    margins: list[int] = []
    deals: list[float] = []
    for seed in range(max(1, hands // 2)):
        pair = [play_hand(seed, players, strong_team, decision_ns) for strong_team in (0, 1)]
        margins.extend(pair)
        deals.append(sum(pair) / 2)
    mean = statistics.fmean(margins)
    spread = Z95 * statistics.stdev(deals) / math.sqrt(len(deals)) if len(deals) > 1 else 0.0
    ordered = sorted(decision_ns)
    return {
        "players": players,
        "hands": len(margins),
        "margin": mean,
        "ci95": (mean - spread, mean + spread),
        "decisions": len(ordered),
        "decision_median_ms": statistics.median(ordered) / 1e6,
        "decision_p99_ms": ordered[int(0.99 * (len(ordered) - 1))] / 1e6,
        "decision_worst_ms": ordered[-1] / 1e6,
        "seconds": time.perf_counter() - started,
    }


def main(hands: int = HANDS, players: tuple[int, ...] = PLAYERS) -> list[dict]:
    results = []
    for count in players:
        result = run(count, hands)
        low, high = result["ci95"]
        print(
            f"triumfdrez bots, {count} players: strong's margin over heuristic "
            f"{result['margin']:+.2f} points per hand (95% CI {low:+.2f} to {high:+.2f}; "
            f"{result['hands']} hands, {result['hands'] // 2} seeded deals each played "
            "with the sides swapped)"
        )
        print(
            f"triumfdrez bots, {count} players: strong decision median "
            f"{result['decision_median_ms']:.1f} ms, 99th percentile "
            f"{result['decision_p99_ms']:.1f} ms, worst {result['decision_worst_ms']:.1f} ms "
            f"over {result['decisions']} decisions ({result['seconds']:.1f} s)"
        )
        results.append(result)
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else HANDS)
