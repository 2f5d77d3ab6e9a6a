"""The task queue's latency under many pending deadlines: N turn-based digital tables (a day
per move) made through the services, each with its clock's job waiting in the queue, then
M of them given clocks that run out a few seconds apart; two `manage.py procrastinate
worker` processes run the jobs. One sample per table: from the time its clock ran out to
the computer move's row in the log. Prints figures only.

Run from the repository root (PostgreSQL as for the tests, TEST_POSTGRES_URL; a few
minutes for 10,000 tables):

    .venv/bin/python bench/deadlines.py [--tables 10000] [--due 200] [--spread 20]

Not a test: the machine is shared, so read the figures, don't assert on them.
"""

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ADMIN = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
DAY = 24 * 3600


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000, help="turn-based tables")
    parser.add_argument("--due", type=int, default=200, help="clocks that run out")
    parser.add_argument("--spread", type=float, default=20, help="seconds they run out over")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    import psycopg

    name = f"companion_bench_{secrets.token_hex(4)}"
    db_url = ADMIN.rsplit("/", 1)[0] + f"/{name}"
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DEBUG": "1",
        "LOG_LEVEL": "WARNING",
        "BOT_DELAY": "0.8",
    }
    env.pop("REDIS_URL", None)
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    workers = []
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")})
        import django

        django.setup()
        from games import deadlines, services
        from games.models import Action, Table
        from tests.tables import config

        started = time.monotonic()
        ids = []
        for i in range(args.tables):
            table, host, _token = services.create_table(
                "triggs",
                "digital",
                config("triggs", "digital", 2),
                "Ana",
                services.Online(per_move=DAY, lang="es"),
            )
            services.claim_seat(table, 1, "Boris")
            services.start_table(table, host, f"start-{i}")
            ids.append(table.pk)
        made = time.monotonic() - started
        with psycopg.connect(db_url) as db:
            (pending,) = db.execute(
                "SELECT count(*) FROM procrastinate_jobs WHERE status = 'todo'"
                " AND task_name = 'games.deadline'"
            ).fetchone()
        print(
            f"{args.tables:,} turn-based tables made in {made:.0f} s;"
            f" {pending:,} deadline jobs waiting in the queue"
        )
        workers = [
            subprocess.Popen(
                [sys.executable, "manage.py", "procrastinate", "worker"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(args.workers)
        ]
        time.sleep(2)
        chosen = ids[:: max(1, len(ids) // args.due)][: args.due]
        start = time.time() + 3
        due = {}
        for n, table_id in enumerate(chosen):
            table = Table.objects.get(pk=table_id)
            at = start + args.spread * n / len(chosen)
            clock = {**table.clock, "since": at - table.clock["banks"][str(table.clock["seat"])]}
            Table.objects.filter(pk=table_id).update(clock=clock)
            deadlines.schedule(table_id)
            due[table_id] = (at, table.version)
        late = []
        end = time.time() + args.spread + 60
        while len(late) < len(due) and time.time() < end:
            time.sleep(1)
            late = [
                action.created.timestamp() - due[action.table_id][0]
                for action in Action.objects.filter(
                    table_id__in=list(due), client_action_id__startswith="clock:"
                )
            ]
        print(
            f"{len(due)} clocks run out over {args.spread:.0f} s, {args.workers} workers:"
            f" {len(late)} computer moves;"
            f" from due time to the move p50 {statistics.median(late) * 1000:.0f} ms,"
            f" p95 {percentile(late, 0.95) * 1000:.0f} ms, max {max(late) * 1000:.0f} ms"
        )
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(10)
        from django.db import connections

        connections.close_all()
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
