"""A table's deadlines are jobs of the task queue (games.deadlines, companion.queue): here
the in-process queue of a site on SQLite (`make run`), its worker on a thread of its own.
Across processes, with workers killed: tests/services/test_online.py."""

import asyncio
import dataclasses
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from companion import queue
from games import deadlines, online
from games.models import Action, Table
from tests.tables import wait_for
from tests.web.test_online_play import create, started, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def test_on_sqlite_the_queue_is_in_process():
    assert queue.in_process()


def test_an_open_table_fills_at_its_time_with_no_phone_and_no_request(settings):
    settings.BOT_DELAY = 60  # the computer players' first move waits: only the fill runs
    table = create(Client(), open="on", fill_after="60", players="4")
    # as if it had waited 59.5 of its 60 seconds; scheduled again as after a deploy
    Table.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(seconds=59.5))
    deadlines.schedule(table.pk)
    wait_for(lambda: Table.objects.get(pk=table.pk).status == Table.Status.PLAYING, what="the fill")
    assert [s.kind for s in table.seats.all()] == ["human", "bot", "bot", "bot"]


def test_a_clock_that_runs_out_is_one_move_however_often_it_was_scheduled(settings):
    settings.BOT_DELAY = 0
    table, _host, _guest = started(clock="2+10")
    seat = to_act(table)
    clock = {**table.clock, "since": time.time() - 119.5}  # half a second left
    Table.objects.filter(pk=table.pk).update(clock=clock)
    for _ in range(3):  # every process that saw the change schedules it: one job waits
        deadlines.schedule(table.pk)
    moved = Action.objects.filter(table=table, client_action_id=f"clock:{table.version}")
    wait_for(moved.exists, what="the clock's move")
    time.sleep(0.5)
    assert moved.count() == 1 and moved.get().seat == seat


def test_a_deadline_of_a_table_that_moved_on_does_nothing(settings):
    settings.BOT_DELAY = 0
    table, _host, _guest = started(clock="2+10")
    seat = to_act(table)
    clock = {**table.clock, "since": time.time() - 200}  # long run out
    Table.objects.filter(pk=table.pk).update(clock=clock, version=table.version + 1)
    stale = [("clock", seat), ("gone", seat), ("bot", None), ("fill", None)]
    for kind, at_seat in stale:
        assert not asyncio.run(deadlines.fall_due(kind, table.pk, table.version, at_seat))
    assert not Action.objects.filter(table=table, version__gt=table.version).exists()


def test_a_deadline_is_keyed_by_its_table_version_and_time():
    due = online.Deadline(1000.4, online.CLOCK, 1, 7)
    later = online.Deadline(1300.0, online.CLOCK, 1, 7)
    assert deadlines._lock(5, due) != deadlines._lock(5, later)  # the clock moved
    assert deadlines._lock(5, due) != deadlines._lock(6, due)
    bot = online.Deadline(1000.4, deadlines.BOT, None, 7)
    # a computer player's move is one per version, whenever it was asked for
    assert deadlines._lock(5, bot) == deadlines._lock(5, dataclasses.replace(bot, at=1001))
