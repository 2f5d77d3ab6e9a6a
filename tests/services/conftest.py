"""Real server processes for the services tests (and bench/load.py).

A fresh PostgreSQL database `companion_test_<random>`, migrated by `manage.py migrate`;
two daphne processes sharing it and one Redis channel layer (a Redis database index
picked at random for the run, since the settings take no key prefix); browsers that
create, join and start tables over plain HTTP with cookies; phones that hold a
WebSocket the way the page does (static/js/table.js reconnects after an abnormal close;
static/js/table.js resyncs on open and on a version gap); a minimal WebSocket client
of our own under them.

Everything talks to 127.0.0.1 only, and every wait is bounded.
"""

import asyncio
import base64
import contextlib
import hashlib
import http.cookiejar
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.screens import Page

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
VERSION_RE = re.compile(r'id="table-meta"[^>]*data-version="(\d+)"')
FLASH_RE = re.compile(r'id="table-flash"[^>]*>(.*?)</div>', re.S)


def version_of(html: str) -> int | None:
    match = VERSION_RE.search(html)
    return int(match.group(1)) if match else None


def flash_of(html: str) -> str:
    match = FLASH_RE.search(html)
    return match.group(1).strip() if match else ""


def phone_token(cookie: str | None, code: str) -> str | None:
    """The (first) seat token at `code` in a phone's cookie (games.phones)."""
    from games import phones  # here: bench/load.py imports this module before django.setup

    tokens = phones.cookie_tokens({phones.COOKIE_NAME: cookie or ""}, code)
    return tokens[0] if tokens else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def with_path(url: str, path: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=path))


# -- processes -------------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the child: SIGTERM when the process that started it dies, so that a test run
    or bench killed midway leaves no server behind (Linux prctl PR_SET_PDEATHSIG)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)


class Process:
    """A subprocess on a port of 127.0.0.1 that the caller may kill and start again."""

    def __init__(self, name: str, log_dir: Path, port: int | None = None):
        self.name = name
        self.port = port or free_port()
        self.log_path = Path(log_dir) / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self) -> dict:
        return dict(os.environ)

    def spawn(self) -> None:
        """Start the process, its errors appended to its log, dying with this one."""
        log = open(self.log_path, "ab")  # noqa: SIM115 (the child keeps it)
        self.proc = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=_die_with_parent,
        )
        log.close()

    def start(self, timeout: float = 30) -> "Process":
        """Spawn it and wait until its port answers."""
        self.spawn()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if port_open(self.port):
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.name} did not start on port {self.port}:\n{self.log_tail()}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone."""
        if self.alive:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.alive:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def usage(self) -> tuple[float, int]:
        """(CPU seconds used so far, resident memory in bytes), from /proc."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        rss = 0
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) * 1024
        return cpu, rss


class Server(Process):
    """The production server (daphne, through companion.serve) serving the project (or any
    ASGI app) on 127.0.0.1."""

    def __init__(self, name, log_dir, env: dict, app="companion.asgi:application", port=None):
        super().__init__(name, log_dir, port)
        self.env, self.app = env, app

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self):
        # as the README and deploy/companion@.service start it (its options live in the
        # code), quieter, and with the application a test may replace
        return [PYTHON, "-m", "companion.serve", "--port", str(self.port), "-v", "0", self.app]

    def environment(self):
        return {**os.environ, **self.env}


class Worker(Process):
    """A worker of the task queue, as the README starts it: `manage.py procrastinate
    worker`. It listens on no port: started is alive a moment later."""

    def __init__(self, name, log_dir, env: dict):
        super().__init__(name, log_dir)
        self.env = env

    def command(self):
        return [PYTHON, "manage.py", "procrastinate", "worker"]

    def environment(self):
        return {**os.environ, **self.env}

    def start(self, timeout: float = 30) -> "Worker":
        """Spawn it (a worker has no port) and see it still running half a second later."""
        self.spawn()
        time.sleep(0.5)
        if not self.alive:
            raise RuntimeError(f"{self.name} did not start:\n{self.log_tail()}")
        return self


