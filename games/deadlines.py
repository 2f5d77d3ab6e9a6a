"""A table's deadlines as jobs of the task queue (companion.queue, games.tasks): a
computer player's move, a gone seat's takeover, a turn clock running out, an open table
filling. What falls due, and when, is games.online's; the writes are games.services' and
games.autoplay's.

After each committed change (`on_change`) the table's deadlines are scheduled; a phone's
socket schedules a gone seat's takeover (`gone`), as only the phones know who is gone.
Each job is keyed by table, version, kind and seat: deferred by every process, it waits
once; run, it checks the table in its own transaction, so a table that moved on makes it
a no-op and running it twice does nothing more.
"""

import time

from channels.db import database_sync_to_async
from django.conf import settings

from companion import queue
from games import autoplay, online, presence, services
from games.models import Seat, Table

BOT = "bot"
GRACE = 0.5  # seconds a job may run early by the clocks of the processes
LATE = 0.05  # seconds after its time a deadline is deferred to, so it is never early


def on_change(sender, change, **kwargs) -> None:
    """games.services.changed: schedule what the table now waits for (from the table and
    seats the change read, when it has them)."""
    if change.status not in (Table.Status.LOBBY, Table.Status.PLAYING):
        return
    if change.snap is not None:
        schedule(change.table_id, change.snap.table, change.snap.seats)
    else:
        schedule(change.table_id)


def schedule(table_id: int, table: Table | None = None, seats=None) -> None:
    if table is None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return
        seats = list(Seat.objects.filter(table=table))
    if autoplay.waits_for_bot(table, seats):
        if settings.BOT_DELAY <= 0:
            autoplay.play_now(table_id)  # at once, in the writer's thread (tests)
            return
        _defer(
            table_id, online.Deadline(time.time() + settings.BOT_DELAY, BOT, None, table.version)
        )
    for due in online.deadlines(table, seats, None, None):
        _defer(table_id, due)


def _defer(table_id: int, due: online.Deadline) -> None:
    from games import tasks

    queue.defer(tasks.deadline, due.at + LATE, _lock(table_id, due), **_args(table_id, due))


async def gone(table_id: int, due: online.Deadline) -> None:
    """A phone's socket saw the seat to act gone: its takeover, at its time."""
    from games import tasks

    await queue.adefer(tasks.deadline, due.at + LATE, _lock(table_id, due), **_args(table_id, due))


def _lock(table_id: int, due: online.Deadline) -> str:
    # its time is in its key: a clock or a takeover moved (a phone back, then gone again)
    # is another deadline; the earlier one finds nothing to do
    when = "" if due.kind == BOT else f":{int(due.at)}"
    return f"{due.kind}:{table_id}:{due.version}:{due.seat}{when}"


def _args(table_id: int, due: online.Deadline) -> dict:
    return {"kind": due.kind, "table_id": table_id, "version": due.version, "seat": due.seat}


async def fall_due(kind: str, table_id: int, version: int, seat: int | None) -> bool:
    """Do what fell due, if the table still waits for it; True if something was done."""
    if kind == online.GONE:
        table = await database_sync_to_async(_takeover)(table_id)
        if table is None or seat in await presence.NOTES.read(table["code"]):
            return False  # its phone came back
        seen = (await presence.NOTES.seen(table["code"])).get(seat)
        if seen is not None and time.time() < seen + table["takeover"] - GRACE:
            return False  # seen since this was scheduled: a later takeover is due
        return await database_sync_to_async(services.take_over)(table_id, seat, version)
    if kind == online.CLOCK:
        return await database_sync_to_async(autoplay.clock_ran_out)(table_id, version)
    if kind == online.FILL:
        return await database_sync_to_async(services.fill_open_table)(table_id)
    return await database_sync_to_async(autoplay.play_at)(table_id, version)


def _takeover(table_id: int) -> dict | None:
    return Table.objects.filter(pk=table_id).values("code", "takeover").first()
