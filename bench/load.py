"""Live tables under load: N tables × 4 WebSocket phones against the project on
PostgreSQL + Redis — one daphne process, then two (phones 0 and 1 of each table on A,
2 and 3 on B, so every move crosses processes through Redis) — and the same fan-out
through a relay that does no work (the floor on this machine). Prints figures only.

Each table is a Triggs companion table with the turn marker on; every few seconds
(phases staggered) the seat to act either crosses one box (every other move, so that a
sheet changes and is drawn afresh) or says it drew or discarded ("pass"). The time from sending it to the last
of the table's phones holding the new version is one sample. N steps up 25, 50, 100,
200 and stops, per set-up, once p95 exceeds the limit (250 ms). Presence is on: every
project phone says it is here every 15 s, as a table page does (games.presence.BEAT; the
phases spread over the phones), so the figures include what presence costs. The project
is served as bench/gcwatch.py wraps it, which counts the server's full garbage
collections: each pauses every table of the process.

Run from the repository root (about 2-3 minutes; PostgreSQL and Redis as for the
tests, TEST_POSTGRES_URL and TEST_REDIS_URL):

    .venv/bin/python bench/load.py [--steps 25,50,100,200] [--interval 2.5] [--window 9]
        [--setups 1,2,relay,nginx] [--abusers 10] [--thinking 20 [--rounds 3]]

`--setups nginx` runs one process behind Debian's nginx serving deploy/nginx.conf over TLS
(tests/deploy), the phones connecting to nginx: the same process's figures with and
without the README's proxy, in one sitting.

`--thinking N` measures each step again while N tables of hard computer players think on
the task queue's workers; `--rounds K` alternates without and with K times and compares
every round's moves together too, a steadier ratio than one pair on a shared machine.

Not a test: the machine is shared, so read the figures, don't assert on them.
"""

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import platform
import secrets
import shlex
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION_AT = 'data-version="'
FLOODER = "127.0.0.2"  # the flooders' address (tables' phones: 127.0.1.2 and up)

# -- the relay: a WebSocket server that does no work --------------------------------------
# Run by daphne as `bench.load:relay` (stdlib only at import). Each text message goes to
# the other sockets of its group (/relay/<group>/), padded to the size of the project's
# live update, so that the floor moves as many bytes as the project does.

_GROUPS: dict[str, list] = {}
_PAD = " " * int(os.environ.get("RELAY_PAD_BYTES", "0"))


async def relay(scope, receive, send):
    if scope["type"] != "websocket":
        await receive()
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    group = scope["path"].strip("/").split("/")[-1]
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    members = _GROUPS.setdefault(group, [])
    members.append(send)
    try:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                break
            out = {"type": "websocket.send", "text": (message.get("text") or "") + _PAD}
            for other in members:
                if other is not send:
                    await other(out)
    finally:
        members.remove(send)


# -- the load --------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class Sock:
    """One phone's socket; like htmx's extension it connects again if the server drops it."""

    def __init__(self, table, seat, server, path, headers):
        self.table, self.seat = table, seat
        self.server, self.path, self.headers = server, path, headers
        self.ws = None
        self.version = 0
        self.size = 0

    async def open(self, first_render: bool) -> None:
        from tests.services.conftest import WebSocket

        self.ws = await WebSocket.connect(
            self.server.port,
            self.path,
            self.headers,
            timeout=60,
            source=self.table.address,
            tls=getattr(self.server, "tls", None),
        )
        if first_render:  # the project renders the table on connect
            self.version = max(self.version, Run.parse(await self.ws.recv()))


class LiveTable:
    def __init__(self, index: int, code: str, tokens: list[str]):
        self.index, self.code, self.tokens = index, code, tokens
        # each table's phones come from an address of their own, as from one household
        self.address = f"127.0.{1 + index // 250}.{2 + index % 250}"
        self.version = 1  # the project's version; the relay's count of moves
        self.crossed = [[0] * 12 for _ in range(4)]  # what this script crossed, per seat
        self.socks: list[Sock] = []
        self.waiting: tuple | None = None  # (target version, sent at, seats to hear, future)


