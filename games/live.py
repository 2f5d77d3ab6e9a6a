"""How a change reaches the phones: the table as a render needs it (a snapshot, cached per
change so that the phones of one process share one read) and the "changed" message to
the table's channel group (never what changed).

games.services sends `changed` after each commit; this module's `broadcast` and
games.deadlines listen (games.apps), so services imports neither.
"""

import asyncio
import contextvars
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from games import charts, reads
from games.models import Seat, Table
from games.registry import get_game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """A table as a render needs it, read in one go: the row, its seats and the rows of
    its log, and once the game is over its progress (games.charts). Rendering from it
    reads nothing more, so the phones on one process can share one snapshot per change
    (games.consumers), and render outside the database thread."""

    table: Table
    seats: list[Seat]
    log_rows: list[dict]
    progress: list | None = None
    # What the phones rendering this snapshot share, worked out by the first of them: the
    # regions' table-wide context and its digests, by language (games.render)
    shared: dict = field(default_factory=dict, compare=False, repr=False)


def snapshot(
    table: Table | int, seats: list[Seat] | None = None, chart: bool = True
) -> Snapshot | None:
    """The table (or the table with this id, None if it is gone) with its seats and log;
    `seats` when the caller has just read them; without its chart (`chart` False) when
    read under the table's lock, to be charted after the commit (`charted`)."""
    if not isinstance(table, Table):
        table = reads.table(table)
        if table is None:
            return None
    if seats is None:
        seats = reads.seats(table.pk)
    game = get_game(table.game)
    length = game.web.log_rows(table.mode)
    progress = charts.progress_at(table) if chart and _over(table) else None
    return Snapshot(table, seats, reads.log(table.pk, length), progress)


def charted(snap: Snapshot) -> Snapshot:
    """The snapshot with its game's chart, if the game is over (after the commit)."""
    if snap.progress is None and _over(snap.table):
        return replace(snap, progress=charts.progress_at(snap.table))
    return snap


def _over(table: Table) -> bool:
    return table.state is not None and get_game(table.game).engine(table.mode).is_over(table.state)


# The snapshots of this process's latest changes, by table id and change id: the process
# that applied a change caches what it read in the change's transaction, and every phone
# on it renders from that; a change made elsewhere is read once by the first phone to
# hear of it (games.consumers caches that read here too). Few per table, oldest out
# first: a snapshot holds the whole state, and the garbage collector walks every one.
CHANGES_PER_TABLE = 2
RECENT_TABLES = 1024
_recent: OrderedDict = OrderedDict()  # table id → OrderedDict(change id → value)
_recent_lock = threading.Lock()  # written from the database thread, read in the event loop


def cache_snapshot(table_id: int, change: str, value) -> None:
    with _recent_lock:
        changes = _recent.pop(table_id, None) or OrderedDict()
        _recent[table_id] = changes
        changes[change] = value
        while len(changes) > CHANGES_PER_TABLE:
            changes.popitem(last=False)
        while len(_recent) > RECENT_TABLES:
            _recent.popitem(last=False)


def cached_snapshot(table_id: int, change: str):
    """A change's Snapshot (or the read that will make it), None if not cached here."""
    with _recent_lock:
        return _recent.get(table_id, {}).get(change)


def group_name(code: str) -> str:
    return f"table-{code}"


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's event loop, when this thread runs sync code on its behalf."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def broadcast(code: str, version: int | None = None, snap: Snapshot | None = None) -> None:
    """Ask every phone at the table to render its own view afresh. The change id lets
    the phones on one process share one read of the table (games.consumers); `snap`,
    the table as the change left it, spares this process's phones that read.

    Run for an ASGI server (a consumer or a view), the message is handed to the server's
    event loop and this thread goes on at once: it is the one database thread, and
    waiting there for Redis held up every other move. The loop sends a process's
    messages one after another, in the order of their commits."""
    change = secrets.token_hex(8)
    if snap is not None:
        cache_snapshot(snap.table.pk, change, snap)
    send(group_name(code), {"type": "table.changed", "version": version, "change": change})


def send(group: str, message: dict) -> None:
    """Send `message` to a channel group, from the server's event loop when there is one
    (see `broadcast`)."""
    loop = server_loop()
    if loop is None:
        async_to_sync(get_channel_layer().group_send)(group, message)
    else:
        # a fresh context: this thread's would say to asgiref that it runs inside the
        # sync thread it would need
        loop.call_soon_threadsafe(_send_in_order, group, message, context=contextvars.Context())


OPEN_TABLES = "open-tables"  # the phones looking at the list of open tables


def on_change(sender, change, **kwargs) -> None:
    """games.services.changed: send the table's phones the change, and the list of open tables if
    the table is listed there."""
    broadcast(change.code, change.version, change.snap)
    if change.open:
        send(OPEN_TABLES, {"type": "open.changed"})


_last_send: asyncio.Task | None = None


def _send_in_order(group: str, message: dict) -> None:
    """On the server's event loop: send after the process's previous message."""
    global _last_send
    previous = _last_send

    loop = asyncio.get_running_loop()

    async def send():
        if previous is not None and not previous.done() and previous.get_loop() is loop:
            await asyncio.wait([previous])
        try:
            await get_channel_layer().group_send(group, message)
        except Exception:  # Redis away: the phones catch up on their next resync
            log.exception("could not send %s a change", group)

    _last_send = loop.create_task(send())
