"""The review after a game (games.review): the CPU one game's review takes at the
default review budget (each game's `search.REVIEW`), on this process's one core.

A game is played by computer players (TriumfDrez: `heuristic` at every seat, a match
to the default target; Triggs: `strong` at every seat), then every decision of seat 0
that the review judges (more than one legal action; TriumfDrez: bids, passes and cards)
is judged by the game's `judge` as games.review.compute asks it, without Django or the
thinking pool. It prints, per game and player count: the decisions, the total CPU
seconds, the median and 99th percentile per decision, and the five largest costs found
(the best value less the played move's, in the judge's units).

Run from the repository root: `python bench/review.py [--games triumfdrez,triggs]
[--players 2,4] [--seed 1]`. Timings stay here, never in tests.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.triggs import bots as triggs_bots  # noqa: E402
from games.triggs import engine as triggs_engine  # noqa: E402
from games.triggs import search as triggs_search  # noqa: E402
from games.triumfdrez import bots as triumfdrez_bots  # noqa: E402
from games.triumfdrez import engine as triumfdrez_engine  # noqa: E402
from games.triumfdrez import search as triumfdrez_search  # noqa: E402

GAMES = {
    "triumfdrez": (
        triumfdrez_engine,
        triumfdrez_bots.heuristic,
        triumfdrez_search,
        ("bid", "pass", "play"),
    ),
    "triggs": (triggs_engine, triggs_bots.strong, triggs_search, None),
}


def review_cpu(game: str, players: int, seed: int) -> tuple[int, float, list[float], list]:
    engine, player, search, kinds = GAMES[game]
    state = engine.new_game({"players": players}, seed)
    rng = random.Random(seed)
    decisions = []
    step = 1
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state)
        action = player(engine.view(state, seat), legal, rng)
        step += 1
        judged = kinds is None or action["type"] in kinds
        if seat == 0 and len(legal) > 1 and engine.to_act(state) == [0] and judged:
            decisions.append((engine.view(state, 0), legal, action, f"{seed}:{step}"))
        state = engine.apply(state, seat, action)
    times, costs = [], []
    for seen, legal, played, key in decisions:
        started = time.process_time()
        pairs = search.judge(seen, legal, played, random.Random(key), **search.REVIEW)
        times.append(time.process_time() - started)
        mine = next(value for action, value in pairs if action == played)
        costs.append(max(value for _action, value in pairs) - mine)
    return len(decisions), sum(times), times, sorted(costs, reverse=True)[:5]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="triumfdrez,triggs")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.games.split(","):
        for players in map(int, args.players.split(",")):
            count, total, times, costs = review_cpu(game, players, args.seed)
            ordered = sorted(times) or [0.0]
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            print(
                f"{game} {players}p: {count} decisions, {total:.1f} s CPU, "
                f"median {statistics.median(ordered) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
                f"largest costs {', '.join(f'{cost:.2f}' for cost in costs)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
