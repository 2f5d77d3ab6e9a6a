import json
import re
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from companion.asgi import application
from games import phones, services
from tests.screens import Page
from tests.tables import config

ORIGIN = b"http://127.0.0.1:8000"


class Phone:
    """One phone's WebSocket: what it sends, the messages it receives and the page they
    make (`next` returns the page after the next message; `received` keeps them as
    sent)."""

    def __init__(self, code, tokens=(), origin=ORIGIN, lang="es", seat=None, view=None):
        # a CSRF cookie of its own, as every phone has (socket rooms count per phone)
        csrf = uuid.uuid4().hex
        cookie = f"{phones.cookie_pair(code, tokens)}; csrftoken={csrf}".encode()
        query = f"lang={lang}" + (f"&seat={seat}" if seat is not None else "")
        query += f"&view={view}" if view is not None else ""
        self.comm = WebsocketCommunicator(
            application,
            f"/ws/table/{code}/?{query}",
            headers=[(b"origin", origin), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)],
        )
        self.received = []  # the messages as sent
        self.page = Page()  # what they made of the page
        self.pages = []  # the page after each message
        self.presence = []  # the messages that only said who is at the table
        self.held = None  # the page after a message that receive_nothing met, for `next`

    async def connect(self):
        connected, _ = await self.comm.connect(timeout=5)
        if connected:
            await self.next()  # the full render sent on connect
        return connected

    async def next(self, timeout=5, presence=False):
        """The page after the next message; messages that only say who is at the table
        (no version: games.presence) are applied and passed over unless `presence`."""
        if self.held is not None:  # a message receive_nothing met
            html, self.held = self.held, None
            return html
        while True:
            html = await self.receive(timeout)
            if html is not None or presence:
                return html if html is not None else self.page.html

    async def receive(self, timeout):
        """The next message, applied: the page after it (the close if it was one), or None
        if it only said who is at the table."""
        output = await self.comm.receive_output(timeout)
        if output["type"] == "websocket.close":
            return output
        self.page.apply(output["text"])
        if 'id="table-meta"' not in output["text"]:
            self.presence.append(output["text"])
            return None
        self.received.append(output["text"])
        self.pages.append(self.page.html)
        return self.page.html  # the page as the phone now shows it

    async def receive_nothing(self, timeout=0.3):
        """True if nothing but who is at the table comes within `timeout` (a message that
        does is kept for `next`)."""
        while self.held is None and not await self.comm.receive_nothing(timeout):
            self.held = await self.receive(timeout)
        return self.held is None

    async def send(self, **fields):
        await self.comm.send_to(text_data=json.dumps(fields))

    async def act(self, seat, version, action_id=None, **fields):
        await self.send(
            seat=str(seat), version=str(version), action_id=action_id or uuid.uuid4().hex, **fields
        )

    async def close(self):
        await self.comm.disconnect()


def version_of(html):
    return int(re.search(r'id="table-meta"[^>]*data-version="(\d+)"', html).group(1))


def flash_of(html):
    match = re.search(r'id="table-flash"[^>]*>(.*?)</div>', html, re.S)
    return match.group(1) if match else ""


@database_sync_to_async
def seated_table(game="triggs", players=2, names=("Ana", "Boris", "Chloé", "Dmitri"), start=True):
    """A companion table with every seat taken and the game started."""
    table, host_token, token0 = services.create_table(
        game, "companion", config(game, "companion", players), names[0]
    )
    tokens = [token0] + [services.claim_seat(table, i, names[i]) for i in range(1, players)]
    if start:
        services.start_table(table, host_token, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table, tokens, host_token


@pytest.fixture
def phone():
    phones = []

    def make(*args, **kwargs):
        p = Phone(*args, **kwargs)
        phones.append(p)
        return p

    yield make
