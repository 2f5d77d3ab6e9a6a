"""What an attacker's WebSocket frames and handshakes get (issue 17, items 4, 6, 7, 10):
a translated refusal and nothing changed, or a closed socket — never a server error."""

import pytest
from channels.testing import WebsocketCommunicator

from companion.asgi import application
from games.models import Action
from tests.realtime.conftest import flash_of, seated_table, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "frame",
    [
        '{"kind": "cross", "value": "9", "sets": "1", "seat": Infinity, "version": "1",'
        ' "action_id": "aaaaaaaaaa"}',
        '{"kind": "cross", "value": "9", "sets": "1", "seat": 0, "version": 1e400,'
        ' "action_id": "aaaaaaaaaa"}',
        '{"kind": "cross", "value": 1e400, "sets": "1", "seat": 0, "version": 1,'
        ' "action_id": "aaaaaaaaaa"}',
        "[" * 3000 + "]" * 3000,
        '{"a": ' * 3000 + "1" + "}" * 3000,
        '{"kind": "cross", "value": "9", "sets": "1", "seat": 0, "version": 1,'
        ' "action_id": "' + "a" * 64 + '\\n"}',
    ],
)
async def test_malformed_numbers_deep_nesting_and_ids_are_refused_not_crashed(phone, frame):
    table, tokens, _host = await seated_table(players=2)
    mine = phone(table.code, [tokens[0]], lang="fr")
    assert await mine.connect()
    await mine.comm.send_to(text_data=frame[:8000])
    html = await mine.next()
    assert "n’a pas été compris" in flash_of(html)  # bad_request, in French
    assert version_of(html) == table.version
    await mine.act(0, table.version + 5, kind="pass")  # still open, and answering a move
    assert "Quelqu’un a joué avant vous" in flash_of(await mine.next())  # stale


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/table/abcdef/", "/ws/table/ABCDEFG/"])
async def test_an_unknown_websocket_path_is_closed_cleanly(path):
    comm = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4404


@pytest.mark.parametrize(
    "origin", [b"http://127.0.0.1:9999", b"https://127.0.0.1:8000", b"http://evil.example:8000"]
)
async def test_only_the_sites_own_origin_may_connect(phone, origin):
    table, tokens, _host = await seated_table(players=2)
    assert not await phone(table.code, [tokens[0]], origin=origin).connect()
    assert await phone(table.code, [tokens[0]]).connect()


async def test_a_phone_cannot_take_a_computer_players_id_or_reuse_another_moves_id(phone):
    from channels.db import database_sync_to_async

    table, tokens, _host = await seated_table(players=2)
    turn = table.state["turn"]
    mine = phone(table.code, [tokens[turn]], lang="es")
    assert await mine.connect()
    # a computer player's id has a ":" no phone may send
    await mine.act(turn, table.version, f"bot:{table.version}", kind="pass")
    assert "No se ha entendido" in flash_of(await mine.next())
    await mine.act(turn, table.version, "same-id-0001", kind="cross", value="9", sets="1")
    assert version_of(await mine.next()) == table.version + 1
    # the same id with another move is refused, not taken for the first one
    await mine.act(turn, table.version + 1, "same-id-0001", kind="cross", value="8", sets="1")
    assert "No se ha entendido" in flash_of(await mine.next())
    count = await database_sync_to_async(Action.objects.filter(table=table).count)()
    assert count == 2  # the start and the one cross


async def test_refused_moves_are_not_abuse_but_a_flood_is_closed_without_a_render_each(
    phone, monkeypatch
):
    from games import consumers

    table, tokens, _host = await seated_table(players=2)
    other = 1 - table.state["turn"]
    mine = phone(table.code, [tokens[other]], lang="es")
    assert await mine.connect()
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)
    for _ in range(consumers.FLOOD_LIMIT + 5):  # out of turn, again and again: refused
        await mine.act(other, table.version, kind="cross", value="9", sets="1")
        assert "No es tu turno" in flash_of(await mine.next())
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 0.0)
    for _ in range(consumers.FLOOD_LIMIT + 20):  # far over the rate limit
        await mine.send(kind="resync", version=table.version)  # nothing new to send
    renders = []
    while True:
        output = await mine.next()
        if isinstance(output, dict):  # the close
            assert output["code"] == consumers.POLICY_VIOLATION
            break
        renders.append(output)
    assert len(renders) <= 2  # refusals of abuse are drawn at most once a second


