"""Server CPU to update one phone after a change, for the code before the table screen's
regions (41da417: each phone is sent the whole live table, drawn with the fragments of
that time), to set beside bench/updates.py in one sitting. Same tables, deals, moves and
phones as bench/updates.py; prints figures only.

    git worktree add /tmp/before 41da417
    (cd /tmp/before && for l in es el ru fr; do .venv/bin/pybabel compile \\
        -i locale/$l/LC_MESSAGES/django.po -o locale/$l/LC_MESSAGES/django.mo -l $l; done)
    .venv/bin/python bench/updates_before.py /tmp/before [--moves 60] [--lang es]

(pybabel from this checkout's .venv.) Run it and bench/updates.py in turns: the machine's
speed changes from one minute to the next.
"""

import argparse
import os
import random
import secrets
import statistics
import sys
import time
import uuid

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("checkout", help="a checkout of the code before the regions")
parser.add_argument("--moves", type=int, default=60)
parser.add_argument("--lang", choices=("es", "el", "ru", "fr"), help="every phone in it")
args = parser.parse_args()
sys.path.insert(0, os.path.abspath(args.checkout))
os.chdir(args.checkout)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import live, render, services  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.tables import config  # noqa: E402

LANGS = [args.lang] * 4 if args.lang else ["es", "el", "ru", "fr"]
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
SETUPS = [("triggs", "companion"), ("triggs", "digital"), ("triumfdrez", "companion"),
          ("triumfdrez", "digital")]  # fmt: skip


class Dealt:
    """games.services' `secrets`, but for the seed of a deal (as bench/updates.py)."""

    def __getattr__(self, name):
        return getattr(secrets, name)

    def randbits(self, bits):
        return 7


def run(game, mode):
    table, host, _token = services.create_table(game, mode, config(game, mode, 4), NAMES[0])
    for seat in range(1, 4):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    engine, rng, cpu = get_game(game).engine(mode), random.Random(7), []
    for seat in range(4):
        render.live_html(live.snapshot(table), [seat], seat, seat == 0, LANGS[seat])
    for _move in range(args.moves):
        state = table.state
        if engine.is_over(state):
            break
        action = rng.choice(engine.legal_actions(state))
        services.apply_action(
            table, engine.to_act(state)[0], action, table.version, uuid.uuid4().hex
        )
        table.refresh_from_db()
        snap = live.snapshot(table)
        for phone in range(4):
            start = time.process_time()
            render.live_html(snap, [phone], phone, phone == 0, LANGS[phone])
            cpu.append(time.process_time() - start)
    return cpu


def main():
    call_command("migrate", verbosity=0)
    services.secrets = Dealt()
    print(f"before the regions: {args.moves} seeded moves per table, 4 phones ({', '.join(LANGS)})")
    print(f"{'game, mode':<22}{'CPU ms p50':>11}{'p95':>7}")
    for game, mode in SETUPS:
        cpu = sorted(run(game, mode))
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        print(f"{game + ', ' + mode:<22}{statistics.median(cpu) * 1000:>11.2f}{p95 * 1000:>7.2f}")


if __name__ == "__main__":
    main()
