"""Acting for an absent seat over the table's WebSocket (issue 36): the phone's socket
knows who is at the table (games.presence), and a move entered for a seat whose phone is
here is refused, one for a seat whose phone is away or gone applied and logged so."""

import re
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from companion.asgi import application
from games import phones
from games.models import Action, Table
from tests.realtime.conftest import ORIGIN, flash_of, seated_table, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def any_player_may_act(table):
    Table.objects.filter(pk=table.pk).update(act_for=Table.ActFor.ANY)


@database_sync_to_async
def latest(table):
    row = Action.objects.filter(table=table).latest("version")
    return row.seat, row.acted_by, row.action


@database_sync_to_async
def turn(table):
    return Table.objects.get(pk=table.pk).state["turn"]


def acting_phone(phone, code, token, seat, acting):
    """A phone whose page asks to enter moves for seat `acting` (its "for" parameter)."""
    made = phone(code, [token], seat=seat)
    cookie = f"{phones.cookie_pair(code, [token])}; csrftoken=testcsrf".encode()
    made.comm = WebsocketCommunicator(
        application,
        f"/ws/table/{code}/?lang=es&seat={seat}&for={acting}",
        headers=[(b"origin", ORIGIN), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)],
    )
    return made


async def test_a_seated_phone_enters_for_an_absent_seat_only(phone):
    table, tokens, _host = await seated_table(players=3)
    await any_player_may_act(table)
    ana = phone(table.code, [tokens[0]])
    assert await ana.connect()
    boris = phone(table.code, [tokens[1]])
    page = await boris.connect() and boris.page.html
    assert await turn(table) == 0
    # Ana's phone is here: her turn is hers to enter
    version = version_of(page)
    await boris.act(1, version, kind="pass", **{"for": "0"})
    page = await boris.next()
    assert "El móvil de ese jugador está aquí" in flash_of(page)
    assert await turn(table) == 0
    # she puts her phone down (its page hidden): Boris enters her turn
    await ana.send(kind="presence", state="away")
    for _ in range(5):
        if "Ana: ausente" in re.sub(r"<[^>]+>", "", boris.page.html):
            break
        await boris.next(presence=True, timeout=2)
    await boris.act(1, version, kind="pass", **{"for": "0"})
    page = await boris.next()
    assert version_of(page) == version + 1
    assert await latest(table) == (0, 1, {"type": "pass"})
    assert "Ana (jugada introducida por Boris) robó o descartó." in page
    # Chloé never came: Boris, on his own turn, then on hers from a page acting for her
    await boris.act(1, version + 1, kind="pass")
    await boris.next()
    await boris.close()
    for_chloe = acting_phone(phone, table.code, tokens[1], 1, 2)
    assert await for_chloe.connect()
    page = for_chloe.page.html
    assert "Estás introduciendo jugadas por Chloé" in page
    assert '<input type="hidden" name="for" value="2">' in page
    await for_chloe.act(
        1,
        version + 2,
        action_id=uuid.uuid4().hex,
        kind="cross",
        value="6",
        sets="2",
        **{"for": "2"},
    )
    page = await for_chloe.next()
    assert version_of(page) == version + 3
    assert await latest(table) == (2, 1, {"type": "cross", "value": 6, "sets": 2})
    assert await turn(table) == 0