async def test_malformed_frames_get_at_most_one_refusal_drawn_a_second(phone):
    """Within the rate limit too: a burst of malformed frames gets one refusal drawn
    (issue 17, item 2), while a move the table refuses is drawn each time."""
    from games import consumers

    table, tokens, _host = await seated_table(players=2)
    other = 1 - table.state["turn"]
    mine = phone(table.code, [tokens[other]], lang="es")
    assert await mine.connect()
    for _ in range(4):
        await mine.comm.send_to(text_data="not json")
    assert "No se ha entendido" in flash_of(await mine.next())
    assert await mine.receive_nothing(timeout=0.3)
    for _ in range(3):  # out of turn: not abuse
        await mine.act(other, table.version, kind="cross", value="9", sets="1")
        assert "No es tu turno" in flash_of(await mine.next())
    assert consumers.BUCKET_SIZE >= 7  # all of them were within the rate limit


async def test_sockets_are_capped_per_client_address_and_per_table(settings):
    from games import consumers

    settings.WS_SOCKETS_PER_ADDRESS, settings.WS_SOCKETS_PER_TABLE = 2, 3
    table, _tokens, _host = await seated_table(players=2)
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]

    def socket(address):
        comm = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
        comm.scope["client"] = (address, 50000)
        return comm

    first, second, third = socket("10.0.0.1"), socket("10.0.0.1"), socket("10.0.0.1")
    assert (await first.connect(timeout=5))[0] and (await second.connect(timeout=5))[0]
    assert await third.connect(timeout=5) == (False, consumers.TOO_MANY)
    elsewhere, crowd = socket("10.0.0.2"), socket("10.0.0.3")
    assert (await elsewhere.connect(timeout=5))[0]
    assert await crowd.connect(timeout=5) == (False, consumers.TOO_MANY)  # the table is full
    await first.disconnect()
    again = socket("10.0.0.1")
    assert (await again.connect(timeout=5))[0]
    for comm in (second, elsewhere, again):
        await comm.disconnect()
    assert not consumers.TableConsumer.open_by_address


async def test_strangers_filling_a_table_cannot_keep_its_players_out(settings, phone):
    """A seat's phones have room of their own (issue 34, item 5): with the table's room for
    spectators full, a seated phone whose connection blipped still gets back in; a seat's
    own room is bounded too."""
    from games import consumers

    settings.WS_SOCKETS_PER_TABLE, settings.WS_SOCKETS_PER_SEAT = 3, 2
    table, tokens, _host = await seated_table(players=2)
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]

    def stranger(n):
        comm = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
        comm.scope["client"] = (f"10.0.1.{n}", 50000)
        return comm

    crowd = [stranger(n) for n in range(3)]
    for comm in crowd:
        assert (await comm.connect(timeout=5))[0]
    assert await stranger(9).connect(timeout=5) == (False, consumers.TOO_MANY)
    ana = [phone(table.code, [tokens[0]]) for _ in range(3)]
    assert await ana[0].connect() and await ana[1].connect()
    assert not await ana[2].connect()  # a third socket of one seat: its room is full
    assert await phone(table.code, [tokens[1]]).connect()  # the other seat has its own
    for comm in crowd:
        await comm.disconnect()


async def test_websocket_handshakes_for_unknown_codes_are_rate_limited(settings):
    settings.RATE_LIMITS = {"unknown_code": (3, 60), "create_table": (10, 600)}
    table, _tokens, _host = await seated_table(players=2)
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]

    async def handshake(code):
        comm = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
        comm.scope["client"] = ("10.0.0.9", 50000)
        connected, _code = await comm.connect(timeout=5)
        if connected:
            await comm.disconnect()
        return connected

    assert not await handshake("QQQQQQ") and not await handshake("WWWWWW")
    assert await handshake(table.code)  # known codes are not counted…
    assert not await handshake("XXXXXX")
    assert not await handshake(table.code)  # …but once over, nothing is told
