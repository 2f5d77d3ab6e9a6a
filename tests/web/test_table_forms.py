"""Every form posted as a page from a table's screen carries a valid CSRF token, though
the regions holding them are drawn once and shared (games.render.stamp fills it in per
phone): on the page itself and in what the WebSocket sends (issue 16)."""

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from companion.asgi import application
from games import phones
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def forms(html: str) -> list[tuple[str, str]]:
    """(opening tag's attributes, body) of each form that is posted as a page."""
    return [(attrs, body) for attrs, body in FORM.findall(html) if "ws-send" not in attrs]


@pytest.mark.parametrize("game, players", [("triggs", 2), ("triumfdrez", 4)])
def test_every_posted_form_of_a_table_carries_a_token_that_works(settings, game, players):
    settings.BOT_DELAY = 0
    host = Client(enforce_csrf_checks=True)
    page = host.get("/es/play/").content.decode()
    code = host.post(
        "/es/play/",
        {
            "game": game,
            "mode": "digital",
            "players": str(players),
            "name": "Ana",
            "csrfmiddlewaretoken": TOKEN.search(page).group(1),
            **({"target": "50"} if game == "triumfdrez" else {}),
        },
    )["Location"].split("/")[3]
    for stage in ("lobby", "play"):
        html = host.get(f"/es/t/{code}/").content.decode()
        posted = forms(html)
        assert posted, stage
        for attrs, body in posted:
            assert len(TOKEN.findall(body)) == 1, (stage, attrs)
        if stage == "lobby":  # every free seat to a computer player, with the page's token
            for attrs, body in posted:
                if "/bot/" in attrs:
                    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', body))
                    fields["level"] = re.search(r'<option value="(\w+)"', body).group(1)
                    response = host.post(f"/es/t/{code}/bot/", fields)
                    assert response.status_code == 302, response.status_code
            start = next(body for attrs, body in posted if "/start/" in attrs)
            fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', start))
            assert host.post(f"/es/t/{code}/start/", fields).status_code == 302
    assert Table.objects.get(code=code).status == Table.Status.PLAYING
    # the same form without its token is refused
    assert host.post(f"/es/t/{code}/close/", {"seat": "0"}).status_code == 403


async def test_forms_sent_over_the_websocket_carry_the_phones_own_token():
    from channels.db import database_sync_to_async

    from games import services
    from tests.tables import config

    def make():
        table, host, ana = services.create_table(
            "triggs", "companion", config("triggs", "companion", 2), "Ana"
        )
        services.claim_seat(table, 1, "Boris")
        return table, host, ana

    table, host, ana = await database_sync_to_async(make)()
    cookie = f"{phones.cookie_pair(table.code, [ana], host=host)}; csrftoken={'t' * 32}"
    comm = WebsocketCommunicator(
        application,
        f"/ws/table/{table.code}/?lang=fr",
        headers=[
            (b"origin", b"http://127.0.0.1:8000"),
            (b"host", b"127.0.0.1:8000"),
            (b"cookie", cookie.encode()),
        ],
    )
    assert (await comm.connect(timeout=5))[0]
    html = await comm.receive_from(timeout=5)
    posted = forms(html)
    assert len(posted) == 2  # start; the tools (free a seat, close…), one form
    assert "/close/" in posted[1][1] and "/free/" in posted[1][1]
    for attrs, body in posted:
        assert TOKEN.findall(body) == ["t" * 32], attrs
    await comm.disconnect()
