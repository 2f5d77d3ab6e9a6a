"""One WebSocket per phone at a table. Thin: it checks who the phone is, hands
actions to games.services and sends back only its own seat's view.

Incoming frames are capped (8 KiB), rate-limited and validated; a refused
message always gets a translated reason and a fresh render, never silence.

A change reaches every phone of the table on this process at once: with Redis, the channel
layer is pub/sub (companion.settings), one message per process for all its phones
(RedisWatch says what happens when Redis is lost). They render from one snapshot of the
table per change: the one the change itself cached if it was made on this process, else one
read by the first phone to hear of it (games.live.cache_snapshot). Each phone renders its own
seat's view in the event loop, off the database thread.
"""

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter

import redis.asyncio
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeout

from games import (
    deadlines,
    fields,
    hints,
    live,
    online,
    open_tables,
    phones,
    phrases,
    presence,
    ratelimit,
    render,
    services,
)
from games.actions import BadInput, perform
from games.forms import SayForm
from games.models import Table
from games.registry import get_game

MAX_FRAME = 8 * 1024
BUCKET_SIZE = 10  # messages a phone may send in a burst
REFILL_PER_SECOND = 4.0
# Frames over the rate limit, malformed or too large (abuse, not a refused move) before the
# socket is closed; a valid move starts the count again.
FLOOD_LIMIT = 30
REFUSAL_EVERY = 1.0  # seconds: frames of abuse get one refusal rendered in that time
# Sockets this process takes from one phone (games.ratelimit.phone_key: its CSRF cookie,
# else its address), from one client address, from phones holding no seat at one table
# (spectators), and from the phones holding one seat (the settings WS_SOCKETS_PER_PHONE,
# WS_SOCKETS_PER_ADDRESS, WS_SOCKETS_PER_TABLE and WS_SOCKETS_PER_SEAT override them).
# Every phone at a café or a club shares one public address: the address's room is an
# envelope for a club night (20 tables of 4 phones, with tabs and reconnections to
# spare), a phone's stops one client. A seat's phones have room of their own: strangers
# filling a table's room for spectators cannot keep its players out. More are refused at
# the handshake (4429, as HTTP's 429); handshakes themselves are counted by the server,
# per address and per phone, before they reach here (companion.serve).
SOCKETS_PER_PHONE = 16
SOCKETS_PER_ADDRESS = 256
SOCKETS_PER_TABLE = 64
SOCKETS_PER_SEAT = 4
TOO_MANY = 4429
# Servers let an application close only with 1000 or 3000-4999: 4008 mirrors 1008
# ("policy violation"), and the page (static/js/table.js) does not reconnect after it.
POLICY_VIOLATION = 4008
LANGS = {code for code, _ in settings.LANGUAGES}
log = logging.getLogger(__name__)
WATCH_EVERY = 1.0  # seconds between two looks at Redis
FROZEN_LOOKS = 2  # looks unanswered in a row (5 s each) before a frozen Redis counts as lost


class RedisLost(Exception):
    """Redis went away or restarted: this process's phones may have missed a change."""


class RedisWatch:
    """Pub/sub keeps nothing for a process that is not listening: if Redis goes away or
    restarts, the phones of this process may miss a change. So the process looks at Redis
    every second; when it finds it gone (refused, reset) or restarted (a new run id), every
    socket it holds fails as it would with a failing server (1011), and the page connects again:
    each phone gets a fresh render once Redis is back, its handshake failing until then. A
    Redis that is only slow (frozen for less than about 10 s) is waited for: its messages
    arrive late."""

    def __init__(self, url: str):
        self.url = url
        self.task: asyncio.Task | None = None
        self.lost: asyncio.Future | None = None

    def current(self) -> asyncio.Future:
        """Done once Redis is lost, for the sockets open now (on the server's loop)."""
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.lost = loop.create_future()
            self.task = loop.create_task(self.watch())
        return self.lost

    async def watch(self):
        client = redis.asyncio.Redis.from_url(
            self.url, socket_timeout=5, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0)
        )
        seen = None  # the run id of the Redis found last time, None if it was away
        silent = 0
        while True:
            try:
                now = (await client.info("server"))["run_id"]
                silent = 0
            except RedisTimeout:
                silent += 1
                if silent < FROZEN_LOOKS:  # slow or frozen: wait for it
                    await asyncio.sleep(WATCH_EVERY)
                    continue
                now = None
            except (RedisError, OSError):
                now = None
            if seen is not None and now != seen:
                lost, self.lost = self.lost, asyncio.get_running_loop().create_future()
                lost.set_result(None)
            seen = now
            await asyncio.sleep(WATCH_EVERY)


