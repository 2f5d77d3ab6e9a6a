"""Several phones at one table over WebSockets: live sync, one data path,
and refusals that always come with a translated reason and a fresh render."""

import asyncio
import re

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Action, Table
from tests.realtime.conftest import flash_of, seated_table, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def reload(table):
    """A fresh copy from the database (the test keeps the old one to compare)."""
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def action_count(table):
    return Action.objects.filter(table=table).count()


async def test_an_action_from_one_seat_reaches_every_phone(phone):
    table, tokens, _host = await seated_table(players=3)
    ana, boris, chloe, watcher = (
        phone(table.code, [tokens[0]]),
        phone(table.code, [tokens[1]]),
        phone(table.code, [tokens[2]]),
        phone(table.code),
    )
    for p in (ana, boris, chloe, watcher):
        assert await p.connect()
    turn = table.state["turn"]
    actor = (ana, boris, chloe)[turn]
    await actor.act(turn, table.version, kind="cross", value="4", sets="2")
    for p in (ana, boris, chloe, watcher):
        html = await p.next()
        assert version_of(html) == table.version + 1
        assert "4 ×2" in html
    table = await reload(table)
    assert table.state["sheets"][turn][3] == 2
    for p in (ana, boris, chloe, watcher):
        await p.close()


async def test_two_phones_on_the_same_version_only_one_applies(phone):
    table, tokens, _host = await seated_table(game="triumfdrez", players=4)
    a, b = phone(table.code, [tokens[0]], lang="fr"), phone(table.code, [tokens[1]], lang="fr")
    assert await a.connect() and await b.connect()
    bid = {"kind": "bid", "tricks": "7", "trump": "knight", "supertrump": "5"}
    await asyncio.gather(a.act(0, table.version, **bid), b.act(1, table.version, **bid))
    # Both phones get the applied bid; the refused one also gets its refusal.
    renders = [await a.next(), await b.next()]
    for p in (a, b):
        if not await p.receive_nothing(timeout=1):
            renders.append(await p.next())
    assert len(renders) == 3
    assert await action_count(table) == 2  # the start and one bid
    table = await reload(table)
    assert len(table.state["auction"]) == 1
    messages = a.received[1:] + b.received[1:]
    stale = [html for html in messages if "Quelqu’un a joué avant vous" in flash_of(html)]
    assert len(stale) == 1
    assert version_of(stale[0]) == table.version  # the refusal comes with a fresh render
    await a.close()
    await b.close()


async def test_the_same_client_action_id_twice_is_applied_once(phone):
    table, tokens, _host = await seated_table(game="triggs", players=2)
    turn, before = table.state["turn"], table.version
    p = phone(table.code, [tokens[turn]])
    assert await p.connect()
    await p.act(turn, table.version, action_id="same-action-0001", kind="pass")
    await p.next()
    await p.act(turn, table.version, action_id="same-action-0001", kind="pass")
    html = await p.next()
    assert flash_of(html).strip() == ""
    assert await action_count(table) == 2
    assert (await reload(table)).version == before + 1
    await p.close()


@pytest.mark.parametrize(
    "case",
    [
        "no_token",
        "wrong_token",
        "other_seat",
        "malformed",
        "not_an_object",
        "unknown_kind",
        "oversized",
        "binary",
        "bad_version",
        "bad_action_id",
    ],
)
async def test_bad_messages_are_refused_with_a_reason_and_change_nothing(phone, case):
    table, tokens, _host = await seated_table(game="triggs", players=2)
    turn = table.state["turn"]
    good = {
        "seat": str(turn),
        "version": str(table.version),
        "action_id": "abcdefgh1234",
        "kind": "pass",
    }
    cookie_tokens = {"no_token": [], "wrong_token": ["not-a-real-token"]}.get(
        case, [tokens[1 - turn] if case == "other_seat" else tokens[turn]]
    )
    p = phone(table.code, cookie_tokens, lang="ru")
    assert await p.connect()
    if case in ("no_token", "wrong_token", "other_seat"):
        await p.send(**good)
    elif case == "malformed":
        await p.comm.send_to(text_data="{not json")
    elif case == "not_an_object":
        await p.comm.send_to(text_data="[1, 2, 3]")
    elif case == "unknown_kind":
        await p.send(**{**good, "kind": "teleport"})
    elif case == "oversized":
        await p.send(**{**good, "padding": "x" * 9000})
    elif case == "binary":
        await p.comm.send_to(bytes_data=b"\x00\x01")
    elif case == "bad_version":
        await p.send(**{**good, "version": "latest"})
    elif case == "bad_action_id":
        await p.send(**{**good, "action_id": "<script>"})
    html = await p.next()
    flash = flash_of(html)
    assert 'class="error"' in flash
    assert any("\u0400" <= ch <= "\u04ff" for ch in flash), flash  # in Russian
    assert version_of(html) == table.version
    after = await reload(table)
    assert (after.version, after.state) == (table.version, table.state)
    assert await action_count(table) == 1
    await p.close()


