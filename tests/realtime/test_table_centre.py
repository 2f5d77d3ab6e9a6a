"""The table-centre screen's socket (issue 36): /ws/table/<code>/?view=centre is a
spectator's, whatever the cookie holds; it is sent the centre screen's regions after every
move, never a hidden card, and it makes no move."""

import re

import pytest
from channels.db import database_sync_to_async

from games import consumers, services
from games.models import Table
from tests.realtime.conftest import flash_of, seated_table, version_of
from tests.tables import config, start_with_seed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)


@database_sync_to_async
def reload(table):
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def digital_triggs():
    table, host, token0 = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana"
    )
    token1 = services.claim_seat(table, 1, "Boris")
    return start_with_seed(table, host, 7), [token0, token1]


async def test_the_centre_socket_is_sent_the_centre_regions_after_a_move(phone):
    table, tokens, _host = await seated_table(game="triumfdrez", players=4)
    turn = table.state["turn"]
    bidder = phone(table.code, [tokens[turn]], lang="fr")
    # a screen at the centre of the table, on a phone that holds a seat: a spectator still
    centre = phone(table.code, [tokens[turn]], lang="fr", view="centre")
    assert await bidder.connect() and await centre.connect()
    first = centre.page.html
    assert 'id="r-centre_head"' in first and 'id="r-status"' in first
    assert 'id="r-scores"' in first and "<form" not in first
    await bidder.act(turn, table.version, kind="bid", tricks="7", trump="knight", supertrump="5")
    mine = await bidder.next()
    assert version_of(mine) == table.version + 1, flash_of(mine)
    html = await centre.next()
    assert version_of(html) == table.version + 1
    last = re.search(r'id="centre-last".*?<strong>(.*?)</strong>', html, re.S)
    # the newest log line, in large type: the bid, by its bidder
    assert last and ("Ana", "Boris", "Chloé", "Dmitri")[turn] in last.group(1)
    assert "7" in last.group(1)
    assert "<form" not in html


async def test_the_centre_socket_makes_no_move(phone):
    table, tokens, _host = await seated_table(game="triggs", players=2)
    centre = phone(table.code, [tokens[0], tokens[1]], view="centre")
    assert await centre.connect()
    turn = table.state["turn"]
    await centre.act(turn, table.version, kind="cross", value="4", sets="2")
    await centre.next()  # the refusal, with a fresh render
    assert (await reload(table)).version == table.version


async def test_the_centre_socket_never_shows_a_hand(phone):
    table, tokens = await digital_triggs()
    ana = phone(table.code, [tokens[0]], seat=0)
    centre = phone(table.code, [tokens[0]], seat=0, view="centre")
    assert await ana.connect() and await centre.connect()
    assert 'class="hand-card"' in ana.page.html
    assert 'class="hand-card"' not in centre.page.html
    assert 'id="r-sheets"' in centre.page.html