WATCH = RedisWatch(settings.REDIS_URL) if settings.REDIS_URL else None


async def shared_snapshot(table_id: int, change: str):
    """The table as of a change: cached by this process if it made the change, else one
    read per process, whichever phone asks first."""
    cached = live.cached_snapshot(table_id, change)
    if isinstance(cached, live.Snapshot):
        return cached
    if cached is None:
        cached = asyncio.ensure_future(load_snapshot(table_id))
        live.cache_snapshot(table_id, change, cached)
    return await asyncio.shield(cached)  # a phone that leaves does not cancel the others' read


@database_sync_to_async
def load_snapshot(table_id: int):
    return live.snapshot(table_id)


class TableConsumer(AsyncWebsocketConsumer):
    async def __call__(self, scope, receive, send):
        """Channels' consumer, with the phone's messages raced against Redis being lost
        (RedisWatch): then it fails, and the server closes the socket (1011)."""
        if WATCH is None:
            return await super().__call__(scope, receive, send)
        lost = WATCH.current()

        async def receive_unless_lost():
            message = asyncio.ensure_future(receive())
            try:
                await asyncio.wait((message, lost), return_when=asyncio.FIRST_COMPLETED)
                if message.done():
                    return message.result()
                raise RedisLost
            finally:
                if not message.done():
                    message.cancel()

        try:
            return await super().__call__(scope, receive_unless_lost, send)
        except RedisLost:
            await self.leave_group()
            raise

    # the sockets this process holds: by phone, by client address, by table (spectators)
    # and by (table, seat) (the phones holding it)
    open_by_phone: Counter = Counter()
    open_by_address: Counter = Counter()
    open_by_table: Counter = Counter()
    open_by_seat: Counter = Counter()

    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.address = (self.scope.get("client") or [None])[0]
        query = dict(
            part.split("=", 1)
            for part in self.scope["query_string"].decode().split("&")
            if "=" in part
        )
        self.lang = query.get("lang") if query.get("lang") in LANGS else settings.LANGUAGE_CODE
        # the seat the phone enters moves for, if it may (games.context.act_for_choices)
        self.acting = query["for"] if query.get("for", "").isdigit() else None
        self.acting = None if self.acting is None or len(self.acting) > 2 else int(self.acting)
        # the table-centre screen (games.render.centre_screen): a spectator, whatever the
        # cookie holds, that never acts
        self.centre = query.get("view") == "centre"
        if self.centre:
            self.acting = None
        phone = await self.identify(None if self.centre else query.get("seat"))
        if isinstance(phone, int):
            await self.close(code=phone)
            return
        self.table, self.active, self.host, seats, snap = phone
        if self.centre:
            self.active, self.host, seats = None, False, []
        if not self.take_room(seats):
            await self.close(code=TOO_MANY)
            return
        self.table_id = self.table.pk
        self.version = 0  # the version of the latest render sent
        self.shown = None  # the screen it drew (games.render.Screen)
        self.hashes = (
            set() if self.centre else phones.token_hashes(self.scope.get("cookies", {}), self.code)
        )
        self.tokens = time.monotonic(), float(BUCKET_SIZE)
        self.abuse = 0
        self.refused_at = -REFUSAL_EVERY
        self.group = live.group_name(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.held = seats
        self.looking, self.notes, self.snap = presence.HERE, None, None
        self.noted_seats, self.gone_at = [], {}
        self.heard, self.silent = time.monotonic(), False
        await self.present()
        if snap is not None and any(
            seat.index in self.held and seat.stand_in == seat.StandIn.GONE for seat in snap.seats
        ):  # back: the computer player that took this phone's seat over hands it back
            await database_sync_to_async(services.hand_back)(self.table_id, self.held)
        await self.send_render(snap=snap)
        self.beat = asyncio.ensure_future(self.heartbeat())

    async def disconnect(self, close_code):
        if getattr(self, "beat", None) is not None:
            self.beat.cancel()
            self.beat = None
            self.held = []
            await self.present()
        for counter, key in getattr(self, "counted", ()):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        self.counted = ()
        await self.leave_group()

    def take_room(self, seats: list[int]) -> bool:
        """Count this socket in the room it takes (its seats', else the spectators' of its
        table, its phone's and its address's); False if that room is full."""
        if seats:
            room = getattr(settings, "WS_SOCKETS_PER_SEAT", SOCKETS_PER_SEAT)
            counted = [(self.open_by_seat, (self.code, seat)) for seat in seats]
        else:
            room = getattr(settings, "WS_SOCKETS_PER_TABLE", SOCKETS_PER_TABLE)
            counted = [(self.open_by_table, self.code)]
        limits = [(counter, key, room) for counter, key in counted]
        phone = ratelimit.phone_key(self.address, self.scope.get("cookies", {}))
        per_phone = getattr(settings, "WS_SOCKETS_PER_PHONE", SOCKETS_PER_PHONE)
        limits.append((self.open_by_phone, phone, per_phone))
        if self.address is not None:
            per_address = getattr(settings, "WS_SOCKETS_PER_ADDRESS", SOCKETS_PER_ADDRESS)
            limits.append((self.open_by_address, self.address, per_address))
        if any(counter[key] >= limit for counter, key, limit in limits):
            return False
        self.counted = [(counter, key) for counter, key, _limit in limits]
        for counter, key in self.counted:
            counter[key] += 1
        return True

    async def leave_group(self):
        if hasattr(self, "group"):
            # Redis away: the subscription went with it
            with contextlib.suppress(RedisError, OSError):
                await self.channel_layer.group_discard(self.group, self.channel_name)

    async def dispatch(self, message):
        """Channels' own dispatch, without its call to close_old_connections before every
        message: that call waits its turn on the one database thread, behind every move
        being applied, so under load each phone's update queued there. This consumer
        reaches the database only through database_sync_to_async, which closes old
        connections itself around each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @database_sync_to_async
    def identify(self, wanted_seat):
        """(table, active seat, host?, the seats the phone holds, the table's snapshot), or
        the code to close with."""
        address = self.address
        if ratelimit.over(address, "unknown_code"):  # a prober learns nothing more
            return 4404
        table = Table.objects.filter(code=self.code).first()
        if table is None:
            ratelimit.count(address, "unknown_code")
            return 4404
        snap = live.snapshot(table)
        phone = phones.identify(table, self.scope.get("cookies", {}), wanted_seat, snap.seats)
        # what the socket keeps of the table: a move reads the rest afresh (games.services),
        # and 800 sockets each holding the state they connected with were thousands of
        # objects for the garbage collector to walk (bench/load.py)
        kept = Table(pk=table.pk, code=table.code, game=table.game, mode=table.mode)
        return kept, phone.active, phone.host, phone.seats, snap

    def take_token(self) -> bool:
        """Token bucket: BUCKET_SIZE at once, then REFILL_PER_SECOND."""
        last, level = self.tokens
        now = time.monotonic()
        level = min(BUCKET_SIZE, level + (now - last) * REFILL_PER_SECOND)
        if level < 1:
            self.tokens = now, level
            return False
        self.tokens = now, level - 1
        return True

    async def receive(self, text_data=None, bytes_data=None):
        self.heard = time.monotonic()  # a sign of life (the page sends one every BEAT)
        if self.silent:
            self.silent = False
            await self.present()
        # checked before anything is read, so that a flood costs next to nothing
        if not self.take_token():
            await self.refuse("slow_down", abuse=True)
            return
        if bytes_data is not None or text_data is None:
            await self.refuse("bad_request", abuse=True)
            return
        if len(text_data) > MAX_FRAME or len(text_data.encode("utf-8")) > MAX_FRAME:
            await self.refuse("too_large", abuse=True)
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            await self.refuse("bad_request", abuse=True)
            return
        if not isinstance(message, dict):
            await self.refuse("bad_request", abuse=True)
            return
        if message.get("kind") == "resync":
            await self.send_render(unless_shown=message.get("version"), full=True)
            return
        if message.get("kind") == "say":
            await self.say(message)
            return
        if message.get("kind") == "presence":
            if message.get("state") not in presence.STATES:
                await self.refuse("bad_request", abuse=True)
                return
            if message["state"] != self.looking:
                self.looking = message["state"]
                await self.present()
            return
        if self.centre:  # read-only: a screen at the centre of the table makes no move
            await self.refuse("bad_request", abuse=True)
            return
        if message.get("kind") == "hint":
            await self.hint(message)
            return
        await self.act(message)

    async def hint(self, message):
        """A seat asks what the computer would play (games.hints): checked at once, then
        thought over in the pool while this socket goes on; its seat's phones are sent
        the hint when it is given."""
        form = hints.HintForm(message)
        if not form.is_valid():
            await self.refuse("bad_request", abuse=True)
            return
        seat, version = form.cleaned_data["seat"], form.cleaned_data["version"]
        try:
            asked = await database_sync_to_async(services.ask_hint)(
                self.table, seat, version, self.hashes
            )
        except services.Refused as refusal:
            await self.refuse(refusal.code, refusal.rule)
            return
        self.abuse = 0
        if asked.known:  # given or being worked out already: this phone is shown it
            await self.send_render()
            return
        hints.answer_later(self.table_id, seat, asked)

    async def act(self, message):
        try:
            seat = fields.integer(message, "seat", 0, fields.MAX_SEAT)
            version = fields.integer(message, "version", 0, fields.MAX_VERSION)
            action_id = fields.action_id(message.get("action_id"))
            found = await self.absence() if message.get("for") not in (None, "") else None
            applied = await self.apply(seat, message, version, action_id, found)
        except BadInput:
            await self.refuse("bad_request", abuse=True)
            return
        except services.Refused as refusal:  # a move the table refuses: not abuse
            await self.refuse(refusal.code, refusal.rule)
            return
        self.abuse = 0
        if applied.duplicate:
            await self.send_render()

    async def absence(self):
        """(host?, the absent seats, those gone for a while) for a move entered for another
        seat (games.services.may_act_for); nobody is absent while presence is unknown."""
        now = time.time()
        seats = self.snap.seats if self.snap is not None else []
        try:
            absent, long_gone = await presence.absence(
                self.code,
                seats,
                self.notes,
                services.GONE_FOR_ANSWER,
                lambda seat: self.gone_at.setdefault(seat, now),
            )
        except (RedisError, OSError):
            absent = long_gone = frozenset()
        return self.host, absent, long_gone

    @database_sync_to_async
    def apply(self, seat, message, version, action_id, found=None):
        # the seat is checked against the cookie in the move's own transaction (a host
        # may have freed it since this phone connected)
        return perform(
            self.table,
            seat,
            message,
            version,
            action_id,
            holder=self.hashes,
            presence=(lambda: found) if found else None,
        )

    async def refuse(self, code, rule=None, abuse=False):
        """The refusal, rendered with the table as it is: always for a move refused (the rate
        limit bounds those), at most once per REFUSAL_EVERY for abuse (frames over the rate
        limit, malformed or too large: the message shown stays). Past FLOOD_LIMIT frames
        of abuse in a row, the socket goes."""
        if abuse:
            self.abuse += 1
            if self.abuse > FLOOD_LIMIT:
                await self.close(code=POLICY_VIOLATION)
                return
        if abuse:
            now = time.monotonic()
            if now - self.refused_at < REFUSAL_EVERY:
                return
            self.refused_at = now
        await self.send_render(error=services.Refused(code, rule))

    async def noted(self):
        """Note this socket's seats and whether its page is shown (forget it once it has
        none: a spectator, or closed), then who is at the table; None if Redis is away
        (RedisWatch then closes the socket)."""
        try:
            if self.held and not self.silent:
                await presence.NOTES.note(self.code, self.channel_name, self.held, self.looking)
            else:
                await presence.NOTES.forget(self.code, self.channel_name, self.noted_seats)
            self.noted_seats = list(self.held)
            return await presence.NOTES.read(self.code)
        except (RedisError, OSError):
            log.warning("presence at %s not noted", self.code)
            return None

    async def present(self):
        """Note this socket and, if who is at the table changed, send its phones that."""
        notes = await self.noted()
        if notes is None or notes == self.notes:
            return
        self.notes = notes
        with contextlib.suppress(RedisError, OSError):
            await self.channel_layer.group_send(
                self.group, {"type": "presence.changed", "notes": sorted(notes.items())}
            )

    async def heartbeat(self):
        """Note this socket again every presence.BEAT seconds, and catch up on notes that
        went stale (a phone on a process that died): this phone's screen follows. A socket
        whose page has sent nothing for presence.FRESH seconds is not noted (the phone lost
        its network without closing the socket): its seats are gone until it speaks."""
        try:
            while True:
                await asyncio.sleep(presence.BEAT)
                self.silent = time.monotonic() - self.heard > presence.FRESH
                notes = await self.noted()
                if notes is not None and notes != self.notes:
                    self.notes = notes
                    await self.send_render(snap=self.snap, presence_only=True)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went meanwhile
            log.debug("presence heartbeat at %s ended", self.code, exc_info=True)

    async def presence_changed(self, event):
        notes = {int(seat): state for seat, state in event.get("notes", ())}
        if notes != self.notes:
            self.notes = notes
            await self.send_render(snap=self.snap, presence_only=True)

    async def say(self, message):
        """A phrase from this phone's seat, sent to the table (games.phrases): a seat's
        phone only, while the host allows them, one every phrases.EVERY seconds per seat
        (whichever of its phones and processes says it: counted in Django's cache)."""
        snap = self.snap
        seat = self.active if self.active in self.held else next(iter(self.held), None)
        if seat is None or snap is None:
            await self.refuse("seat_not_yours")
            return
        form = SayForm(message, phrases.offered(get_game(snap.table.game)))
        if not form.is_valid():
            await self.refuse("bad_request", abuse=True)
            return
        if not snap.table.phrases:
            await self.refuse("phrases_off")
            return
        try:
            first = await cache.aadd(f"said:{self.code}:{seat}", True, timeout=phrases.EVERY)
        except ratelimit.CACHE_AWAY:  # Redis away: this socket is about to close (RedisWatch)
            return
        if not first:
            await self.refuse("slow_down")
            return
        self.abuse = 0
        event = {"type": "table.said", "seat": seat, "phrase": form.cleaned_data["phrase"]}
        with contextlib.suppress(RedisError, OSError):
            await self.channel_layer.group_send(self.group, event)

    async def table_said(self, event):
        if self.snap is None:
            return
        with render.in_language(self.lang):
            html = render.said_html(self.snap, event.get("seat"), event.get("phrase"))
        if html:
            await self.send(text_data=html)

    async def table_changed(self, event):
        change = event.get("change")
        if not isinstance(change, str):
            await self.send_render()
            return
        snap = await shared_snapshot(self.table_id, change)
        if snap is not None and snap.table.version < self.version:
            return  # an older change, sent after a newer one this phone already shows
        await self.send_render(snap=snap)

    async def send_render(
        self, error=None, snap=None, unless_shown=None, full=False, presence_only=False
    ):
        """Send this phone what changed on its screen since the last render it was sent
        (the regions whose content differs, maybe none) with the version it now shows and
        the message if there is one; everything if `full` or the screen's layout changed.
        For a resync (`full`), nothing if the phone says it already shows this version
        (`unless_shown`). Who is at the table changing (`presence_only`) redraws the table
        the phone shows: only its regions, without the version."""
        if snap is None:
            snap = await load_snapshot(self.table_id)
        if snap is None:  # the table is gone
            await self.close(code=4404)
            return
        version = snap.table.version
        if unless_shown is not None and str(unless_shown) == str(version):
            return
        if self.centre:
            now = render.centre_screen(snap, self.lang, self.shown)
        else:
            now = render.phone_screen(
                snap,
                self.hashes,
                self.active,
                self.host,
                self.lang,
                self.notes,
                self.shown,
                self.acting,
            )
        active = now.me
        self.snap, self.held = snap, phones.seats_held(snap.seats, self.hashes)
        names = None if full else render.changed(self.shown, now)
        csrf = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME)
        with render.in_language(self.lang):
            parts = [] if presence_only else [render.meta_html(version)]
            if error is not None:
                parts.append(render.flash_html(error, snap.table.game))
            parts.append(render.live_html(now, names))
            html = render.fill_in(
                "".join(parts), self.code, active, version, csrf, socket=True, acting=now.acting
            )
        self.shown, self.version = now, version
        if html:
            await self.send(text_data=html)
        await self.watch()

    async def watch(self):
        """A gone seat's takeover, as this phone sees who is here: a job of the task queue
        at its time (games.deadlines: every phone of the table defers it, it waits once).
        The table's other deadlines are scheduled by its changes."""
        snap = self.snap
        if snap is None or not snap.table.takeover or self.notes is None:
            return
        seen = {}
        with contextlib.suppress(RedisError, OSError):
            seen = await presence.NOTES.seen(self.code)
        now = time.time()

        def gone_since(seat):
            return seen.get(seat) or self.gone_at.setdefault(seat, now)

        for due in online.deadlines(snap.table, snap.seats, self.notes, gone_since):
            if due.kind == online.GONE:
                try:
                    await deadlines.gone(self.table_id, due)
                except Exception:
                    log.exception("a takeover at %s could not be scheduled", self.code)


class OpenTablesConsumer(AsyncWebsocketConsumer):
    """The page of open tables (games.open_tables): its list rendered again when an open
    table changes (at most once a second) and every REFRESH seconds (the minutes waited).
    The page sends nothing: a socket that sends frames is closed after a few."""

    REFRESH = 30.0

    async def connect(self):
        query = dict(
            part.split("=", 1)
            for part in self.scope["query_string"].decode().split("&")
            if "=" in part
        )
        self.lang = query.get("lang") if query.get("lang") in LANGS else settings.LANGUAGE_CODE
        self.rendered_at, self.sent, self.frames, self.later = 0.0, None, 0, None
        await self.channel_layer.group_add(live.OPEN_TABLES, self.channel_name)
        await self.accept()
        self.refresh = asyncio.ensure_future(self.refresher())

    async def disconnect(self, close_code):
        for task in (getattr(self, "refresh", None), getattr(self, "later", None)):
            if task is not None:
                task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.channel_layer.group_discard(live.OPEN_TABLES, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        self.frames += 1
        if self.frames > FLOOD_LIMIT:
            await self.close(code=POLICY_VIOLATION)

    async def open_changed(self, event):
        if self.later is None or self.later.done():
            self.later = asyncio.ensure_future(self.render())

    async def refresher(self):
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(self.REFRESH)
                await self.render()

    async def render(self):
        await asyncio.sleep(max(0.0, self.rendered_at + 1.0 - time.monotonic()))
        self.rendered_at = time.monotonic()
        html = await database_sync_to_async(open_tables.list_html)(self.lang, oob=True)
        if html != self.sent:
            self.sent = html
            await self.send(text_data=html)


class UnknownPath(AsyncWebsocketConsumer):
    """Any other WebSocket path (or a table code that cannot exist): closed, never a 500."""

    async def connect(self):
        await self.close(code=4404)
