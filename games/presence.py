"""Who is at the table: for each seat, whether a phone holding it is connected and looking
("here"), connected with the page hidden ("away"), or not connected at all ("gone").

Each socket notes its seats and its state here when it connects, when its page is shown
or hidden, and again every BEAT seconds; it is forgotten when it closes. A note older than
FRESH seconds no longer counts (its process died without saying so). When each seat was
last seen is kept too (`seen`): a computer player takes over a seat gone long enough on
its turn (games.online). With Redis
(REDIS_URL) the notes are one hash per table, so every server process reads the same
seats; without it (one process, `make run`) they are this process's memory.

What the table's phones are sent when it changes: games.consumers.
"""

import asyncio
import time

import redis.asyncio
from django.conf import settings
from django.utils.translation import pgettext_lazy

HERE, AWAY, GONE = "here", "away", "gone"
STATES = (HERE, AWAY)  # what a socket says of itself
ABSENT = (AWAY, GONE)
# Seconds between a socket's notes, and after which a note no longer counts (the setting
# PRESENCE_SECONDS = (beat, fresh) overrides them, for tests)
BEAT, FRESH = getattr(settings, "PRESENCE_SECONDS", (15.0, 40.0))
RANK = {HERE: 2, AWAY: 1}
SEEN_KEPT = 24 * 3600  # seconds the time a seat was last seen is kept after it
# How a seat's state is shown: a symbol and words, never colour alone
SYMBOLS = {HERE: "●", AWAY: "◐", GONE: "○"}
LABELS = {
    HERE: pgettext_lazy("presence", "online"),
    AWAY: pgettext_lazy("presence", "away"),
    GONE: pgettext_lazy("presence", "offline"),
}


def best(notes, now: float) -> dict[int, str]:
    """Per seat, the best state of its fresh notes ((seats, state, at) each)."""
    seats: dict[int, str] = {}
    for held, state, at in notes:
        if now - at > FRESH or state not in RANK:
            continue
        for seat in held:
            if RANK[state] > RANK.get(seats.get(seat), 0):
                seats[seat] = state
    return seats


class LocalNotes:
    """One process's notes, in its memory (no Redis)."""

    def __init__(self):
        self.tables: dict[str, dict[str, tuple]] = {}
        self.last: dict[str, dict[int, float]] = {}

    async def note(self, code, socket, seats, state):
        now = time.time()
        self.tables.setdefault(code, {})[socket] = (tuple(seats), state, now)
        self.last.setdefault(code, {}).update(dict.fromkeys(seats, now))

    async def forget(self, code, socket, seats=()):
        notes = self.tables.get(code, {})
        notes.pop(socket, None)
        if not notes:
            self.tables.pop(code, None)
        if seats:
            self.last.setdefault(code, {}).update(dict.fromkeys(seats, time.time()))

    async def read(self, code) -> dict[int, str]:
        return best(self.tables.get(code, {}).values(), time.time())

    async def seen(self, code) -> dict[int, float]:
        """When each seat's phone was last seen (a seat never seen is not named)."""
        return dict(self.last.get(code, {}))


class RedisNotes:
    """Every process's notes: a hash per table (socket → "seats|state|time"), kept for a
    while after its last note so that an abandoned table's notes go by themselves."""

    def __init__(self, url: str):
        self.url = url
        self.clients: dict[asyncio.AbstractEventLoop, redis.asyncio.Redis] = {}

    def client(self) -> redis.asyncio.Redis:
        loop = asyncio.get_running_loop()
        if loop not in self.clients:
            self.clients[loop] = redis.asyncio.Redis.from_url(
                self.url, socket_timeout=5, socket_connect_timeout=2
            )
        return self.clients[loop]

    @staticmethod
    def key(code: str) -> str:
        return f"presence:{code}"

    @staticmethod
    def seen_key(code: str) -> str:
        return f"presence-seen:{code}"

    async def note(self, code, socket, seats, state):
        now = f"{time.time():.3f}"
        async with self.client().pipeline(transaction=False) as pipe:
            pipe.hset(self.key(code), socket, f"{','.join(map(str, seats))}|{state}|{now}")
            pipe.expire(self.key(code), int(FRESH * 3))
            self.mark(pipe, code, seats, now)
            await pipe.execute()

    def mark(self, pipe, code, seats, now: str):
        if seats:
            pipe.hset(self.seen_key(code), mapping=dict.fromkeys(map(str, seats), now))
            pipe.expire(self.seen_key(code), SEEN_KEPT)

    async def forget(self, code, socket, seats=()):
        async with self.client().pipeline(transaction=False) as pipe:
            pipe.hdel(self.key(code), socket)
            self.mark(pipe, code, seats, f"{time.time():.3f}")
            await pipe.execute()

    async def seen(self, code) -> dict[int, float]:
        out = {}
        for seat, at in (await self.client().hgetall(self.seen_key(code))).items():
            try:
                out[int(seat)] = float(at)
            except ValueError:
                continue
        return out

    async def read(self, code) -> dict[int, str]:
        notes = []
        for value in (await self.client().hgetall(self.key(code))).values():
            try:
                held, state, at = value.decode().split("|")
                notes.append((tuple(int(s) for s in held.split(",") if s), state, float(at)))
            except ValueError:
                continue
        return best(notes, time.time())


NOTES = RedisNotes(settings.REDIS_URL) if settings.REDIS_URL else LocalNotes()


def of_seats(seats, notes: dict[int, str] | None) -> dict[int, str]:
    """Each person's seat with its state (a seat no fresh note names is gone); computer
    players and free seats have none. None when presence is not known (a page rendered
    over HTTP: its socket brings it)."""
    if notes is None:
        return {}
    return {
        seat.index: notes.get(seat.index, GONE)
        for seat in seats
        if seat.taken and seat.kind != seat.Kind.BOT
    }


async def absence(code: str, seats, notes=None, long_after: float = 60.0, since=None):
    """(the seats whose phones are absent: away or gone, the seats gone for `long_after`
    seconds or more), among the people's seats of `seats`, from `notes` (read here when
    None). `since(seat)`: when a gone seat went, for a seat never seen (else now)."""
    if notes is None:
        notes = await NOTES.read(code)
    seen = await NOTES.seen(code)
    now = time.time()
    people = [s.index for s in seats if s.taken and s.kind != s.Kind.BOT]
    absent = frozenset(s for s in people if notes.get(s) != HERE)
    long_gone = frozenset(
        s
        for s in people
        if s not in notes and now - (seen.get(s) or (since(s) if since else now)) >= long_after
    )
    return absent, long_gone