class RedisServer(Process):
    """A private redis-server (no persistence): a test may kill it without touching the
    machine's Redis, which other runs share."""

    def command(self):
        return [
            shutil.which("redis-server") or "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.log_path.parent),
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


# -- a minimal WebSocket client (RFC 6455) over asyncio streams --------------------------

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA
ABNORMAL = 1006  # the connection dropped without a close frame


class HandshakeRefused(Exception):
    def __init__(self, status: int):
        super().__init__(f"WebSocket handshake refused with HTTP {status}")
        self.status = status


def _mask(data: bytes, key: bytes) -> bytes:
    n = len(data)
    if not n:
        return data
    keys = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(keys, "big")).to_bytes(n, "big")


class WebSocket:
    """Just what the tests and the load bench need: text frames out (masked, any size,
    or raw frames for misbehaving), text frames in, pings answered, the close code kept.
    No library: the project has none for the client side, and this one costs the load
    generator little CPU."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.close_code: int | None = None

    @classmethod
    async def connect(
        cls, port: int, path: str, headers: dict, timeout: float = 5, source=None, tls=None
    ):
        """`source`: the loopback address to connect from (any of 127.0.0.0/8), so that the
        server sees distinct clients; `tls`: (an ssl context or None, the host name) for a
        server known by name, behind TLS or not (tests/deploy)."""
        local = (source, 0) if source else None
        context, host = tls if tls else (None, "127.0.0.1")
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                "127.0.0.1",
                port,
                limit=2**22,
                local_addr=local,
                ssl=context,
                server_hostname=host if context else None,
            ),
            timeout,
        )
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            writer.close()
            raise HandshakeRefused(0) from error
        status = int(head.split(b" ", 2)[1])
        if status != 101:
            writer.close()
            raise HandshakeRefused(status)
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest())
        if accept not in head:
            writer.close()
            raise HandshakeRefused(status)
        return cls(reader, writer)

    async def send_frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 2**16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        key = os.urandom(4)
        self.writer.write(header + key + _mask(payload, key))
        await self.writer.drain()

    async def send(self, text: str) -> None:
        await self.send_frame(TEXT, text.encode())

    async def recv(self) -> str | bytes | None:
        """The next message, or None once the socket is closed (see close_code)."""
        parts, kind = [], None
        try:
            while True:
                b0, b1 = await self.reader.readexactly(2)
                opcode, n = b0 & 0x0F, b1 & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                key = await self.reader.readexactly(4) if b1 & 0x80 else None
                payload = await self.reader.readexactly(n)
                if key:
                    payload = _mask(payload, key)
                if opcode == CLOSE:
                    self.close_code = struct.unpack("!H", payload[:2])[0] if n >= 2 else 1005
                    await self._close_quietly(payload[:2])
                    return None
                if opcode == PING:
                    await self.send_frame(PONG, payload)
                    continue
                if opcode == PONG:
                    continue
                if opcode in (TEXT, BINARY):
                    kind = opcode
                parts.append(payload)
                if b0 & 0x80:
                    data = b"".join(parts)
                    return data.decode() if kind == TEXT else data
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            if self.close_code is None:
                self.close_code = ABNORMAL
            self.writer.close()
            return None

    async def _close_quietly(self, payload: bytes) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            await self.send_frame(CLOSE, payload)
        self.writer.close()

    async def close(self, code: int = 1000) -> None:
        if self.close_code is None:
            self.close_code = code
        await self._close_quietly(struct.pack("!H", code))


# -- browsers (HTTP) -------------------------------------------------------------------


class _NoRaise(urllib.request.HTTPErrorProcessor):
    """Redirects are followed; an error status is an answer, not an exception."""

    def http_response(self, request, response):
        if 300 <= response.status < 400:
            return super().http_response(request, response)
        return response

    https_response = http_response


class Browser:
    """Plain HTTP with a cookie jar: a phone's browser before it opens the socket. Its
    posts carry an Origin header, as a browser's do (over HTTPS, Django's CSRF check
    needs one). `handlers`: more urllib handlers (tests/deploy's, for its TLS front)."""

    def __init__(self, base: str, handlers=()):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRaise(), *handlers
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, path: str, data: dict | None = None, base: str | None = None, headers=None):
        """(status, final URL, body text); POSTs carry the CSRF cookie's token."""
        body = None
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self.cookie("csrftoken") or ""}
            body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request((base or self.base) + path, data=body)
        if data is not None:
            request.add_header("Origin", base or self.base)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        with self.opener.open(request, timeout=20) as response:
            return response.status, response.url, response.read().decode(errors="replace")

    def get(self, path, **kw):
        return self.request(path, **kw)

    def post(self, path, data, **kw):
        return self.request(path, data, **kw)


