"""Hints over the WebSocket (games.hints, games.consumers): a seat asks on its turn, its
phones are shown "thinking", then the hint; the other seat's phone and a spectator's are
never sent it; asking again at the same version thinks once; out of turn or with hints
off is refused in the phone's language. Highcard (tests/highcard) plays the table."""

import pytest
from channels.db import database_sync_to_async

from games import consumers, services, thinking
from games.models import Seat
from tests.highcard.game import SLUG, installed
from tests.highcard.web import adapter
from tests.realtime.conftest import flash_of
from tests.tables import start_with_seed

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = ("hint-line", "hinted", "jugaría", "Компьютер", "pensando")


@pytest.fixture(autouse=True)
def highcard(settings, monkeypatch):
    settings.BOT_DELAY = 0
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)
    with installed() as game:
        yield game


@database_sync_to_async
def hint_table(hints=True, seed=5):
    table, host, ana = services.create_table(
        SLUG, "digital", adapter.config("digital", 2, {}), "Ana", services.Online(hints=hints)
    )
    boris = services.claim_seat(table, 1, "Boris")
    start_with_seed(table, host, seed)
    return table, [ana, boris]


@database_sync_to_async
def seat_row(table, index):
    return Seat.objects.get(table=table, index=index)


async def until_hint(p):
    html = p.page.html
    while "El ordenador jugaría esto:" not in html:
        html = await p.next()
    return html


async def until_flash(p):
    html = await p.next()
    while not flash_of(html):
        html = await p.next()
    return flash_of(html)


async def test_a_hint_reaches_its_seats_phones_and_no_other(phone, in_process):
    table, tokens = await hint_table()
    ana = phone(table.code, [tokens[0]], seat=0)
    ana_tablet = phone(table.code, [tokens[0]], seat=0)
    boris = phone(table.code, [tokens[1]], lang="ru", seat=1)
    watcher = phone(table.code)
    for p in (ana, ana_tablet, boris, watcher):
        assert await p.connect()
    assert 'id="hint-form"' in ana.page.html and 'id="hint-form"' not in boris.page.html

    await ana.send(kind="hint", seat="0", version=str(table.version))
    html = await until_hint(ana)
    row = await seat_row(table, 0)
    assert f"Play {row.hint['card']}" in html and 'id="hint-form"' not in html
    assert "hinted" in html and row.hints == 1
    assert "El ordenador jugaría esto:" in await until_hint(ana_tablet)  # Ana's other phone

    # the others: sent nothing of it (nothing changed on their screens)
    await boris.receive_nothing(0.5)
    await watcher.receive_nothing(0.1)
    for p in (boris, watcher):
        for text in (*p.received, *p.presence, p.page.html):
            assert not any(word in text for word in SECRET), text

    # asked again at the same version (a second tap, the other phone): thought over once
    await ana_tablet.send(kind="hint", seat="0", version=str(table.version))
    await ana_tablet.next()
    assert len(in_process) == 1 and (await seat_row(table, 0)).hints == 1

    # out of turn: refused in Boris's language, nothing stored
    await boris.send(kind="hint", seat="1", version=str(table.version))
    assert "Сейчас не ваш ход." in await until_flash(boris)
    assert (await seat_row(table, 1)).hint_version is None
    # a spectator holds no seat
    await watcher.send(kind="hint", seat="0", version=str(table.version))
    assert await until_flash(watcher)
    # malformed
    await ana.send(kind="hint", seat="zero", version=str(table.version))
    assert await until_flash(ana)
    assert len(in_process) == 1
    for p in (ana, ana_tablet, boris, watcher):
        await p.close()


async def test_with_hints_off_the_socket_refuses(phone, in_process):
    table, tokens = await hint_table(hints=False)
    ana = phone(table.code, [tokens[0]], seat=0)
    assert await ana.connect()
    assert 'id="hint-form"' not in ana.page.html
    await ana.send(kind="hint", seat="0", version=str(table.version))
    html = await ana.next()
    assert "El anfitrión no permite pistas en esta mesa." in flash_of(html)
    assert (await seat_row(table, 0)).hint_version is None and not in_process
    await ana.close()


async def test_a_hint_that_could_not_be_worked_out_gives_the_button_back(phone, monkeypatch):
    async def broken(fn, *args, **kwargs):
        raise TimeoutError

    monkeypatch.setattr(thinking, "arun", broken)
    table, tokens = await hint_table()
    ana = phone(table.code, [tokens[0]], seat=0)
    assert await ana.connect()
    await ana.send(kind="hint", seat="0", version=str(table.version))
    html = await ana.next()
    while 'id="hint-form"' not in html or "pensando" in html:
        html = await ana.next()
    row = await seat_row(table, 0)
    assert row.hint is None and row.hints == 0
    await ana.close()
