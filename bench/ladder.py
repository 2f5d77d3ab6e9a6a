"""The computer players' ladder: each level against the one below, on duplicate deals.

TriumfDrez: random < heuristic ("steady") < strong < hard (games.triumfdrez.search);
Triggs: greedy < strong < hard (games.triggs.search). Every player sees only
`view(state, seat)` and `legal_actions(state)`.

Duplicate deals: each seeded deal is replayed once per rotation of the seats, so that
both levels of a pair hold every hand from every seat. The upper level takes one seat
and the lower level the others (TriumfDrez at 4 players: one partnership each, seats
0+2 then 1+3).

- TriumfDrez, one hand (auction and play) per deal and rotation: the upper level's
  D-SCORE points minus the mean of the other sides', per hand; the mean over deals (each
  deal's rotations averaged, since they share the cards) with a 95% interval.
- Triggs, one game per deal and rotation: the upper level's win rate with its 95% Wilson
  interval (even play: 1 / players).
- Each level's decision time, median and 99th percentile, over every decision it made.

Run from the repository root, one process (it is CPU-bound):
`python bench/ladder.py [--deals N] [--first N] [--players 2,3,4]
[--games triumfdrez,triggs] [--pairs strong-hard,...]`; `--deals 4 --pairs strong-hard
--players 2` takes a couple of minutes. `--first` is the seed of the first deal (0 unless
given): a run that confirms what was chosen on deals 0-19 plays e.g. `--first 100`.
"""

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.triggs import bots as triggs_bots  # noqa: E402
from games.triggs import engine as triggs  # noqa: E402
from games.triggs import search as triggs_search  # noqa: E402
from games.triumfdrez import bots as drez_bots  # noqa: E402
from games.triumfdrez import engine as drez  # noqa: E402
from games.triumfdrez import search as drez_search  # noqa: E402

Z95 = 1.959964

LADDERS = {
    "triumfdrez": {
        "random": drez_bots.random_legal,
        "steady": drez_bots.heuristic,
        "strong": drez_bots.strong,
        "hard": drez_search.hard,
    },
    "triggs": {
        "greedy": triggs_bots.greedy,
        "strong": triggs_bots.strong,
        "hard": triggs_search.hard,
    },
}


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (centre - spread) / denominator, (centre + spread) / denominator


def _upper_seats(game: str, players: int, rotation: int) -> set[int]:
    if game == "triumfdrez" and players == 4:
        return {rotation % 2, rotation % 2 + 2}
    return {rotation}


def rotations(game: str, players: int) -> int:
    return 2 if game == "triumfdrez" and players == 4 else players


class Clock:
    """Decision times per level, in seconds."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}

    def decide(self, name, bot, seen, legal, rng):
        start = time.perf_counter()
        action = bot(seen, legal, rng)
        self.times.setdefault(name, []).append(time.perf_counter() - start)
        return action


def drez_hand(seed, players, names, bots, clock):
    """One hand of deal `seed`; the points per seat's side."""
    state = drez.new_game({"players": players}, seed)
    rng = random.Random(seed * 7 + 1)
    while state["phase"] in ("auction", "play"):
        seat = state["turn"]
        action = clock.decide(
            names[seat], bots[seat], drez.view(state, seat), drez.legal_actions(state), rng
        )
        state = drez.apply(state, seat, action)
    points = state["last_result"]["points"]
    return [points[drez.team_of(state["teams"], seat)] for seat in range(players)]


def triggs_game(seed, players, names, bots, clock):
    """One game of deal `seed`; the winning seat."""
    state = triggs.new_game({"players": players}, seed)
    rng = random.Random(seed * 7 + 1)
    while not triggs.is_over(state):
        seat = state["turn"]
        action = clock.decide(
            names[seat], bots[seat], triggs.view(state, seat), triggs.legal_actions(state), rng
        )
        state = triggs.apply(state, seat, action)
    return state["winner"]


def match(game: str, lower: str, upper: str, players: int, deals: int, first: int = 0) -> dict:
    ladder = LADDERS[game]
    clock = Clock()
    started = time.perf_counter()
    per_deal, wins, games = [], 0, 0
    for seed in range(first, first + deals):
        margins = []
        for rotation in range(rotations(game, players)):
            ups = _upper_seats(game, players, rotation)
            names = [upper if seat in ups else lower for seat in range(players)]
            bots = [ladder[name] for name in names]
            if game == "triumfdrez":
                points = drez_hand(seed, players, names, bots, clock)
                mine = points[min(ups)]
                others = [points[seat] for seat in range(players) if seat not in ups]
                margins.append(mine - statistics.fmean(others))
            else:
                wins += triggs_game(seed, players, names, bots, clock) in ups
                games += 1
        if margins:
            per_deal.append(statistics.fmean(margins))
    result = {
        "game": game,
        "players": players,
        "pair": (lower, upper),
        "deals": deals,
        "first": first,
    }
    if game == "triumfdrez":
        mean = statistics.fmean(per_deal)
        spread = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if deals > 1 else 0
        result.update(margin=mean, ci95=(mean - spread, mean + spread))
    else:
        result.update(wins=wins, games=games, win_rate=wins / games, ci95=wilson(wins, games))
    result["times"] = {
        name: (statistics.median(t), sorted(t)[int(0.99 * (len(t) - 1))], len(t))
        for name, t in clock.times.items()
    }
    result["seconds"] = time.perf_counter() - started
    return result


def report(result: dict) -> str:
    lower, upper = result["pair"]
    head = f"{result['game']} {result['players']}p {upper} vs {lower}:"
    low, high = result["ci95"]
    deals = f"{result['deals']} deals"
    if result["first"]:
        deals += f" from seed {result['first']}"
    if result["game"] == "triumfdrez":
        line = (
            f"{head} {result['margin']:+.2f} points per hand (95% CI {low:+.2f} to {high:+.2f}; "
            f"{deals} x {rotations('triumfdrez', result['players'])} seatings)"
        )
    else:
        line = (
            f"{head} wins {result['wins']}/{result['games']} = {result['win_rate']:.1%} "
            f"(95% Wilson {low:.1%} to {high:.1%}; even {1 / result['players']:.0%}; "
            f"{deals} x {result['players']} seatings)"
        )
    times = "; ".join(
        f"{name} median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms ({count})"
        for name, (median, p99, count) in result["times"].items()
    )
    return f"{line}\n    decisions: {times}; {result['seconds']:.0f} s"


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="seeded deals per pair")
    parser.add_argument("--first", type=int, default=0, help="seed of the first deal")
    parser.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,4")
    parser.add_argument("--games", default="triumfdrez,triggs")
    parser.add_argument(
        "--pairs", default="", help="lower-upper pairs to play, e.g. strong-hard (all: empty)"
    )
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.players.split(",")]
    wanted = {tuple(pair.split("-")) for pair in args.pairs.split(",") if pair}
    results = []
    for game in args.games.split(","):
        levels = list(LADDERS[game])
        for lower, upper in zip(levels, levels[1:], strict=False):
            if wanted and (lower, upper) not in wanted:
                continue
            for players in counts:
                result = match(game, lower, upper, players, args.deals, args.first)
                print(report(result), flush=True)
                results.append(result)
    return results


if __name__ == "__main__":
    main()
