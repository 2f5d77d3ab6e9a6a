"""Computer players at digital tables: when a bot's seat is to act, it plays — and so
does a computer player standing in for a person (Seat.stand_in: asked for, or the phone
gone on its turn), or moving for a person whose turn clock ran out (`clock_ran_out`).

Listens to games.services.changed (games.apps): after every committed change of a
digital table in play, a bot plays if the game waits for bots only (engine.to_act; a
hand's score waits for the people to read it, one of whom deals the next). A bot gets
exactly what a phone would: `engine.view(state, seat)` and `engine.legal_actions(state)`
(the seat to act's choices), and its move goes through `services.apply_action` like any
other, with the client action id `bot:<version>` (no phone can send a ":"): scheduling the same move twice is
harmless, the second one is a duplicate or a stale version.

After `settings.BOT_DELAY` seconds, so that people can follow: from code running for an
ASGI server (a view or a consumer) as a task on the server's event loop, which carries
the move's broadcast to the phones; elsewhere (a management command, a WSGI server) on a
daemon timer thread. With BOT_DELAY 0 the bots play at once, in the caller's thread,
until a person is to act or the game is over (tests).
"""

import asyncio
import contextvars
import logging
import random
import threading
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections, transaction

from games import live, online, services
from games.models import Seat, Table
from games.registry import get_game

log = logging.getLogger(__name__)

_local = threading.local()
_tasks: set[asyncio.Task] = set()  # running tasks need a reference until they finish


def on_change(sender, change, **kwargs) -> None:
    """games.services.changed: a digital table in play may wait for a bot."""
    if change.status == Table.Status.PLAYING and change.hidden_hands:
        after_change(change.table_id)


def after_change(table_id: int) -> None:
    """A digital table changed: if a bot is to act, have it play (see the module)."""
    if getattr(_local, "playing", False):
        return  # called from a bot's own move: the loop in play_now goes on
    if not _waits_for_bot(table_id):
        return
    delay = settings.BOT_DELAY
    if delay <= 0:
        play_now(table_id)
        return
    loop = live.server_loop()
    if loop is not None:
        # a fresh context: this thread's would tell asgiref that the task already runs
        # inside the sync thread it needs (and it would refuse, to avoid a deadlock)
        loop.call_soon_threadsafe(_start_task, table_id, delay, context=contextvars.Context())
    else:
        timer = threading.Timer(delay, _play_in_thread, args=(table_id,))
        timer.daemon = True
        timer.start()


def play_now(table_id: int) -> int:
    """Play bot moves until a person is to act or the game is over; how many were played."""
    _local.playing = True
    try:
        moves = 0
        while play_once(table_id):
            moves += 1
        return moves
    finally:
        _local.playing = False


def play_once(table_id: int) -> bool:
    """One move of the bot whose seat is to act, if any; True if it played."""
    table = Table.objects.filter(pk=table_id).first()
    return table is not None and get_game(table.game).hidden_hands(table.mode) and move(table)


def move(table: Table) -> bool:
    """The move of the bot to act at `table` as loaded; False if there is none or the
    table has changed since (a second scheduling of the same move)."""
    if table.status != Table.Status.PLAYING or not table.state:
        return False
    engine = get_game(table.game).engine(table.mode)
    bot = _bot_to_act(table.pk, engine.to_act(table.state))
    if bot is None:
        return False  # a person's turn, and nobody asked a computer player to play for them
    level = bot.bot_level if bot.kind == Seat.Kind.BOT else table.takeover_level
    return play_for(table, bot.index, level, f"bot:{table.version}")


def play_for(table: Table, seat: int, level: str, client_action_id: str) -> bool:
    """The move of a computer player of `level` (else the game's first) for `seat` of the
    table as loaded, from that seat's view only; False if the table changed meanwhile."""
    game = get_game(table.game)
    engine = game.engine(table.mode)
    state = table.state
    levels = game.web.bot_levels
    player, _label = levels.get(level) or next(iter(levels.values()))
    # Ties are broken reproducibly, from nothing a phone could not know.
    rng = random.Random(f"{table.code}:{table.version}")
    action = player(engine.view(state, seat), engine.legal_actions(state), rng)
    try:
        applied = services.apply_action(table, seat, action, table.version, client_action_id)
    except services.Refused as refusal:
        if refusal.code != "stale":  # someone else changed the table first
            log.error("bot at %s seat %s was refused: %s", table.code, seat, refusal.code)
        return False
    return not applied.duplicate


def clock_ran_out(table_id: int, version: int) -> bool:
    """The turn clock of the seat to act ran out at this version: a computer player of the
    table's takeover level moves for it, once (the id `clock:<version>`); its bank is then
    the increment alone. False if the table moved on or the time is not up."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.version != version:
            return False
        running = online.clock_deadline(table.clock)
        seats = list(Seat.objects.filter(table=table))
        if running is None or running[0] != online.seat_to_act(table, seats):
            return False
        seat, at = running
        if time.time() < at:
            return False
        table.clock = {**table.clock, "banks": {**table.clock["banks"], str(seat): 0.0}}
        table.clock["since"] = time.time()
        table.save(update_fields=["clock"])
        return play_for(table, seat, table.takeover_level, f"clock:{version}")


def _bot_to_act(table_id: int, to_act: list[int]) -> Seat | None:
    """The computer player whose move the game waits for, if it waits for that one seat
    and a bot sits there or stands in for its person (when several may act, the people
    at the table do)."""
    if len(to_act) != 1:
        return None
    seats = Seat.objects.filter(table_id=table_id, index=to_act[0])
    return (seats.filter(kind=Seat.Kind.BOT) | seats.exclude(stand_in="")).first()


def _waits_for_bot(table_id: int) -> bool:
    table = Table.objects.filter(pk=table_id).values("game", "mode", "status", "state").first()
    if table is None or table["status"] != Table.Status.PLAYING or not table["state"]:
        return False
    engine = get_game(table["game"]).engine(table["mode"])
    return _bot_to_act(table_id, engine.to_act(table["state"])) is not None


def _start_task(table_id: int, delay: float) -> None:
    task = asyncio.get_running_loop().create_task(_play_later(table_id, delay))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _play_later(table_id: int, delay: float) -> None:
    await asyncio.sleep(delay)
    try:
        await database_sync_to_async(play_once)(table_id)
    except Exception:  # a task's exception would otherwise only be logged when collected
        log.exception("bot move at table %s failed", table_id)


def _play_in_thread(table_id: int) -> None:
    close_old_connections()
    try:
        play_once(table_id)
    except Exception:
        log.exception("bot move at table %s failed", table_id)
    finally:
        connections.close_all()
