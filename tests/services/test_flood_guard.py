"""The production server (companion.serve) counts a WebSocket's frames as they arrive
(issue 17, item 2): a flood is cut off (4008) after FRAMES_BURST frames, before the
application is handed the rest, and pings count too. It limits the size of what a client
sends, never of what it is sent (issue 34, item 1). Served by a real process; the
application is tests/services/counting_app.py, which tells how many frames it got.
No database or Redis needed."""

import asyncio
import contextlib
import os
import struct
import time

import pytest

from companion.serve import (
    FRAMES_BURST,
    HANDSHAKES_PER_ADDRESS,
    HANDSHAKES_PER_PHONE,
    INCOMING_MAX,
    POLICY_VIOLATION,
)
from tests.services.conftest import HandshakeRefused, Server, WebSocket, _mask

PING, TEXT = 0x9, 0x1
FLOOD = 3000


def frames(opcode: int, payload: bytes, count: int) -> bytes:
    """`count` masked client frames in one blob, written at once as a flooder would."""
    out = bytearray()
    for _ in range(count):
        key = os.urandom(4)
        out += struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + key
        out += _mask(payload, key)
    return bytes(out)


def counting_server(tmp_path_factory, settings_module: str):
    folder = tmp_path_factory.mktemp("guard")
    env = {"DJANGO_SETTINGS_MODULE": settings_module}
    return Server("guard", folder, env, app="tests.services.counting_app:application").start()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """With the handshake limits raised, as every test client comes from 127.0.0.1."""
    process = counting_server(tmp_path_factory, "tests.services.settings")
    yield process
    process.stop()


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    """With the site's handshake limits."""
    process = counting_server(tmp_path_factory, "companion.settings")
    yield process
    process.stop()


async def write(ws: WebSocket, data: bytes) -> None:
    ws.writer.write(data)
    with contextlib.suppress(ConnectionError, OSError):  # cut off while writing
        await ws.writer.drain()


async def counts_until_closed(ws: WebSocket, expected: int) -> list[int]:
    """The application's answers, until the socket closes or all `expected` came."""
    seen = []
    while True:
        message = await asyncio.wait_for(ws.recv(), 20)
        if message is None:
            return seen
        seen.append(int(message))
        if seen[-1] == expected:
            return seen


async def test_a_flood_of_frames_is_cut_off_before_the_application_gets_it(server):
    ws = await WebSocket.connect(server.port, "/flood/", {})
    await write(ws, frames(TEXT, b'{"kind":"resync"}', FLOOD))
    seen = await counts_until_closed(ws, FLOOD)
    assert ws.close_code == POLICY_VIOLATION
    assert max(seen, default=0) <= FRAMES_BURST  # the rest never reached the application


async def test_a_flood_of_pings_is_cut_off_too(server):
    ws = await WebSocket.connect(server.port, "/pings/", {})
    await write(ws, frames(PING, b"x", FLOOD))
    assert await asyncio.wait_for(ws.recv(), 20) is None  # pongs are skipped by recv
    assert ws.close_code == POLICY_VIOLATION


async def test_a_phone_sending_at_a_human_pace_is_never_cut_off(server):
    ws = await WebSocket.connect(server.port, "/phone/", {})
    await write(ws, frames(TEXT, b"{}", FRAMES_BURST))  # a whole burst at once is allowed
    assert await counts_until_closed(ws, FRAMES_BURST) == list(range(1, FRAMES_BURST + 1))
    for n in range(FRAMES_BURST + 1, FRAMES_BURST + 6):  # then a few a second, for good
        await asyncio.sleep(0.3)
        await ws.send("{}")
        assert await asyncio.wait_for(ws.recv(), 20) == str(n)
    assert ws.close_code is None
    await ws.close()


async def test_a_message_over_the_limit_from_a_client_closes_its_socket_unread(server):
    ws = await WebSocket.connect(server.port, "/big-in/", {})
    await ws.send("{}")
    assert await asyncio.wait_for(ws.recv(), 20) == "1"
    await ws.send("y" * (INCOMING_MAX + 1))
    assert await asyncio.wait_for(ws.recv(), 20) is None
    # 1009 "message too big", or the connection reset with the message's bytes unread
    assert ws.close_code in (1009, 1006)


async def test_a_message_at_the_limit_from_a_client_is_taken(server):
    ws = await WebSocket.connect(server.port, "/at-limit/", {})
    await ws.send("y" * INCOMING_MAX)
    assert await asyncio.wait_for(ws.recv(), 20) == "1"
    await ws.close()


async def test_what_a_client_is_sent_is_not_limited(server):
    """A seated phone's first screen at a digital table is 9-18 KB."""
    ws = await WebSocket.connect(server.port, "/big-out/", {})
    for size in (INCOMING_MAX + 1, 20_000, 200_000):
        await ws.send(f"big {size}")
        assert await asyncio.wait_for(ws.recv(), 20) == "x" * size
    assert ws.close_code is None
    await ws.close()


async def handshakes(server, count: int, address: str, cookie: str = "") -> list[bool]:
    """`count` handshakes at once from `address` (as the proxy says) with `cookie` (else a
    cookie of its own each: phones behind one router): which were taken."""
    taken = []
    for n in range(count):
        headers = {"X-Forwarded-For": address, "Cookie": cookie or f"phone={address}-{n}"}
        try:
            ws = await WebSocket.connect(server.port, "/h/", headers)
        except HandshakeRefused as refused:
            assert refused.status == 429
            taken.append(False)
            continue
        taken.append(True)
        await ws.close()
    return taken


async def test_handshakes_from_one_address_are_counted_before_the_application(limited):
    """Past a burst, an address's handshakes are refused (429) by the server itself;
    another address is not held back."""
    burst, rate = HANDSHAKES_PER_ADDRESS
    start = time.monotonic()
    taken = await handshakes(limited, burst + 40, "203.0.113.1")
    refilled = int(rate * (time.monotonic() - start)) + 1  # the bucket refills meanwhile
    assert taken[: burst - 2].count(True) == burst - 2
    # Past the burst only what refilled meanwhile is taken: the rest are refused, though
    # which of the last ones are depends on when the bucket's tokens came back.
    assert burst - 2 <= taken.count(True) <= burst + refilled
    assert taken[burst:].count(False) >= len(taken[burst:]) - refilled
    assert await handshakes(limited, 1, "203.0.113.2") == [True]


async def test_a_phone_reconnecting_in_a_loop_is_held_back_not_its_neighbours(limited):
    """A page comes back after a growing pause; one cookie reconnecting in a loop is
    refused past its burst, while another phone behind the same address is not."""
    burst, rate = HANDSHAKES_PER_PHONE
    start = time.monotonic()
    looping = await handshakes(limited, burst + 6, "203.0.113.3", "phone=loop")
    refilled = int(rate * (time.monotonic() - start)) + 1
    assert looping[: burst - 1] == [True] * (burst - 1)
    assert looping[burst:].count(False) >= 6 - refilled
    assert await handshakes(limited, 1, "203.0.113.3", "phone=other") == [True]
