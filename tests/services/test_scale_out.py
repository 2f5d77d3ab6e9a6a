"""Two real server processes on one PostgreSQL database and one Redis: a table whose
phones are split between them plays as if there were one server (issue 9).

The table is created, joined and started over HTTP against process A with each
phone's cookies; phones 0 and 1 then hold WebSockets to A, phones 2 and 3 to B.
"""

import asyncio
import random
import uuid

import pytest

from tests.services.conftest import (
    CompanionGame,
    close_all,
    fields_of,
    monotonic,
    replay_log,
    seat_phones,
)

pytestmark = pytest.mark.services


def check_log(cluster, code: str, game: CompanionGame, acked: set) -> None:
    """The log holds each acknowledged action once, nothing else, in unbroken versions,
    and replaying it from the start seed gives the saved state."""
    row = cluster.table(code)
    log = cluster.actions(code)
    assert [a["version"] for a in log] == list(range(1, row["version"] + 1))
    ids = [a["client_action_id"] for a in log[1:]]
    assert len(ids) == len(set(ids))
    assert set(ids) == acked
    assert row["state"] == game.state
    assert replay_log(row["game"], row["mode"], row["config"], log) == row["state"]


async def test_every_move_reaches_all_four_phones_across_two_processes(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    game = CompanionGame.of(cluster, table.code)
    rng = random.Random(9)
    acked, version = set(), 1
    try:
        for _ in range(12):
            seat, action = game.choose(rng)
            action_id = uuid.uuid4().hex
            answer = await phones[seat].move(seat, version, action_id, fields_of(action))
            assert answer == "ack"
            acked.add(action_id)
            game.applied(seat, action)
            version += 1
            for phone in phones:
                await phone.wait_version(version)
        for phone in phones:
            seen = [render.version for render in phone.renders]
            assert set(range(1, version + 1)) <= set(seen), (phone.name, seen)
            assert monotonic(seen), (phone.name, seen)
            assert not any(render.flash for render in phone.renders)
        check_log(cluster, table.code, game, acked)
    finally:
        await close_all(phones)


async def test_the_same_action_through_both_processes_at_once_applies_once(cluster):
    """A phone that sends its move twice — a second tab, or a retry through the other
    process behind the load balancer — with the same client action id and version."""
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    # each seat's twin: the same seat cookie, on the other process
    twins = await seat_phones(table, [b, b, a, a])
    game = CompanionGame.of(cluster, table.code)
    rng = random.Random(10)
    acked, version = set(), 1
    try:
        for _ in range(8):
            seat, action = game.choose(rng)
            action_id = uuid.uuid4().hex
            fields = fields_of(action)
            answers = await asyncio.gather(
                phones[seat].move(seat, version, action_id, fields),
                twins[seat].move(seat, version, action_id, fields),
            )
            assert answers == ["ack", "ack"]
            acked.add(action_id)
            game.applied(seat, action)
            version += 1
            for phone in (*phones, *twins):
                await phone.wait_version(version)
        assert cluster.table(table.code)["version"] == version

        # the same through plain HTTP form posts, one to each process at once
        seat, action = game.choose(rng)
        action_id = uuid.uuid4().hex
        form = {"seat": str(seat), "version": str(version), "action_id": action_id}
        form.update(fields_of(action))
        browser = table.browsers[seat]
        statuses = await asyncio.gather(
            *(
                asyncio.to_thread(browser.post, f"/es/t/{table.code}/act/", form, base=s.base)
                for s in (a, b)
            )
        )
        assert [status for status, _url, _body in statuses] == [200, 200]
        acked.add(action_id)
        game.applied(seat, action)
        version += 1
        for phone in phones:
            await phone.wait_version(version)

        # two different actions on the same version, one through each process: one wins,
        # the other is refused as stale with a fresh render, and nothing is lost
        seat, action = game.choose(rng)
        first, second = uuid.uuid4().hex, uuid.uuid4().hex
        await asyncio.gather(
            phones[seat].act(seat, version, first, **fields_of(action)),
            twins[seat].act(seat, version, second, **fields_of(action)),
        )
        for phone in (phones[seat], twins[seat]):
            await phone.wait_version(version + 1)
        winners = {a["client_action_id"] for a in cluster.actions(table.code)} & {first, second}
        assert len(winners) == 1
        loser = twins[seat] if winners == {first} else phones[seat]
        await loser.wait_until(lambda: any(r.flash for r in loser.renders), what="a refusal")
        refusal = next(r for r in loser.renders if r.flash)
        assert refusal.version == version + 1  # the refusal shows the table as it is now
        acked |= winners
        game.applied(seat, action)
        check_log(cluster, table.code, game, acked)
    finally:
        await close_all([*phones, *twins])