# -- phones (WebSocket) ----------------------------------------------------------------


@dataclass
class Render:
    version: int | None
    flash: str
    html: str  # the message as sent
    at: float
    page: str = ""  # the page as the messages so far made it (tests.screens.Page)


# the page (static/js/table.js) connects again after these close codes only
RECONNECT_CODES = (1006, 1011, 1012, 1013)


BEAT = 1.0  # seconds between a phone's signs of life (tests/services/settings.py's beat)


@dataclass
class Phone:
    """A phone at a table as the page makes it behave: static/js/table.js connects
    again after an abnormal close (with a full-jitter backoff, shortened here),
    and static/js/table.js sends {"kind": "resync"} when the socket opens and whenever a
    version went missing. `pool` stands for a load balancer: after a drop the phone
    tries its server first, then the others. `auto_reconnect=False` makes a client that
    stays closed (the misbehaving ones)."""

    name: str
    code: str
    tokens: tuple = ()
    lang: str = "es"
    seat: int | None = None
    auto_reconnect: bool = True
    pool: list = field(default_factory=list)
    renders: list = field(default_factory=list)
    closes: list = field(default_factory=list)
    gaps: int = 0
    connects: int = 0
    server: object = None
    ws: WebSocket | None = None
    page: Page = field(default_factory=Page)
    # a CSRF cookie of its own, as every phone has (socket rooms count per phone)
    csrf: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __post_init__(self):
        self.looking = "here"
        self._waiters: list[asyncio.Future] = []
        self._tasks: set[asyncio.Task] = set()
        self._closing = False

    def headers(self, server, origin: str | None = None) -> dict:
        from games import phones

        cookie = f"{phones.cookie_pair(self.code, self.tokens)}; csrftoken={self.csrf}"
        return {"Origin": origin or server.base, "Cookie": cookie}

    def path(self) -> str:
        query = f"lang={self.lang}" + (f"&seat={self.seat}" if self.seat is not None else "")
        return f"/ws/table/{self.code}/?{query}"

    def _spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def connect(self, server, origin: str | None = None, timeout: float = 5) -> None:
        ws = await WebSocket.connect(
            server.port,
            self.path(),
            self.headers(server, origin),
            timeout=timeout,
            source=getattr(server, "source", None),
            tls=getattr(server, "tls", None),
        )
        self.ws, self.server, self._closing = ws, server, False
        if server not in self.pool:
            self.pool.append(server)
        self.connects += 1
        self._spawn(self._read(ws))
        self._spawn(self._beat(ws))
        await self.send({"kind": "resync"})
        self._notify()

    async def _beat(self, ws: WebSocket) -> None:
        """Say it is here every BEAT seconds, as table.js does (a silent socket's seats are
        gone: games.consumers.TableConsumer.heartbeat)."""
        while ws.close_code is None and not self._closing:
            await asyncio.sleep(BEAT)
            if ws is self.ws and ws.close_code is None:
                with contextlib.suppress(OSError, ConnectionError):
                    await ws.send(json.dumps({"kind": "presence", "state": self.looking}))

    async def reconnect(self, servers=None, attempts: int = 100) -> None:
        """Connect again, trying the servers in turn with a full-jitter backoff (0.1 s
        doubling to 1.6 s: the page's own, shortened), a bounded number of times."""
        self._closing = False
        servers = list(servers or self.pool)
        if self.server in servers:  # the server it had first, then the others
            at = servers.index(self.server)
            servers = servers[at:] + servers[:at]
        for attempt in range(attempts):
            if self._closing:
                return
            try:
                await self.connect(servers[attempt % len(servers)], timeout=2)
                return
            except (TimeoutError, HandshakeRefused, OSError):
                await asyncio.sleep(0.1 * 2 ** min(attempt, 4) * random.random())
        raise AssertionError(f"{self.name} could not reconnect to {[s.name for s in servers]}")

    async def _read(self, ws: WebSocket) -> None:
        while True:
            message = await ws.recv()
            if message is None:
                break
            if not isinstance(message, str):
                continue
            version = version_of(message)
            last = self.version
            if version is None:  # who is at the table: the screen of the version it shows
                version = last
            if last is not None and version is not None and version > last + 1:
                self.gaps += 1
                await self.send({"kind": "resync"})
            self.page.apply(message)
            self.renders.append(
                Render(version, flash_of(message), message, time.monotonic(), self.page.html)
            )
            self._notify()
        self.closes.append(ws.close_code)
        self._notify()
        if self.auto_reconnect and not self._closing and ws.close_code in RECONNECT_CODES:
            await self.reconnect()

    def _notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    @property
    def version(self) -> int | None:
        versions = [r.version for r in self.renders if r.version is not None]
        return versions[-1] if versions else None

    @property
    def connected(self) -> bool:
        return self.ws is not None and self.ws.close_code is None

    async def wait_until(self, predicate, timeout: float = 5, what: str = "") -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"{self.name}: timed out after {timeout}s waiting for {what or predicate}"
                    f" (version {self.version}, closes {self.closes})"
                )
            waiter = loop.create_future()
            self._waiters.append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining)

    async def wait_version(self, version: int, timeout: float = 5) -> None:
        await self.wait_until(lambda: (self.version or 0) >= version, timeout, f"version {version}")

    async def wait_closed(self, timeout: float = 5) -> int:
        """The close code of the socket it has now, once that one is closed."""
        ws = self.ws
        await self.wait_until(lambda: ws.close_code is not None, timeout, "close")
        return ws.close_code

    async def send(self, message) -> None:
        if isinstance(message, dict) and message.get("kind") == "presence":
            self.looking = message.get("state")  # what its beats say from now on
        text = message if isinstance(message, str) else json.dumps(message)
        # a dropped socket is the reader's news
        with contextlib.suppress(ConnectionError, OSError):
            await self.ws.send(text)

    async def act(self, seat: int, version: int, action_id: str | None = None, **fields) -> str:
        action_id = action_id or uuid.uuid4().hex
        await self.send(
            {"seat": str(seat), "version": str(version), "action_id": action_id, **fields}
        )
        return action_id

    async def move(self, seat, version, action_id, fields, timeout: float = 8) -> str:
        """Send one action and wait for its answer: "ack" once a render shows a later
        version with no refusal (the applied move, or the same action found in the
        log), else the refusal's text. If the socket drops first, the same message
        (same id, same version) goes again on the next socket, as a careful client does."""
        text = json.dumps(
            {"seat": str(seat), "version": str(version), "action_id": action_id, **fields}
        )
        start, sent_on, answer = len(self.renders), None, []

        def answered():
            for render in self.renders[start:]:
                if render.flash:
                    answer.append(render.flash)
                    return True
                if (render.version or 0) > version:
                    answer.append("ack")
                    return True
            return False

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not answered():
            if self.connected and self.ws is not sent_on:
                sent_on = self.ws
                await self.send(text)
            await self.wait_until(
                lambda sent=sent_on: answered() or (self.connected and self.ws is not sent),
                max(0.0, deadline - loop.time()),
                f"an answer to {action_id}",
            )
        return answer[0]

    async def close(self) -> None:
        self._closing = True
        if self.ws is not None:
            await self.ws.close()
        tasks = list(self._tasks)
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=2)
            for task in pending:
                task.cancel()


