"""What one phone is sent after a change, and what it costs the server to render it: for
each game and mode, a table of 4 people (phones in es, el, ru, fr, or all in one language
with --lang) plays seeded moves (each a legal action picked at random, as services would
apply it); after each move, every phone's screen is rendered (games.render.screen) and what
changed for it since its last screen is what the consumer would send (meta + changed
regions, stamped as over the WebSocket). Prints figures only; bench/RESULTS.md has them.

    .venv/bin/python bench/updates.py [--moves 60] [--lang es] [--calls] [--warm 60]

bytes: the message one phone is sent per change (raw and gzip; the WebSocket has no
compression), median and p95 over phones and moves. CPU: process time to render one
phone's update (screen, diff, fill in), median and p95, measured in one run: compare them
with each other, not across machines. Beside it, the same on a second table dealt and
played the same with every region rendered (the column "all drawn": from the same
change, a phone takes what another phone of its language rendered, but nothing from
earlier changes). The phones of a table share one snapshot as a process's sockets do, and
a phone takes a region rendered lately from the same inputs in its language (the
process's cache of regions, games.render); the two tables' players have other names, so
neither takes what the other rendered. One table alone in the process: with many, the
process caches fewer regions for each (bench/load.py).

warm (--warm N): before the tables above, N moves of another table (other names, another
deal), rendered for its four phones and not measured: as a server process that has served
tables before, whose parts rendered per content (cards, sheet rows, piles) are cached
already; without it the measured moves render them too.

calls (--calls): the Python function calls of one phone's update (cProfile), mean over the
kept table's phones and moves: a count the machine's noise does not move, to compare two
checkouts on a shared machine (the CPU columns are then not meaningful, the profiler
slows every call).

presence: what presence costs each phone, measured after the moves: one seat's phone goes
away and comes back (the other phones' screens rendered with every seat "here", then seat
1 "away", then "here" again); bytes and CPU of one such presence update per phone. Besides
these updates, each socket costs one Redis pipeline (a hash write and read) every BEAT
(15 s) seconds, and the page one small frame to the server per BEAT.
"""

import argparse
import cProfile
import gzip
import os
import pstats
import random
import secrets
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

from cachetools import LRUCache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from games import live, presence, render, services  # noqa: E402
from games import regions as region_cache  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.tables import config, play_random  # noqa: E402

LANGS = ["es", "el", "ru", "fr"]  # the phones' (--lang: all the same)
PROFILE: list = []  # with --calls: a cProfile.Profile of the kept table's phone updates
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
OTHER_NAMES = ("Eva", "Fyodor", "Gaëlle", "Hristo")
WARM_NAMES = ("Iris", "Jonas", "Katya", "Lev")
SETUPS = [("triggs", "companion"), ("triggs", "digital"), ("triumfdrez", "companion"),
          ("triumfdrez", "digital")]  # fmt: skip


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def new_table(game, mode, names):
    table, host, token0 = services.create_table(game, mode, config(game, mode, 4), names[0])
    for seat in range(1, 4):
        services.claim_seat(table, seat, names[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table


def message(shown, now, code, seat, lang):
    names = render.changed(shown, now)
    with render.in_language(lang):
        html = render.meta_html(now.version) + render.live_html(now, names)
        return render.fill_in(html, code, seat, now.version, "c" * 64, socket=True)


def warm_up(game, mode, moves):
    """`moves` seeded moves of a table of other players, on another deal, each phone's
    screen rendered after each: nothing measured (--warm)."""
    services.secrets = Dealt(11)
    table = new_table(game, mode, WARM_NAMES)
    services.secrets = Dealt()
    rng, shown = random.Random(11), {}
    for _move in range(moves):
        if not play_random(table, rng):
            break
        snap = live.snapshot(table)
        for phone in range(4):
            now = render.screen(
                snap, [phone], phone, phone == 0, LANGS[phone], None, shown.get(phone)
            )
            shown[phone] = now


def run(game, mode, moves, rng):
    # Two tables dealt the same and played the same moves: on one the phones' updates are
    # rendered as the consumer renders them (regions whose inputs did not change are taken
    # from the phone's last screen), on the other with every region rendered. Their players
    # have other names, so that neither takes what the other rendered (a process caches
    # shared parts by content: another player's sheet, a translated log line); in turns
    # first, as the machine's load changes.
    tables = {kept: new_table(game, mode, NAMES if kept else OTHER_NAMES) for kept in (True, False)}
    engine = get_game(game).engine(mode)
    shown = {kept: {} for kept in tables}
    for kept, table in tables.items():
        for seat in range(4):
            snap = live.snapshot(table)
            shown[kept][seat] = render.screen(snap, [seat], seat, seat == 0, LANGS[seat])
    sizes, zipped, regions = [], [], []
    cpu = {True: [], False: []}
    for move in range(moves):
        state = tables[True].state
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state))
        for table in tables.values():
            services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
            table.refresh_from_db()
        for kept in (True, False) if move % 2 else (False, True):
            table = tables[kept]
            # one snapshot shared by the four phones, as a process's sockets share theirs
            # (games.live.cache_snapshot): a region rendered for one phone is taken by another whose
            # inputs and language are the same (with --lang; else each has its own)
            snap = live.snapshot(table)
            # all rendered: nothing taken from earlier changes (games.regions.rendered)
            cache = region_cache.rendered
            if not kept:
                region_cache.rendered = LRUCache(cache.maxsize, cache.getsizeof)
            for phone in range(4):
                profile = PROFILE[0] if PROFILE and kept else None
                start = time.process_time()
                if profile:
                    profile.enable()
                previous = shown[kept][phone] if kept else None
                now = render.screen(snap, [phone], phone, phone == 0, LANGS[phone], None, previous)
                html = message(shown[kept][phone], now, table.code, phone, LANGS[phone])
                if profile:
                    profile.disable()
                cpu[kept].append(time.process_time() - start)
                if kept:
                    regions.append(len(render.changed(shown[kept][phone], now) or now.regions))
                    data = html.encode()
                    sizes.append(len(data))
                    zipped.append(len(gzip.compress(data, 6)))
                shown[kept][phone] = now
            region_cache.rendered = cache
    away = presence_cost(tables[True])
    return sizes, zipped, cpu[True], cpu[False], regions, away


