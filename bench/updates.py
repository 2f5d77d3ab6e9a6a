"""What one phone is sent after a change, and what it costs the server to draw it: for
each game and mode, a table of 4 people (phones in es, el, ru, fr) plays seeded moves
(each a legal action picked at random, as services would apply it); after each move,
every phone's screen is drawn (games.render.screen) and what changed for it since its
last screen is what the consumer would send (meta + changed regions, stamped as over
the WebSocket). Prints figures only.

    .venv/bin/python bench/updates.py [--moves 60]

bytes: the message one phone is sent per change (raw and gzip; the WebSocket has no
compression), median and p95 over phones and moves. CPU: process time to draw one phone's
update (screen, diff, stamp), median and p95, measured in one run: compare them with each
other, not across machines.

presence: what presence costs each phone, measured after the moves: one seat's phone goes
away and comes back (the other phones' screens drawn with every seat "here", then seat 1
"away", then "here" again); bytes and CPU of one such presence update per phone. Besides
these updates, each socket costs one Redis pipeline (a hash write and read) every BEAT
(15 s) seconds, and the page one small frame to the server per BEAT.
"""

import argparse
import gzip
import os
import random
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

from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from games import live, presence, render, services  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.tables import config  # noqa: E402

LANGS = ("es", "el", "ru", "fr")
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
SETUPS = [("triggs", "companion"), ("triggs", "digital"), ("triumfdrez", "companion"),
          ("triumfdrez", "digital")]  # fmt: skip


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def new_table(game, mode):
    table, host, token0 = services.create_table(game, mode, config(game, mode, 4), NAMES[0])
    for seat in range(1, 4):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table


def message(shown, now, code, seat, lang):
    names = render.changed(shown, now)
    with translation.override(lang):
        html = render.meta_html(now.version) + render.live_html(now, names)
        return render.stamp(html, code, seat, now.version, "c" * 64, socket=True)


def run(game, mode, moves, rng):
    table = new_table(game, mode)
    engine = get_game(game).engine(mode)
    shown = {}
    for seat in range(4):
        snap = live.snapshot(table)
        shown[seat] = render.screen(snap, [seat], seat, seat == 0, LANGS[seat])
    sizes, zipped, cpu, full_cpu, regions = [], [], [], [], []
    for move in range(moves):
        state = table.state
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state)
        action = rng.choice(legal)
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
        snap = live.snapshot(table)
        for phone in range(4):
            # the phone's update as the consumer draws it (regions whose inputs did not
            # change are kept from its last screen), and for comparison the same update
            # with every region drawn; in turns first, as the first pays for what the
            # process then keeps (a log line in words, a card)
            timed = {}
            for kept in (True, False) if (move + phone) % 2 else (False, True):
                start = time.process_time()
                previous = shown[phone] if kept else None
                now = render.screen(snap, [phone], phone, phone == 0, LANGS[phone], None, previous)
                html = message(shown[phone], now, table.code, phone, LANGS[phone])
                timed[kept] = (time.process_time() - start, now, html)
            (spent, now, html), (full, _now, _html) = timed[True], timed[False]
            cpu.append(spent)
            full_cpu.append(full)
            regions.append(len(render.changed(shown[phone], now) or now.regions))
            shown[phone] = now
            data = html.encode()
            sizes.append(len(data))
            zipped.append(len(gzip.compress(data, 6)))
    away = presence_cost(table)
    return sizes, zipped, cpu, full_cpu, regions, away


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
                html = render.stamp(html, table.code, phone, now.version, "c" * 64, socket=True)
            cpu.append(time.process_time() - start)
            sizes.append(len(html.encode()))
            base = now
    return sizes, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"{args.moves} seeded moves per table, 4 phones (es, el, ru, fr), one process")
    print(
        f"{'game, mode':<22}{'bytes p50':>10}{'p95':>8}{'gzip p50':>10}"
        f"{'regions p50':>12}{'CPU ms p50':>11}{'p95':>7}{'all drawn p50':>14}"
        f"{'presence bytes p50':>20}{'CPU ms p50':>11}"
    )
    for game, mode in SETUPS:
        sizes, zipped, cpu, full_cpu, regions, (away, away_cpu) = run(
            game, mode, args.moves, random.Random(7)
        )
        print(
            f"{game + ', ' + mode:<22}{statistics.median(sizes):>10,.0f}"
            f"{percentile(sizes, 0.95):>8,}{statistics.median(zipped):>10,.0f}"
            f"{statistics.median(regions):>12.0f}"
            f"{statistics.median(cpu) * 1000:>11.2f}{percentile(cpu, 0.95) * 1000:>7.2f}"
            f"{statistics.median(full_cpu) * 1000:>14.2f}"
            f"{statistics.median(away):>20,.0f}{statistics.median(away_cpu) * 1000:>11.2f}"
        )


if __name__ == "__main__":
    main()