# -- a cluster: one PostgreSQL database, N daphne processes, one Redis ---------------------


@dataclass
class SeatedTable:
    code: str
    tokens: list
    browsers: list
    players: int


class Cluster:
    """Server processes and task queue workers on a database of their own, as deployed."""

    def __init__(
        self, admin_url: str, redis_url: str, work: Path, servers: int = 2, workers: int = 2
    ):
        self.admin_url = admin_url
        self.name = f"companion_test_{secrets.token_hex(5)}"
        self.db_url = with_path(admin_url, f"/{self.name}")
        self.redis_url = redis_url
        self.work = Path(work)
        self.count, self.worker_count = servers, workers
        self.servers: list[Server] = []
        self.workers: list[Worker] = []
        self.extra: list[Process] = []

    def env(self, redis_url: str | None = None) -> dict:
        return {
            "DATABASE_URL": self.db_url,
            "REDIS_URL": redis_url or self.redis_url,
            "DJANGO_SETTINGS_MODULE": "tests.services.settings",  # rate limits raised
            "DEBUG": "1",
            "LOG_LEVEL": "WARNING",
            "BOT_DELAY": "0.05",
            "PYTHONUNBUFFERED": "1",
        }

    def start(self) -> "Cluster":
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')
        migrate = subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env={**os.environ, **self.env()},
            capture_output=True,
            text=True,
            timeout=180,
        )
        if migrate.returncode:
            raise RuntimeError("migrate failed:\n" + migrate.stderr[-3000:])
        self.servers = [Server(chr(65 + i), self.work, self.env()) for i in range(self.count)]
        self.workers = [Worker(f"W{i}", self.work, self.env()) for i in range(self.worker_count)]
        for process in [*self.servers, *self.workers]:
            process.start()
        return self

    def spawn(self, name: str, redis_url: str | None = None) -> Server:
        """One more server process on the same database (stopped at the end of the run)."""
        server = Server(name, self.work, self.env(redis_url)).start()
        self.extra.append(server)
        return server

    def ensure_running(self) -> None:
        """A test that killed a process leaves it dead: start it again for the next."""
        for process in [*self.servers, *self.workers]:
            if not process.alive:
                process.start()

    def close(self) -> None:
        import psycopg

        for process in [*self.extra, *self.servers, *self.workers]:
            process.stop()
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    # -- the database, read directly ------------------------------------------------

    def manage(self, *args: str) -> str:
        """A manage.py command with the processes' environment; its output."""
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env={**os.environ, **self.env()},
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def query(self, sql: str, *params) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.db_url) as db:
            return db.execute(sql, params).fetchall()

    def table(self, code: str) -> dict:
        (row,) = self.query(
            "SELECT id, game, mode, config, state, version, status FROM games_table WHERE code=%s",
            code,
        )
        return dict(
            zip(("id", "game", "mode", "config", "state", "version", "status"), row, strict=True)
        )

    def actions(self, code: str) -> list[dict]:
        rows = self.query(
            "SELECT a.version, a.seat, a.action, a.client_action_id FROM games_action a"
            " JOIN games_table t ON t.id = a.table_id WHERE t.code=%s ORDER BY a.version",
            code,
        )
        return [
            dict(zip(("version", "seat", "action", "client_action_id"), r, strict=True))
            for r in rows
        ]

    # -- tables over HTTP -------------------------------------------------------------

    def browser(self, server) -> Browser:
        """A phone's browser talking to `server` (tests/deploy's talks to its TLS front)."""
        return Browser(server.base)

    def new_table(
        self, game="triggs", mode="companion", players=4, turn_marker=True, server=None, **extra
    ) -> SeatedTable:
        """Create, join and start a table over HTTP (as phones' browsers would); `extra`,
        more fields of the lobby's form."""
        server = server or self.servers[0]
        host = self.browser(server)
        host.get("/es/play/")
        form = {"game": game, "mode": mode, "players": str(players), "name": NAMES[0], **extra}
        if turn_marker:
            form["turn_marker"] = "on"
        if game == "triumfdrez":
            form["target"] = "50"
        status, url, body = host.post("/es/play/", form)
        match = re.search(r"/t/([A-Z0-9]{6})/", url)
        assert status == 200 and match, f"create failed: {status} {url} {body[-500:]}"
        code = match.group(1)
        browsers = [host]
        for seat in range(1, players):
            guest = self.browser(server)
            guest.get(f"/es/join/{code}/")
            status, url, body = guest.post(
                f"/es/join/{code}/", {"seat": str(seat), "name": NAMES[seat]}
            )
            assert status == 200 and f"/t/{code}/" in url, f"join failed: {status} {body[-500:]}"
            browsers.append(guest)
        status, url, body = host.post(
            f"/es/t/{code}/start/", {"action_id": "start-" + uuid.uuid4().hex, "seat": "0"}
        )
        assert status == 200, f"start failed: {status} {body[-500:]}"
        from games import phones

        tokens = [phone_token(b.cookie(phones.COOKIE_NAME), code) for b in browsers]
        assert all(tokens)
        return SeatedTable(code, tokens, browsers, players)