def presence_cost(table):
    """Bytes and CPU of a presence update per phone: seat 1 goes away, then comes back."""
    snap = live.snapshot(table)
    here = dict.fromkeys(range(4), presence.HERE)
    sizes, cpu = [], []
    for phone in range(4):
        base = render.screen(snap, [phone], phone, phone == 0, LANGS[phone], here)
        for notes in ({**here, 1: presence.AWAY}, here):
            start = time.process_time()
            now = render.screen(snap, [phone], phone, phone == 0, LANGS[phone], notes, base)
            with translation.override(LANGS[phone]):  # no version: games.consumers
                html = render.live_html(now, render.changed(base, now))
                html = render.fill_in(html, table.code, phone, now.version, "c" * 64, socket=True)
            cpu.append(time.process_time() - start)
            sizes.append(len(html.encode()))
            base = now
    return sizes, cpu


class Dealt:
    """games.services' `secrets`, but for the seed of a deal (`seed`): the same at both
    tables, and for every checkout (bench/pages.py --deals)."""

    def __init__(self, seed: int = 7):
        self.seed = seed

    def __getattr__(self, name):
        return getattr(secrets, name)

    def randbits(self, bits):
        return self.seed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument(
        "--lang",
        choices=LANGS,
        help="every phone in this language (as at most tables), not one phone in each",
    )
    parser.add_argument(
        "--warm",
        type=int,
        default=0,
        metavar="N",
        help="first play N moves of another table, unmeasured, as a process that served tables",
    )
    parser.add_argument(
        "--calls",
        action="store_true",
        help="also count the Python calls of a phone's update (the CPU columns then mean little)",
    )
    args = parser.parse_args()
    if args.lang:
        LANGS[:] = [args.lang] * 4
    call_command("migrate", verbosity=0)
    services.secrets = Dealt()
    warm = f", after {args.warm} unmeasured moves of another table" if args.warm else ""
    print(f"{args.moves} seeded moves per table, 4 phones ({', '.join(LANGS)}), one process{warm}")
    print(
        f"{'game, mode':<22}{'bytes p50':>10}{'p95':>8}{'gzip p50':>10}"
        f"{'regions p50':>12}{'CPU ms p50':>11}{'p95':>7}{'all drawn p50':>14}"
        f"{'presence bytes p50':>20}{'CPU ms p50':>11}" + (f"{'calls':>8}" if args.calls else "")
    )
    for game, mode in SETUPS:
        PROFILE[:] = [cProfile.Profile()] if args.calls else []
        if args.warm:
            warm_up(game, mode, args.warm)
        sizes, zipped, cpu, full_cpu, regions, (away, away_cpu) = run(
            game, mode, args.moves, random.Random(7)
        )
        calls = f"{pstats.Stats(PROFILE[0]).total_calls / len(cpu):>8,.0f}" if args.calls else ""
        print(
            f"{game + ', ' + mode:<22}{statistics.median(sizes):>10,.0f}"
            f"{percentile(sizes, 0.95):>8,}{statistics.median(zipped):>10,.0f}"
            f"{statistics.median(regions):>12.0f}"
            f"{statistics.median(cpu) * 1000:>11.2f}{percentile(cpu, 0.95) * 1000:>7.2f}"
            f"{statistics.median(full_cpu) * 1000:>14.2f}"
            f"{statistics.median(away):>20,.0f}{statistics.median(away_cpu) * 1000:>11.2f}" + calls
        )


if __name__ == "__main__":
    main()
