"""A player's statistics ("My games", players.stats): the time to work them out for a
player with finished digital games, the first time (each Triggs log stepped through the
engine) and once each table's numbers are in the cache. Prints figures only.

Run from the repository root: `python bench/stats.py [--games N]` (N of each game).
"""

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from games import services  # noqa: E402
from players import stats  # noqa: E402
from players.models import Player  # noqa: E402
from tests.browser.history_setup import play  # noqa: E402
from tests.tables import config  # noqa: E402

NAMES = ["Ana", "Boris", "Chloé", "Dmitri"]


def finished(game: str, players: int, people, seed: int) -> int:
    """A finished digital table of `game` (its moves chosen by the first computer player:
    tests.browser.history_setup); its number of logged actions."""
    options = {"target": 30} if game == "triumfdrez" else {}
    table, host, _token = services.create_table(
        game, "digital", config(game, "digital", players, **options), NAMES[0], player=people[0]
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat], people[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    play(table, seed)
    return table.version


def timed(player, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        with translation.override("es"):
            stats.summary(player)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="finished games of each game")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    people = [Player.objects.create(name=name) for name in NAMES]
    actions = {
        "triggs": [finished("triggs", 2, people, seed) for seed in range(args.games)],
        "triumfdrez": [finished("triumfdrez", 4, people, seed) for seed in range(args.games)],
    }
    for game, counts in actions.items():
        print(
            f"{game:<11} {len(counts)} finished tables, {statistics.median(counts)} actions each (median)"
        )
    cold = []
    for _ in range(5):
        cache.clear()
        cold += timed(people[0], 1)
    warm = timed(people[0], 20)
    tables = 2 * args.games
    print(f"first time (cache empty): median {statistics.median(cold):.1f} ms, "
          f"{statistics.median(cold) / tables:.2f} ms per table")  # fmt: skip
    print(f"from the cache:           median {statistics.median(warm):.1f} ms, "
          f"{statistics.median(warm) / tables:.2f} ms per table")  # fmt: skip


if __name__ == "__main__":
    main()