class Run:
    """One set-up at one N: connect, move for a window, collect samples."""

    def __init__(
        self,
        servers,
        tables,
        kind: str,
        interval: float,
        window: float,
        warmup=1.0,
        abusers=0,
        beat=15.0,
        front=None,
        reconnecting=(),
    ):
        self.servers, self.tables, self.kind = servers, tables, kind
        self.front = front  # nginx, if the phones reach the servers through it
        self.interval, self.window, self.warmup = interval, window, warmup
        self.beat_every = beat  # seconds between a phone's presence frames (0: none)
        self.abusers = abusers  # spectator sockets flooding the first server with resyncs
        self.reconnecting = reconnecting  # tables whose seated phone keeps reconnecting
        self.reconnects = {"sockets": 0, "refused": 0}
        self.flood = {"frames": 0, "sockets": 0, "closed": 0, "refused": 0}
        self.samples: list[float] = []
        self.timeouts = self.drops = self.moves = self.refused = 0
        self.sizes: list[int] = []

    async def connect(self):
        limit = asyncio.Semaphore(20)
        relay = self.kind == "relay"

        from games import phones

        async def one(table, seat):
            server = self.front or self.servers[seat // 2 % len(self.servers)]
            if relay:
                path, headers = f"/relay/{table.code}/", {"Origin": server.base}
            else:
                path = f"/ws/table/{table.code}/?lang=es"
                cookie = phones.cookie_pair(table.code, [table.tokens[seat]])
                headers = {"Origin": server.base, "Cookie": cookie}
            sock = table.socks[seat] = Sock(table, seat, server, path, headers)
            async with limit:
                for attempt in range(20):  # refused: try again after a pause, as htmx does
                    try:
                        await sock.open(first_render=not relay)
                        break
                    except Exception:
                        self.refused += 1
                        await asyncio.sleep(0.2 * (attempt + 1))
                else:
                    raise RuntimeError(f"{table.code}/{seat}: 20 handshakes refused")
            table.version = max(table.version, sock.version)
            return sock

        for table in self.tables:
            table.socks = [None] * 4
            table.waiting = None
        self.running = True
        socks = await asyncio.gather(*(one(t, s) for t in self.tables for s in range(4)))
        self.readers = [asyncio.ensure_future(self.read(sock)) for sock in socks]

    @staticmethod
    def parse(text) -> int:
        if not isinstance(text, str):
            return 0
        at = text.find(VERSION_AT)
        if at < 0:
            return 0
        at += len(VERSION_AT)
        return int(text[at : text.index('"', at)])

    async def read(self, sock: Sock):
        while True:
            text = await sock.ws.recv()
            if text is None:
                if not self.running:
                    return
                self.drops += 1
                for attempt in range(20):
                    try:
                        await sock.open(first_render=self.kind != "relay")
                        break
                    except Exception:  # refused, reset, timed out: try again
                        await asyncio.sleep(0.2 * (attempt + 1))
                else:
                    return
                continue
            version = self.parse(text)
            sock.version = max(sock.version, version)
            sock.size = len(text)
            waiting = sock.table.waiting
            if waiting and version >= waiting[0] and sock.seat in waiting[2]:
                waiting[2].discard(sock.seat)
                if not waiting[2] and not waiting[3].done():
                    waiting[3].set_result(time.perf_counter() - waiting[1])

    async def drive(self, table: LiveTable, start: float, stop: float):
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start - loop.time()))
        while loop.time() < stop:
            tick = loop.time()
            version = table.version
            seat = (version - 1) % 4  # turn marker on, passes only: seat 0 moved first
            if self.kind == "relay":
                text = f'<div {VERSION_AT}{version + 1}">'
                hear = {s for s in range(4) if s != seat}  # the relay tells the other three
            else:
                action_id = uuid.uuid4().hex
                text = json.dumps(
                    {"seat": str(seat), "version": str(version), "action_id": action_id}
                    | self.move(table, seat, version)
                )
                hear = set(range(4))
            done = loop.create_future()
            table.waiting = (version + 1, time.perf_counter(), hear, done)
            measured = tick >= start + self.warmup
            try:
                await table.socks[seat].ws.send(text)
                latency = await asyncio.wait_for(done, 5)
                if measured:
                    self.samples.append(latency)
                    self.moves += 1
                table.version = version + 1
            except (TimeoutError, ConnectionError, OSError):
                if measured:
                    self.timeouts += 1
                # carry on from what the phones hold now
                table.version = max(version + 1, *(s.version for s in table.socks))
            table.waiting = None
            await asyncio.sleep(max(0.0, tick + self.interval - loop.time()))

    async def beat(self, stop: float, every: float) -> None:
        """Each phone says it is here every `every` seconds, as table.js does (a socket
        silent for longer than presence's FRESH counts as gone), phases spread out."""
        loop = asyncio.get_running_loop()
        socks = [s for t in self.tables for s in t.socks]
        frame = json.dumps({"kind": "presence", "state": "here"})
        begin = loop.time()
        for i, sock in enumerate(itertools.cycle(socks)):
            at = begin + every * i / len(socks)
            if at >= stop:
                return
            await asyncio.sleep(max(0.0, at - loop.time()))
            with contextlib.suppress(OSError, ConnectionError, AttributeError):
                await sock.ws.send(frame)

    @staticmethod
    def move(table: LiveTable, seat: int, version: int) -> dict:
        """Every other move crosses one box of a row that stays open (so the turn
        passes on, T-C-CAP), the others pass."""
        from games.triggs.sheet import ROW_SIZES

        if version % 2:
            return {"kind": "pass"}
        sheet = table.crossed[seat]
        # a margin of two boxes: a move that timed out may have crossed one already
        value = next((v for v in range(12, 0, -1) if ROW_SIZES[v] - sheet[v - 1] > 2), None)
        if value is None:
            return {"kind": "pass"}
        sheet[value - 1] += 1
        return {"kind": "cross", "value": str(value), "sets": "1"}

    async def abuse(self, stop: float) -> None:
        """One spectator socket at the first table, sending {"kind": "resync"} as fast as
        it can (what issue 17 found stalled a process), reading whatever comes back; cut
        off, it connects again at once, until the window ends (a handshake refused, it
        tries again after 0.1 s). All flooders come from one address, FLOODER."""
        from tests.services.conftest import HandshakeRefused, WebSocket

        server = self.servers[0]
        code = self.tables[0].code
        loop = asyncio.get_running_loop()
        frame = json.dumps({"kind": "resync"})
        while loop.time() < stop:
            try:
                ws = await WebSocket.connect(
                    server.port,
                    f"/ws/table/{code}/?lang=es",
                    {"Origin": server.base},
                    timeout=5,
                    source=FLOODER,
                )
            except (TimeoutError, HandshakeRefused, ConnectionError, OSError):
                self.flood["refused"] += 1
                await asyncio.sleep(0.1)
                continue
            self.flood["sockets"] += 1

            async def drain(ws=ws):
                while await ws.recv() is not None:
                    pass

            reader = asyncio.ensure_future(drain())
            try:
                while loop.time() < stop and not reader.done():
                    await ws.send(frame)
                    self.flood["frames"] += 1
                    await asyncio.sleep(0)
            except (ConnectionError, OSError):
                pass
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reader), 1)
            if ws.close_code is not None:
                self.flood["closed"] += 1
            reader.cancel()
            await asyncio.gather(ws.close(), return_exceptions=True)

    async def reconnect(self, table: LiveTable, stop: float) -> None:
        """A seated phone of a table nobody moves at, whose connection keeps dropping: it
        connects, takes its first render and closes, again and again (a refused handshake
        waits 0.1 s), from its table's address, until the window ends."""
        from games import phones
        from tests.services.conftest import HandshakeRefused, WebSocket

        server = self.front or self.servers[0]
        cookie = phones.cookie_pair(table.code, [table.tokens[0]])
        loop = asyncio.get_running_loop()
        while loop.time() < stop:
            try:
                ws = await WebSocket.connect(
                    server.port,
                    f"/ws/table/{table.code}/?lang=es",
                    {"Origin": server.base, "Cookie": cookie},
                    timeout=5,
                    source=table.address,
                    tls=getattr(server, "tls", None),
                )
                self.reconnects["sockets"] += 1
                await asyncio.wait_for(ws.recv(), 5)
                await ws.close()
            except (TimeoutError, HandshakeRefused, ConnectionError, OSError):
                self.reconnects["refused"] += 1
                await asyncio.sleep(0.1)

    async def full_collections(self) -> list:
        """Each server's full collections so far, their pauses in ms (bench.gcwatch; none
        counted for the relay)."""
        if self.kind == "relay":
            return [[] for _ in self.servers]

        def ask(server):
            with urllib.request.urlopen(server.base + "/bench/gc/", timeout=10) as answer:
                return json.loads(answer.read())

        return await asyncio.gather(*(asyncio.to_thread(ask, s) for s in self.servers))

    async def run(self) -> dict:
        await self.connect()
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.5
        stop = start + self.warmup + self.window
        flooders = [asyncio.ensure_future(self.abuse(stop)) for _ in range(self.abusers)]
        flooders += [asyncio.ensure_future(self.reconnect(t, stop)) for t in self.reconnecting]
        beating = self.kind != "relay" and self.beat_every > 0
        beats = [asyncio.ensure_future(self.beat(stop, self.beat_every))] if beating else []
        n = len(self.tables)
        # every table starts at its own phase, the samples counted after the warm-up (a
        # table that only started then would move in step with the others, in bursts)
        task = asyncio.gather(
            *(self.drive(t, start + self.interval * i / n, stop) for i, t in enumerate(self.tables))
        )
        await asyncio.sleep(max(0.0, start + self.warmup - loop.time()))
        before = [s.usage() for s in self.servers]
        paused = await self.full_collections()
        busy0, client0 = machine_busy(), time.process_time()
        wall0 = time.monotonic()
        await asyncio.sleep(max(0.0, stop - loop.time()))
        wall = time.monotonic() - wall0
        after = [s.usage() for s in self.servers]
        busy1, client1 = machine_busy(), time.process_time()
        paused = [p[len(b) :] for b, p in zip(paused, await self.full_collections(), strict=True)]
        await asyncio.wait_for(task, 15)
        await asyncio.gather(*flooders, *beats, return_exceptions=True)
        sizes = [s.size for t in self.tables for s in t.socks if s.size]
        self.running = False
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(
            *(s.ws.close() for t in self.tables for s in t.socks), return_exceptions=True
        )
        await asyncio.sleep(2)  # let the servers see every socket go before the next step
        cpu = [(b[0] - a[0]) / wall * 100 for a, b in zip(before, after, strict=True)]
        return {
            "samples": self.samples,
            "moves_per_s": self.moves / self.window,
            "timeouts": self.timeouts,
            "drops": self.drops,
            "refused": self.refused,
            "cpu": cpu,
            "rss": [b[1] for b in after],
            "gc": paused,
            "client_cpu": (client1 - client0) / wall * 100,
            "busy": (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * 100,
            "size": round(sum(sizes) / len(sizes)) if sizes else 0,
            "flood": dict(self.flood),
            "reconnects": dict(self.reconnects),
        }


# -- set-up ----------------------------------------------------------------------------


FLOODED = "project ×1 with flooders"
RECONNECTING = "project ×1 with reconnecting phones"
NGINX = "nginx+proj×1"  # the phones reach one process through deploy/nginx.conf, over TLS


def make_tables(count: int) -> list[LiveTable]:
    """Started companion tables, made through games.services in this process."""
    from games import services

    tables = []
    for i in range(count):
        table, host, token = services.create_table(
            "triggs", "companion", {"players": 4, "turn_marker": True}, "Ana"
        )
        tokens = [token] + [services.claim_seat(table, s, f"P{s}") for s in range(1, 4)]
        services.start_table(table, host, "start-" + uuid.uuid4().hex)
        tables.append(LiveTable(i, table.code, tokens))
    return tables


def measure(step, **extra) -> dict:
    """One run of a step's tables: `step` makes its Run, `extra` what this run adds
    (abusers, phones reconnecting)."""
    return asyncio.run(step(**extra).run())


THINKING = "with tables thinking"


class Thinking:
    """`count` digital TriumfDrez tables of four hard computer players (the host's seat
    stands in at the hard level too) playing on their own: their moves are the task
    queue's jobs, each a search in a worker's pool of thinking processes
    (games.thinking), while the measured tables are served. Closed by `stop`."""

    def __init__(self, count: int):
        from games import services
        from games.models import hash_token

        self.tables = []
        for _ in range(count):
            table, host, seat_token = services.create_table(
                "triumfdrez",
                "digital",
                {"players": 4, "target": 500},
                "Ana",
                plays=services.Online(takeover_level="hard"),
            )
            for index in (1, 2, 3):
                services.seat_bot(table, host, index, "hard")
            services.start_table(table, host, "start-" + uuid.uuid4().hex)
            services.stand_in(table, 0, {hash_token(seat_token)}, True)
            self.tables.append((table, host))
        self.began = self.moves()

    def moves(self) -> int:
        from games.models import Action

        return Action.objects.filter(table__in=[t for t, _h in self.tables]).count()

    def stop(self) -> int:
        """Close the tables; the moves they made meanwhile."""
        from games import services

        made = self.moves() - self.began
        for table, host in self.tables:
            services.close_table(table, host)
        return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="25,50,100,200")
    parser.add_argument("--interval", type=float, default=2.5, help="seconds between moves")
    parser.add_argument("--window", type=float, default=9.0, help="seconds measured per step")
    parser.add_argument("--limit-ms", type=float, default=250.0)
    parser.add_argument("--goal-ms", type=float, default=100.0)
    parser.add_argument(
        "--pool-max", default="10", help="DB_POOL_MAX: PostgreSQL connections per process"
    )
    parser.add_argument("--budget", type=float, default=240.0, help="seconds before it stops")
    parser.add_argument(
        "--setups",
        default="1,2,relay",
        help="which set-ups: 1 and 2 processes, the relay, nginx (1 process behind nginx)",
    )
    parser.add_argument(
        "--beat",
        type=float,
        default=15.0,
        help="seconds between a phone's 'I am here' (as table.js sends); 0: none, to "
        "measure what presence costs",
    )
    parser.add_argument(
        "--abusers",
        type=int,
        default=0,
        help="with one process, run each step again with this many spectator sockets "
        "flooding it with resyncs, and compare the p95 of the well-behaved tables",
    )
    parser.add_argument(
        "--reconnecters",
        type=int,
        default=0,
        help="with one process, run each step again with this many seated phones of other "
        "tables reconnecting in a loop, and compare the p95 of the well-behaved tables",
    )
    parser.add_argument(
        "--thinking",
        type=int,
        default=0,
        help="run each step of the project's set-ups again with this many tables of hard "
        "computer players thinking (two task queue workers, as the README runs them), and "
        "compare the p95 of the measured tables",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --thinking, measure each step without and with the thinking tables this "
        "many times, alternating, and compare every round's moves together too",
    )
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]
    began = time.monotonic()

    print("$ " + shlex.join(sys.orig_argv))
    sys.path.insert(0, str(ROOT))
    from tests.deploy.conftest import HOST, Front, Nginx
    from tests.services.conftest import (
        PYTHON,
        Server,
        Worker,
        redis_for_run,
        with_path,
    )

    admin_url = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis_url = redis_for_run(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    name = f"companion_bench_{secrets.token_hex(4)}"
    db_url = with_path(admin_url, f"/{name}")
    server_env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        # the project's settings, with table creation's limit raised (every table of the
        # load is created from this one machine); phones keep the site's limits, the
        # phones of each table coming from an address of their own
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "ALLOWED_HOSTS": "127.0.0.1,cards.example",  # cards.example: behind nginx
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(32),
        "DB_POOL_MAX": args.pool_max,
        "LOG_LEVEL": "ERROR",
    }
    print(
        f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}"
    )
    print(
        f"servers: companion.serve (daphne), {shlex.join(f'{k}={v}' for k, v in server_env.items() if k != 'SECRET_KEY')}"
    )
    print(
        f"load: Triggs companion tables, 4 phones each, one move (a cross or a pass) per table every "
        f"{args.interval} s, staggered; {args.window} s measured per step after 1 s; "
        f"stop a set-up once p95 > {args.limit_ms:.0f} ms; budget {args.budget:.0f} s; "
        + (
            f"each phone says it is here every {args.beat:g} s"
            if args.beat
            else "no presence frames"
        )
    )

    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    work = Path(os.environ.get("TMPDIR", "/tmp")) / name
    work.mkdir(parents=True, exist_ok=True)
    servers: list = []
    try:
        env = {**os.environ, **server_env}
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
        )
        os.environ["DATABASE_URL"] = db_url
        # the phones' cookie is signed: with the servers' key, or they would be spectators
        os.environ["SECRET_KEY"] = server_env["SECRET_KEY"]
        os.environ.pop("REDIS_URL", None)  # this process needs no channel layer
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
        import django

        django.setup()
        tables = make_tables(max(steps) + args.reconnecters)
        spare = tables[max(steps) :]
        tables = tables[: max(steps)]
        print(f"set-up: {len(tables)} tables in {time.monotonic() - began:.0f} s\n")

        results: dict[str, dict[int, dict]] = {}
        thought: dict[str, dict[int, list]] = {}  # --thinking: the rounds, without and with
        size = 0
        workers = []
        if args.thinking:  # the README's two workers, started once, idle between runs
            workers = [Worker(f"w{i}", work, server_env).start() for i in range(2)]

        def header():
            print(
                f"{'set-up':<12}{'tables':>7}{'sockets':>8}{'moves/s':>9}{'p50 ms':>8}"
                f"{'p95 ms':>8}{'p99 ms':>8}{'lost':>6}{'drops':>6}{'refused':>8}"
                f"  {'server CPU % (RSS MiB)':<30}{'client CPU %':>13}{'machine busy %':>16}"
                f"  full GCs (longest ms)"
            )

        header()
        setups = {
            "1": ("project ×1", "bench.gcwatch:application", 1),
            "2": ("project ×2", "bench.gcwatch:application", 2),
            "relay": ("relay ×1", "bench.load:relay", 1),
            "nginx": (NGINX, "bench.gcwatch:application", 1),
        }
        for label, app, count in (setups[key] for key in args.setups.split(",")):
            env = dict(server_env, RELAY_PAD_BYTES=str(size))
            servers = [Server(f"{label[0]}{i}", work, env, app=app) for i in range(count)]
            front = None
            if label == NGINX:
                nginx = Nginx(work, [servers[0].port] * 2)  # the file's two upstream lines
                env["CSRF_TRUSTED_ORIGINS"] = f"https://{HOST}:{nginx.port}"
                front = Front(nginx)
                servers.append(nginx)
            for server in servers:
                server.start()
            if front is not None:
                servers.pop()  # measured: the server process (nginx's CPU is the machine's)
                nginx_process = nginx
            results[label] = {}
            kind = "relay" if app == "bench.load:relay" else "project"
            # the relay runs every N a project set-up ran, for the ratios
            queue = list(steps)
            if kind == "relay":
                queue = sorted(set(steps).union(*(set(r) for r in results.values() if r)))
            fallback = True
            while queue:
                n = queue.pop(0)
                if time.monotonic() - began > args.budget:
                    print(f"{label:<12}{n:>7}  skipped: past the {args.budget:.0f} s budget")
                    break
                step = functools.partial(
                    Run, servers, tables[:n], kind, args.interval, args.window,
                    beat=args.beat, front=front,
                )  # fmt: skip
                result = measure(step)
                results[label][n] = result
                if args.abusers and label == "project ×1":
                    results.setdefault(FLOODED, {})[n] = measure(step, abusers=args.abusers)
                if args.reconnecters and label in ("project ×1", NGINX):
                    key = RECONNECTING + (" behind nginx" if front else "")
                    results.setdefault(key, {})[n] = measure(step, reconnecting=spare)
                if args.thinking and kind == "project" and label != NGINX:
                    key = f"{label} {THINKING}"
                    rounds = []  # (without, with), alternating, the first without above
                    for again in range(args.rounds):
                        calm = measure(step) if again else result
                        thinking = Thinking(args.thinking)
                        busy = measure(step)
                        busy["thinking_moves"] = thinking.stop()
                        rounds.append((calm, busy))
                    thought.setdefault(key, {})[n] = rounds
                if kind == "project":
                    size = max(size, result["size"])
                ms = [x * 1000 for x in result["samples"]]
                per_server = ", ".join(
                    f"{c:.0f} ({r / 2**20:.0f})"
                    for c, r in zip(result["cpu"], result["rss"], strict=True)
                )
                print(
                    f"{label:<12}{n:>7}{4 * n:>8}{result['moves_per_s']:>9.1f}"
                    f"{percentile(ms, 50):>8.0f}{percentile(ms, 95):>8.0f}{percentile(ms, 99):>8.0f}"
                    f"{result['timeouts']:>6}{result['drops']:>6}{result['refused']:>8}"
                    f"  {per_server:<30}"
                    f"{result['client_cpu']:>13.0f}{result['busy']:>16.0f}"
                    f"  {', '.join(f'{len(p)} ({max(p, default=0):.0f})' for p in result['gc'])}",
                    flush=True,
                )
                if n in results.get(FLOODED, {}) and label == "project ×1":
                    flood = results[FLOODED][n]
                    fms = [x * 1000 for x in flood["samples"]]
                    print(
                        f"{'+ flooders':<12}{n:>7}{4 * n:>8}{flood['moves_per_s']:>9.1f}"
                        f"{percentile(fms, 50):>8.0f}{percentile(fms, 95):>8.0f}"
                        f"{percentile(fms, 99):>8.0f}{flood['timeouts']:>6}{flood['drops']:>6}"
                        f"{flood['refused']:>8}  {flood['cpu'][0]:.0f} "
                        f"({flood['rss'][0] / 2**20:.0f})  {args.abusers} flooders sent "
                        f"{flood['flood']['frames']:,} frames on {flood['flood']['sockets']} sockets, "
                        f"{flood['flood']['closed']} closed by the server, "
                        f"{flood['flood']['refused']} handshakes refused",
                        flush=True,
                    )
                over = percentile(ms, 95) > args.limit_ms or result["timeouts"] > len(ms) // 20
                if over and kind == "project" and fallback and n == steps[0]:
                    # over the limit from the first step: look below it, largest first
                    queue, fallback = [x for x in (10, 5) if x < n], False
                elif not fallback and kind == "project":
                    if not over:
                        break  # the largest N under the limit below the first step
                elif over:
                    break
            for server in servers:
                server.stop()
            if front is not None:
                nginx_process.stop()
            servers = []
        for worker in workers:
            worker.stop()

        print(f"\nlive update size (project, one phone): {size:,} bytes; the relay pads to it")
        print(
            "latency: from sending the move to the last phone holding the new version "
            "(project: all 4 phones; relay: the other 3). lost: moves not seen by every "
            "phone within 5 s. drops: sockets closed by the server during the step. refused: "
            "handshakes refused while connecting (retried). full GCs: the garbage "
            "collector's full collections in each server during the step, and the longest "
            "one's pause (every table of the process waits for it; bench/gcwatch.py)."
        )
        for label, by_n in results.items():
            good = [
                n
                for n, r in by_n.items()
                if percentile([x * 1000 for x in r["samples"]], 95) <= args.limit_ms
            ]
            print(
                f"largest N with p95 ≤ {args.limit_ms:.0f} ms, {label}: "
                + (f"{max(good)} tables ({4 * max(good)} sockets)" if good else "none tried")
            )
        for quiet, noisy in (("project ×1", RECONNECTING), (NGINX, RECONNECTING + " behind nginx")):
            for n, busy in results.get(noisy, {}).items():
                calm = percentile([x * 1000 for x in results[quiet][n]["samples"]], 95)
                loud = percentile([x * 1000 for x in busy["samples"]], 95)
                made = busy["reconnects"]
                print(
                    f"p95 with {args.reconnecters} phones reconnecting in a loop against "
                    f"without, {quiet}, N={n}: {loud:.0f}/{calm:.0f} ms = ×{loud / calm:.1f} "
                    f"({made['sockets']} sockets opened, {made['refused']} refused, server CPU "
                    f"{busy['cpu'][0]:.0f} % against {results[quiet][n]['cpu'][0]:.0f} %)"
                )
        for label in ("project ×1", "project ×2"):
            for n, rounds in thought.get(f"{label} {THINKING}", {}).items():
                for quiet, busy in rounds:
                    calm = percentile([x * 1000 for x in quiet["samples"]], 95)
                    loud = percentile([x * 1000 for x in busy["samples"]], 95)
                    print(
                        f"p95 with {args.thinking} tables of hard computer players thinking "
                        f"against without, {label}, N={n}: {loud:.0f}/{calm:.0f} ms = "
                        f"×{loud / calm:.2f} (goal ≤ ×1.5); they made {busy['thinking_moves']} "
                        f"moves meanwhile; server CPU {', '.join(f'{c:.0f}' for c in busy['cpu'])}"
                        f" % against {', '.join(f'{c:.0f}' for c in quiet['cpu'])} %, machine "
                        f"busy {busy['busy']:.0f} % against {quiet['busy']:.0f} %"
                    )
                if len(rounds) > 1:  # every round's moves together, with against without
                    calm = percentile([x * 1000 for q, _b in rounds for x in q["samples"]], 95)
                    loud = percentile([x * 1000 for _q, b in rounds for x in b["samples"]], 95)
                    print(
                        f"p95 of the {len(rounds)} rounds together, {label}, N={n}: "
                        f"{loud:.0f}/{calm:.0f} ms = ×{loud / calm:.2f} (goal ≤ ×1.5)"
                    )
        for n, flood in results.get(FLOODED, {}).items():
            calm = percentile([x * 1000 for x in results["project ×1"][n]["samples"]], 95)
            loud = percentile([x * 1000 for x in flood["samples"]], 95)
            print(
                f"p95 with {args.abusers} flooding sockets against without, N={n}: "
                f"{loud:.0f}/{calm:.0f} ms = ×{loud / calm:.1f} (goal ≤ ×2)"
            )
        floor = results.get("relay ×1", {})
        for label in ("project ×1", "project ×2"):
            ratios = []
            for n, r in results.get(label, {}).items():
                if n in floor:
                    p = percentile([x * 1000 for x in r["samples"]], 95)
                    f = percentile([x * 1000 for x in floor[n]["samples"]], 95)
                    ratios.append(f"N={n}: {p:.0f}/{f:.0f} ms = ×{p / f:.1f}")
            print(f"p95 against the floor, {label}: " + ("; ".join(ratios) or "n/a"))
        one = results.get("project ×1", {})
        for n, behind in results.get(NGINX, {}).items():
            if n in one:
                bare = percentile([x * 1000 for x in one[n]["samples"]], 95)
                proxied = percentile([x * 1000 for x in behind["samples"]], 95)
                print(
                    f"p95 behind nginx (TLS) against without, N={n}: "
                    f"{proxied:.0f}/{bare:.0f} ms = ×{proxied / bare:.1f}"
                )
        at_200 = one.get(200)
        if at_200:
            p95 = percentile([x * 1000 for x in at_200["samples"]], 95)
            verdict = "met" if p95 <= args.goal_ms else "not met"
            print(
                f"goal (200 tables on one process, p95 ≤ {args.goal_ms:.0f} ms): {verdict}, p95 {p95:.0f} ms"
            )
        elif one and max(one) < max(steps):
            print(
                f"goal (200 tables on one process, p95 ≤ {args.goal_ms:.0f} ms): not met — "
                f"one process stopped at {max(one)} tables (p95 over {args.limit_ms:.0f} ms)"
            )
        else:
            print("goal (200 tables on one process): not measured (200 is not among --steps)")
        print(f"total time: {time.monotonic() - began:.0f} s")
    finally:
        for server in servers:
            server.stop()
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
