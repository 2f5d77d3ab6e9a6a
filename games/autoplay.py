"""Computer players at digital tables: when a bot's seat is to act, it plays.

Called by games.services after every committed change of a digital table. A bot gets
exactly what a phone would: `engine.view(state, seat)` and `engine.legal_actions(state)`
(the seat to act's choices), and its move goes through `services.apply_action` like any
other, with the client action id `bot-<version>`: scheduling the same move twice is
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

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

from games.bots import triggs as triggs_bots
from games.bots import triumfdrez as triumfdrez_bots
from games.models import Seat, Table
from games.registry import get_game

log = logging.getLogger(__name__)

# game → level name → player(view, legal, rng) -> action; the first level is the default
LEVELS = {
    "triggs": triggs_bots.LEVELS,
    "triumfdrez": {
        level: triumfdrez_bots.LEVELS[level] for level in ("heuristic", "strong", "random")
    },
}
# Phases where no seat is to act, or where the people at the table read the score and
# one of them deals the next hand (TriumfDrez's next_hand is anyone's).
WAITING_PHASES = ("over", "hand_over", "match_over")

_local = threading.local()
_tasks: set[asyncio.Task] = set()  # running tasks need a reference until they finish


def levels(game: str) -> tuple[str, ...]:
    return tuple(LEVELS.get(game, ()))


def default_level(game: str) -> str:
    return levels(game)[0]


def after_change(table_id: int) -> None:
    """A digital table changed: if a bot is to act, have it play (see the module)."""
    if getattr(_local, "playing", False):
        return  # called from a bot's own move: the loop in play_now goes on
    if not _bot_to_act(table_id):
        return
    from games import services

    delay = settings.BOT_DELAY
    if delay <= 0:
        play_now(table_id)
        return
    loop = services.server_loop()
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
    table = Table.objects.filter(pk=table_id, mode=Table.Mode.DIGITAL).first()
    return table is not None and move(table)


def move(table: Table) -> bool:
    """The move of the bot to act at `table` as loaded; False if there is none or the
    table has changed since (a second scheduling of the same move)."""
    from games import services

    if table.status != Table.Status.PLAYING or not table.state:
        return False
    state = table.state
    if state.get("phase") in WAITING_PHASES:
        return False
    seat = state["turn"]
    bot = table.seats.filter(index=seat, kind=Seat.Kind.BOT).first()
    if bot is None:
        return False  # a person's turn: bots never play for them
    players = LEVELS[table.game]
    player = players.get(bot.bot_level) or players[default_level(table.game)]
    engine = get_game(table.game).engine(table.mode)
    # Ties are broken reproducibly, from nothing a phone could not know.
    rng = random.Random(f"{table.code}:{table.version}")
    action = player(engine.view(state, seat), engine.legal_actions(state), rng)
    try:
        applied = services.apply_action(table, seat, action, table.version, f"bot-{table.version}")
    except services.Refused as refusal:
        if refusal.code != "stale":  # someone else changed the table first
            log.error("bot at %s seat %s was refused: %s", table.code, seat, refusal.code)
        return False
    return not applied.duplicate


def _bot_to_act(table_id: int) -> bool:
    table = Table.objects.filter(pk=table_id).values("status", "state").first()
    if table is None or table["status"] != Table.Status.PLAYING or not table["state"]:
        return False
    state = table["state"]
    return state.get("phase") not in WAITING_PHASES and (
        Seat.objects.filter(table_id=table_id, index=state["turn"], kind=Seat.Kind.BOT).exists()
    )


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
