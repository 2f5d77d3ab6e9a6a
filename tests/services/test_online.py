"""Online play across two server processes (issue 19): a phone gone on its turn has its
seat taken over by a computer player after the table's timeout — once, whichever process
its other phones are on — and handed back the moment it returns; a turn clock that runs
out becomes one computer move. The moves stay exactly once throughout: the log replays to
the table's state."""

import asyncio
import json
import os
import time

import pytest

from tests.services.conftest import close_all, replay_log, seat_phones

pytestmark = pytest.mark.services


def to_act(cluster, code) -> int:
    from games.registry import get_game

    table = cluster.table(code)
    (seat,) = get_game(table["game"]).engine(table["mode"]).to_act(table["state"])
    return seat


def check_log(cluster, code) -> list[dict]:
    """Every version once, and the log replays to the saved state."""
    table, actions = cluster.table(code), cluster.actions(code)
    assert [a["version"] for a in actions] == list(range(1, table["version"] + 1))
    ids = [a["client_action_id"] for a in actions]
    assert len(ids) == len(set(ids))
    assert replay_log(table["game"], table["mode"], table["config"], actions) == table["state"]
    return actions


async def test_a_gone_seat_is_taken_over_once_and_handed_back_on_return(cluster):
    a, b = cluster.servers
    table = cluster.new_table(mode="digital", takeover="30", server=a)
    cluster.query("UPDATE games_table SET takeover = 2 WHERE code = %s RETURNING id", table.code)
    phones = await seat_phones(table, [a, a, b, b])
    seat = to_act(cluster, table.code)
    gone = phones[seat]
    others = [p for p in phones if p is not gone]
    line = f"Jugada por el ordenador en lugar de {gone.name}"
    try:
        gone.auto_reconnect = False
        started = time.monotonic()
        await gone.close()
        for phone in others:  # on both processes
            await phone.wait_until(lambda p=phone: line in p.page.html, 12, "the takeover")
        assert time.monotonic() - started >= 1.5  # not before its time
        await others[0].wait_until(
            lambda: any(
                x["client_action_id"].startswith("bot:") for x in cluster.actions(table.code)
            ),
            5,
            "the computer's move",
        )
        actions = check_log(cluster, table.code)
        moved = [x for x in actions if x["seat"] == seat and x["version"] > 1]
        assert moved and all(x["client_action_id"].startswith("bot:") for x in moved)
        (stand_in,) = cluster.query(
            "SELECT s.stand_in FROM games_seat s JOIN games_table t ON t.id = s.table_id"
            " WHERE t.code = %s AND s.index = %s",
            table.code,
            seat,
        )[0:1]
        assert stand_in == ("gone",)
        # back, through the other process than before: the seat is its own again at once
        gone.auto_reconnect = True
        await gone.connect(b if seat < 2 else a)
        for phone in [gone, *others]:
            await phone.wait_until(lambda p=phone: line not in p.page.html, 5, "the hand-back")
        check_log(cluster, table.code)
    finally:
        await close_all(phones)


def clock_short(cluster, code, left: float) -> int:
    """The clock of the seat to act with `left` seconds in its bank, as if the rest had
    gone by, and the table's deadlines scheduled again (as after a deploy): its version."""
    (version,) = cluster.query("SELECT version FROM games_table WHERE code = %s", code)[0]
    (clock,) = cluster.query("SELECT clock FROM games_table WHERE code = %s", code)[0]
    clock["since"] = time.time() - (clock["bank"] - left)
    cluster.query(
        "UPDATE games_table SET clock = %s WHERE code = %s RETURNING id", json.dumps(clock), code
    )
    cluster.manage("schedule_deadlines", "--table", code)
    return version


def clock_moves(cluster, code, checked: bool = False) -> list[tuple[int, int]]:
    """The computer's moves for a clock that ran out; `checked`, once nothing moves any
    more, with the whole log checked (its table and rows are two reads)."""
    actions = check_log(cluster, code) if checked else cluster.actions(code)
    return [
        (x["seat"], x["version"]) for x in actions if x["client_action_id"].startswith("clock:")
    ]


async def test_a_turn_clock_that_runs_out_is_one_computer_move(cluster):
    """With no phone at the table: the queue's job does it, the phones only see it."""
    a, b = cluster.servers
    table = cluster.new_table(mode="digital", players=2, clock="2+10", server=a)
    seat = to_act(cluster, table.code)
    version = clock_short(cluster, table.code, 2)
    deadline = time.monotonic() + 15
    while not clock_moves(cluster, table.code):
        assert time.monotonic() < deadline, "the clock's move did not come"
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.5)  # both workers had their chance by now
    assert clock_moves(cluster, table.code, checked=True) == [(seat, version + 1)]
    # the worker that ran the job serves behind the server processes (WORKER_NICE)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    niced = [os.getpriority(os.PRIO_PROCESS, w.pid) - mine for w in cluster.workers]
    assert 5 in niced and set(niced) <= {0, 5}
    assert [os.getpriority(os.PRIO_PROCESS, s.pid) - mine for s in cluster.servers] == [0, 0]
    (clock,) = cluster.query("SELECT clock FROM games_table WHERE code = %s", table.code)[0]
    # the increment alone is left; the clock runs for whoever is to act now (a Triggs
    # turn may be a draw and then a cross: the same seat again)
    assert clock["banks"][str(seat)] == 10.0
    assert clock["seat"] == to_act(cluster, table.code)
    phones = await seat_phones(table, [a, b])
    try:
        for phone in phones:
            await phone.wait_version(version + 1, timeout=10)
    finally:
        await close_all(phones)


async def test_a_worker_killed_in_the_middle_of_a_deadline_loses_nothing(cluster):
    """The clock's job is taken by one worker, which is killed while it waits for the
    table's row (held here); the job is found stalled and run again by the other worker:
    one computer move, no phone connected."""
    import psycopg

    a, _b = cluster.servers
    first, second = cluster.workers
    second.stop()  # the job goes to the first
    try:
        table = cluster.new_table(mode="digital", players=2, clock="2+10", server=a)
        seat = to_act(cluster, table.code)
        version = clock_short(cluster, table.code, 3)
        with psycopg.connect(cluster.db_url) as db:
            db.execute("SELECT id FROM games_table WHERE code = %s FOR UPDATE", (table.code,))
            deadline = time.monotonic() + 15
            while not cluster.query(
                "SELECT id FROM procrastinate_jobs WHERE status = 'doing'"
                " AND task_name = 'games.deadline' AND args->>'kind' = 'clock'"
            ):
                assert time.monotonic() < deadline, "no worker took the clock's job"
                await asyncio.sleep(0.05)
            first.kill()  # mid-job: its transaction waits for the row held here
        second.start()
        deadline = time.monotonic() + 40
        while not clock_moves(cluster, table.code):
            assert time.monotonic() < deadline, "the killed worker's job was not run again"
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.5)
        assert clock_moves(cluster, table.code, checked=True) == [(seat, version + 1)]
    finally:
        cluster.ensure_running()