def redis_for_run(redis_url: str) -> str:
    """The test Redis with a database index of its own for this run (1-15): the settings
    take no key prefix, and parallel runs must not share channel-layer keys."""
    return with_path(redis_url, f"/{secrets.randbelow(15) + 1}")


@pytest.fixture(scope="session")
def _cluster_holder():
    holder = {}
    yield holder
    for cluster in holder.values():
        cluster.close()


@pytest.fixture
def cluster(postgres_url, redis_url, _cluster_holder, tmp_path_factory):
    """Two daphne processes (A, B) on one fresh PostgreSQL database and one Redis,
    started once for the run; a test that killed one gets it back for the next test."""
    running = _cluster_holder.get("cluster")
    if running is None:
        running = Cluster(
            postgres_url, redis_for_run(redis_url), tmp_path_factory.mktemp("cluster")
        )
        try:
            running.start()
        except BaseException:
            running.close()
            raise
        _cluster_holder["cluster"] = running
    running.ensure_running()
    yield running
    running.ensure_running()


@pytest.fixture
def private_redis(redis_url, tmp_path_factory):
    """A redis-server of this test's own, to stop and start again."""
    from tests.conftest import require

    binary = shutil.which("redis-server")
    require("redis-server", binary is not None, "no redis-server on PATH")
    process = RedisServer("redis-private", tmp_path_factory.mktemp("redis")).start()
    yield process
    process.stop()