async def test_a_foreign_origin_cannot_connect(phone):
    table, tokens, _host = await seated_table()
    p = phone(table.code, [tokens[0]], origin=b"http://evil.example")
    assert not await p.connect()


async def test_an_unknown_table_cannot_connect(phone):
    p = phone("ZZZZZZ", [])
    assert not await p.connect()


async def test_a_spectator_sees_the_table_but_cannot_act(phone):
    table, _tokens, _host = await seated_table()
    watcher = phone(table.code)
    assert await watcher.connect()
    assert 'id="score-sheet"' not in watcher.received[0]  # no sheet of its own to tap
    await watcher.act(0, table.version, kind="cross", value="1", sets="1")
    html = await watcher.next()
    assert 'class="error"' in flash_of(html)
    assert (await reload(table)).version == table.version


async def test_a_freed_seat_can_no_longer_act(phone):
    table, tokens, host = await seated_table()
    turn = table.state["turn"]
    p = phone(table.code, [tokens[turn]])
    assert await p.connect()
    from games import services

    await database_sync_to_async(services.free_seat)(table, host, turn)
    await p.next()  # the seat change reaches the phone
    await p.act(turn, table.version, kind="pass")
    html = await p.next()
    assert 'class="error"' in flash_of(html)
    assert (await reload(table)).version == table.version


async def test_a_flood_of_messages_closes_the_socket(phone):
    table, tokens, _host = await seated_table()
    p = phone(table.code, [tokens[0]])
    assert await p.connect()
    for _ in range(80):
        await p.comm.send_to(text_data="{}")
    closed = None
    for _ in range(80):
        output = await p.comm.receive_output(5)
        if output["type"] == "websocket.close":
            closed = output
            break
    assert closed and closed["code"] == 4008  # "policy violation", in the application range
    assert await action_count(table) == 1


async def test_a_reconnecting_phone_gets_the_current_table(phone):
    table, tokens, _host = await seated_table()
    turn = table.state["turn"]
    p = phone(table.code, [tokens[turn]])
    assert await p.connect()
    await p.act(turn, table.version, kind="cross", value="2", sets="1")
    await p.next()
    await p.close()
    again = phone(table.code, [tokens[turn]])
    assert await again.connect()
    assert version_of(again.received[0]) == table.version + 1
    await again.send(kind="resync", version=table.version + 1)  # shown already: nothing
    assert await again.receive_nothing(timeout=0.5)
    await again.send(kind="resync", version=table.version)  # behind: the table as it is
    assert version_of(await again.next()) == table.version + 1


async def test_a_closed_table_refuses_actions(phone):
    table, tokens, host = await seated_table()
    from games import services

    await database_sync_to_async(services.close_table)(table, host)
    p = phone(table.code, [tokens[0]])
    assert await p.connect()
    await p.act(0, (await reload(table)).version, kind="pass")
    html = await p.next()
    assert 'class="error"' in flash_of(html)
    assert (await reload(table)).status == Table.Status.CLOSED


async def test_the_phones_of_one_process_share_one_read_of_the_table_per_change(phone, monkeypatch):
    from games import live

    reads = []
    real = live.snapshot

    def counted(table, seats=None, chart=True):
        reads.append(seats is None)  # a read of its own, or the seats its caller just read
        return real(table, seats, chart)

    table, tokens, _host = await seated_table(players=4)
    langs = ["es", "el", "ru", "fr"]
    phones = [phone(table.code, [t], lang=lang) for t, lang in zip(tokens, langs, strict=True)]
    phones.append(phone(table.code))
    for p in phones:
        assert await p.connect()
    monkeypatch.setattr(live, "snapshot", counted)
    turn = table.state["turn"]
    await phones[turn].act(turn, table.version, kind="cross", value="9", sets="1")
    for p in phones:
        assert version_of(await p.next()) == table.version + 1
    # the move kept the snapshot it made in its own transaction: five phones, no read
    assert reads == [False]
    # each still sees its own seat: its sheet has the buttons, the watcher's page none
    assert [p.pages[-1].count('name="seat" value="') > 0 for p in phones] == [True] * 4 + [False]
    addresses = []
    for i, p in enumerate(phones[:4]):
        assert f'name="seat" value="{i}"' in p.pages[-1]
        # the moves' forms post to the table in the phone's own language
        found = set(re.findall(rf'action="/(\w+)/t/{table.code}/act/"', p.pages[-1]))
        assert found <= {langs[i]}
        addresses += found
    assert len(addresses) >= 2  # the seat to play now, and the one that may undo
    # a change told with no snapshot (as from another process): one read for five phones
    reads.clear()
    await database_sync_to_async(live.broadcast)(table.code, table.version + 1)
    for p in phones:
        assert version_of(await p.next()) == table.version + 1
    assert reads == [True]
    for p in phones:
        await p.close()


