"""A club night behind one address (issue 39): every phone at a café shares one public
address, and 32 sockets per address refused a ten-table evening. Sockets are counted per
phone (its CSRF cookie, else its address), the address having a much larger room: twenty
tables of four phones all connect from one address, one phone cannot open a hundred, and a
client making up a new cookie for each socket is held by its address's room."""

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from companion.asgi import application
from games import consumers, phones
from games.models import Action
from tests.realtime.conftest import seated_table

pytestmark = pytest.mark.django_db(transaction=True)

CAFE = "203.0.113.7"


def socket(code, cookie="", address=CAFE, tokens=()):
    parts = [phones.cookie_pair(code, tokens)] if tokens else []
    if cookie:
        parts.append(f"csrftoken={cookie}")
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if parts:
        headers.append((b"cookie", "; ".join(parts).encode()))
    comm = WebsocketCommunicator(application, f"/ws/table/{code}/?lang=es", headers=headers)
    comm.scope["client"] = (address, 50000)
    return comm


async def connect(comm) -> bool | int:
    """True once the socket is open and its first screen came, else its close code."""
    connected, code = await comm.connect(timeout=10)
    if not connected:
        return code
    output = await comm.receive_output(10)
    return output["type"] == "websocket.send" or output


async def close_all(comms):
    for comm in comms:
        await comm.disconnect()


@pytest.fixture(autouse=True)
def site_limits(settings):
    """The site's own socket rooms, whatever the settings of the run say."""
    for name in ("WS_SOCKETS_PER_PHONE", "WS_SOCKETS_PER_ADDRESS", "WS_SOCKETS_PER_TABLE"):
        if hasattr(settings, name):
            delattr(settings, name)
    phones = +consumers.TableConsumer.open_by_phone  # what other tests left open, if any
    addresses = +consumers.TableConsumer.open_by_address
    yield
    assert +consumers.TableConsumer.open_by_phone == phones  # every socket here was counted out
    assert +consumers.TableConsumer.open_by_address == addresses


def test_the_rooms_hold_a_club_night():
    assert consumers.SOCKETS_PER_ADDRESS >= 20 * 4 * 3  # 20 tables of 4, tabs and blips
    assert consumers.SOCKETS_PER_PHONE < 100


async def test_twenty_tables_of_four_phones_behind_one_address_all_connect():
    tables = [await seated_table(players=4) for _ in range(20)]
    comms = [
        socket(table.code, f"phone{t:02d}{seat}".ljust(32, "x"), tokens=[tokens[seat]])
        for t, (table, tokens, _host) in enumerate(tables)
        for seat in range(4)
    ]
    assert len(comms) == 80
    answers = await asyncio.gather(*(connect(comm) for comm in comms))
    assert answers == [True] * 80
    assert consumers.TableConsumer.open_by_address[CAFE] == 80
    await close_all(comms)


async def test_one_phone_cannot_open_a_hundred_sockets():
    table, _tokens, _host = await seated_table(players=2)
    before = await Action.objects.acount()
    comms = [socket(table.code, "greedy".ljust(32, "g")) for _ in range(100)]
    answers = [await connect(comm) for comm in comms]
    per_phone = consumers.SOCKETS_PER_PHONE
    assert answers == [True] * per_phone + [consumers.TOO_MANY] * (100 - per_phone)
    # its neighbours behind the same address are not held back
    neighbour = socket(table.code, "neighbour".ljust(32, "n"))
    assert await connect(neighbour) is True
    assert await Action.objects.acount() == before  # a refused socket changes nothing
    await close_all([*comms[:per_phone], neighbour])


async def test_a_client_with_no_cookie_is_one_phone_of_its_address():
    table, _tokens, _host = await seated_table(players=2)
    comms = [socket(table.code) for _ in range(consumers.SOCKETS_PER_PHONE + 3)]
    answers = [await connect(comm) for comm in comms]
    assert answers[-3:] == [consumers.TOO_MANY] * 3
    await close_all(comms[: consumers.SOCKETS_PER_PHONE])


async def test_a_client_making_up_cookies_is_held_by_its_address(settings):
    settings.WS_SOCKETS_PER_ADDRESS = 40  # the address's room, smaller to be quick
    table, _tokens, _host = await seated_table(players=2)
    comms = [socket(table.code, f"{n:032d}") for n in range(45)]
    answers = [await connect(comm) for comm in comms]
    assert answers == [True] * 40 + [consumers.TOO_MANY] * 5
    elsewhere = socket(table.code, "other".ljust(32, "o"), address="198.51.100.20")
    assert await connect(elsewhere) is True
    await close_all([*comms[:40], elsewhere])