# -- playing a companion table from the test --------------------------------------------


def fields_of(action: dict) -> dict:
    """An engine action of a Triggs companion table as the phone's form fields."""
    fields = {"kind": action["type"]}
    if "value" in action:
        fields["value"] = str(action["value"])
    if "sets" in action:
        fields["sets"] = str(action["sets"])
    return fields


class CompanionGame:
    """The test's own copy of a Triggs companion table with the turn marker on, to
    choose each next move: a single cross that fills no row (so no extra-cross phase
    and no end of game), or a pass."""

    def __init__(self, config: dict, seed: int = 0):
        from games.triggs import companion

        self.engine = companion
        self.state = companion.new_game(config, seed)

    @classmethod
    def of(cls, cluster: "Cluster", code: str) -> "CompanionGame":
        """A copy of a table that has just started (its config and start seed)."""
        start = cluster.actions(code)[0]["action"]
        return cls(cluster.table(code)["config"], start["seed"])

    @property
    def actor(self) -> int:
        return self.state["turn"]

    def choose(self, rng) -> tuple[int, dict]:
        seat = self.actor
        sheet = self.state["sheets"][seat]
        from games.triggs.sheet import ROW_SIZES

        options = [
            a
            for a in self.engine.legal_actions(self.state, seat)
            if a["type"] == "pass"
            or (
                a["type"] == "cross"
                and a["sets"] == 1
                and ROW_SIZES[a["value"]] - sheet[a["value"] - 1] >= 2
            )
        ]
        return seat, rng.choice(options)

    def applied(self, seat: int, action: dict) -> None:
        self.state = self.engine.apply(self.state, seat, action)


def replay_log(game: str, mode: str, config: dict, actions: list[dict]) -> dict:
    """The state the log leads to: the engine's new game from the start action's seed
    (version 1), then every logged action in version order."""
    from games.registry import get_game

    engine = get_game(game).engine(mode)
    start = actions[0]
    assert start["version"] == 1 and start["action"]["type"] == "start", start
    state = engine.new_game(config, start["action"]["seed"])
    for row in actions[1:]:
        state = engine.apply(state, row["seat"], row["action"])
    return state


async def seat_phones(table: SeatedTable, servers: list, lang: str = "es") -> list[Phone]:
    """One phone per seat, seat i on servers[i]; each has its first render."""
    phones = [
        Phone(NAMES[i], table.code, (table.tokens[i],), lang=lang) for i in range(table.players)
    ]
    for phone, server in zip(phones, servers, strict=True):
        await phone.connect(server)
    for phone in phones:
        await phone.wait_version(1)
    return phones


async def close_all(phones) -> None:
    await asyncio.gather(*(p.close() for p in phones), return_exceptions=True)


def monotonic(versions) -> bool:
    versions = [v for v in versions if v is not None]
    return all(a <= b for a, b in zip(versions, versions[1:], strict=False))