async def test_a_phone_never_goes_back_to_an_older_change_told_late(phone):
    """Changes may be told out of order (two processes, Redis): a phone keeps the newest."""
    from games import live

    table, tokens, _host = await seated_table(players=2)
    p = phone(table.code, [tokens[0]])
    assert await p.connect()
    old = await database_sync_to_async(live.snapshot)(table.pk)
    turn = table.state["turn"]
    mover = phone(table.code, [tokens[turn]])
    assert await mover.connect()
    await mover.act(turn, table.version, kind="pass")
    assert version_of(await p.next()) == table.version + 1
    live.cache_snapshot(table.pk, "late", old)
    from channels.layers import get_channel_layer

    await get_channel_layer().group_send(
        live.group_name(table.code), {"type": "table.changed", "change": "late"}
    )
    await database_sync_to_async(live.broadcast)(table.code)  # then a fresh one
    assert version_of(await p.next()) == table.version + 1  # not the old version
    for each in (p, mover):
        await each.close()


async def test_a_change_sends_each_phone_only_the_regions_it_changed(phone):
    """Issue 16: a seat taken in the lobby touches the regions of a guest's screen that
    show it (the seats, and who is at the table), and one move the few it changed (a sheet or the others', the status, the
    log); a message is small and keeps what the phone holds elsewhere (a form in
    progress)."""
    table, tokens, host = await seated_table(players=3, start=False)
    guest = phone(table.code, [tokens[1]])
    assert await guest.connect()
    await database_sync_to_async(services.free_seat)(table, host, 2)
    html = await guest.next()
    assert guest.page.updates[-1] == ["r-presence", "r-lobby"]  # nothing else
    assert len(guest.received[-1]) < 2500
    assert "Chloé" not in html
    tokens[2] = await database_sync_to_async(services.claim_seat)(table, 2, "Chloé")
    await guest.next()
    assert guest.page.updates[-1] == ["r-presence", "r-lobby"]
    await database_sync_to_async(services.start_table)(table, host, "start-" + "s" * 16)
    await guest.next()
    assert guest.page.updates[-1] == ["table-live"]  # another layout: the whole table
    table = await reload(table)
    turn = table.state["turn"]
    mover = phone(table.code, [tokens[turn]])
    assert await mover.connect()
    watcher = guest if turn != 1 else phone(table.code, [tokens[0]])
    if watcher is not guest:
        assert await watcher.connect()
    await mover.act(turn, table.version, kind="cross", value="4", sets="2")
    await mover.next()
    await watcher.next()
    # the mover: the row crossed and its sheet's total, not the other rows
    assert {"row-4", "sheet-title"} <= set(mover.page.updates[-1])
    assert not {f"row-{n}" for n in range(1, 13) if n != 4} & set(mover.page.updates[-1])
    assert f"other-{turn}" in watcher.page.updates[-1]  # the others: the mover's small sheet
    for p in (mover, watcher):
        assert {"r-seats", "r-tools", "r-sheet", "r-others"}.isdisjoint(p.page.updates[-1])
        assert len(p.received[-1]) < 4096


async def test_a_phone_that_missed_a_version_gets_the_whole_table_on_resync(phone):
    table, tokens, _host = await seated_table(players=2)
    ana = phone(table.code, [tokens[0]])
    assert await ana.connect()
    await ana.send(kind="resync", version=table.version - 1)
    await ana.next()
    assert ana.page.updates[-1] == ["table-live"]
    assert version_of(ana.received[-1]) == table.version
    await ana.send(kind="resync", version=table.version)  # shown already: nothing
    assert await ana.receive_nothing(timeout=0.3)


def test_a_process_keeps_a_few_changes_per_table(monkeypatch):
    """A snapshot holds a table's whole state: a process keeps its tables' last changes
    (games.live.CHANGES_PER_TABLE each), not the last 1,024 changes of any table."""
    from collections import OrderedDict

    from games import live

    monkeypatch.setattr(live, "_recent", OrderedDict())
    monkeypatch.setattr(live, "RECENT_TABLES", 3)
    for change in ("a", "b", "c"):
        live.cache_snapshot(1, change, change.upper())
    live.cache_snapshot(2, "x", "X")
    assert [live.cached_snapshot(1, change) for change in "abc"] == [None, "B", "C"]
    for table in (3, 4):  # table 1 is the one used least lately
        live.cache_snapshot(table, "y", "Y")
    assert (
        live.cached_snapshot(1, "c") is None
        and live.cached_snapshot(2, "x") == "X"
        and live.cached_snapshot(4, "y") == "Y"
    )
