"""The table-centre screen (issue 36): a read-only page for a tablet or a TV, a spectator's
view in large type, rendered from regions that declare what they read; and the partners
of a 4-player TriumfDrez table, shown in the lobby, on the join page and at the table."""

import random
import re
import uuid

import pytest
from django.test import Client
from django.utils import translation

from games import live, render, services
from games.context import table_context
from games.models import Table
from games.registry import get_game
from tests.declared import undeclared
from tests.tables import config

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
LANGS = ("es", "el", "ru", "fr")
KINDS = [
    ("triggs", "companion", 3),
    ("triggs", "digital", 2),
    ("triumfdrez", "companion", 4),
    ("triumfdrez", "digital", 4),
    ("triumfdrez", "digital", 3),
]
TRIGGS_HAND = re.compile(r'class="hand-card"')
CARD_ID = re.compile(r'data-card(?:-id)?="([a-z]+-\d)"')


def lobby_table(game, mode, players):
    """A table waiting to start with every seat taken, and its host token."""
    table, host, _token = services.create_table(game, mode, config(game, mode, players), NAMES[0])
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat])
    table.refresh_from_db()
    return table, host


def new_table(game, mode, players, start=True):
    table, host = lobby_table(game, mode, players)
    if start:
        services.start_table(table, host, "start-" + uuid.uuid4().hex)
        table.refresh_from_db()
    return table


def play(table, moves, rng):
    """Up to `moves` legal moves picked by `rng`; False once the game is over."""
    engine = get_game(table.game).engine(table.mode)
    for _ in range(moves):
        if engine.is_over(table.state):
            return False
        seat = engine.to_act(table.state)[0]
        action = rng.choice(engine.legal_actions(table.state))
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
    return not engine.is_over(table.state)


def seen_by_nobody(table) -> set[str]:
    """TriumfDrez's cards no spectator may see: the hands (but an open contract's, once
    shown: D-OPEN) and the undealt cards."""
    state = table.state
    shown = get_game("triumfdrez").engine("digital").view(state, None)["open_hands"]
    hidden = set(state["hidden"])
    for seat, hand in enumerate(state["hands"]):
        if shown[seat] is None:
            hidden |= set(hand)
    return hidden


def centre_regions(table):
    snap = live.snapshot(table)
    stage = {"lobby": "lobby", "closed": "closed"}.get(table.status, "play")
    middle = render.CENTRE_STAGE.get(stage) or render.centre_regions(table.game, table.mode)
    return snap, (*render.CENTRE_HEAD, *middle)


@pytest.mark.parametrize(("game", "mode", "players"), KINDS)
def test_the_centre_page_shows_a_spectators_view_in_four_languages(game, mode, players):
    table = new_table(game, mode, players)
    play(table, 9, random.Random(3))
    client = Client()
    for lang in LANGS:
        response = client.get(f"/{lang}/t/{table.code}/centre/")
        assert response.status_code == 200
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html
        assert f"/ws/table/{table.code}/?lang={lang}&amp;view=centre" in html
        assert 'class="pane pane-centre"' in html
        for region in centre_regions(table)[1]:
            assert f'id="r-{region.name}"' in html
        # the last event, in large type: the newest log line
        with translation.override(lang):
            snap = live.snapshot(table)
            context = table_context(snap, [], None, False, None, lang)
        assert context["log"] and f"<strong>{context['log'][0]}</strong>" in html.replace(
            "&#x27;", "'"
        )
        # never a hidden card, nor anything a seat does (no form)
        assert "<form" not in html.split('id="table-socket"')[1]
        if game == "triggs":
            assert not TRIGGS_HAND.search(html)
        elif mode == "digital":
            assert not set(CARD_ID.findall(html)) & seen_by_nobody(table)
    # every sheet side by side, or the scoreboard
    if game == "triggs":
        assert html.count('<li class="centre-sheet') == players
    else:
        assert 'class="centre-scores"' in html


@pytest.mark.parametrize(("game", "mode", "players"), KINDS)
def test_each_centre_region_declares_what_it_reads(game, mode, players):
    """From the lobby to the end of the game: each region of the centre screen renders the
    same from its declared reads alone as from the whole context (tests/declared.py)."""
    table, host = lobby_table(game, mode, players)
    rng = random.Random(players)
    positions = 0
    over = False
    while True:
        snap, regions = centre_regions(table)
        for lang in ("es", "fr"):
            with translation.override(lang):
                context = table_context(snap, [], None, False, None, lang)
                for region in regions:
                    problem = undeclared(region.template, context, region.reads)
                    assert problem is None, f"{region.name} at {positions}:\n{problem}"
        positions += 1
        if over:
            break
        if table.status == Table.Status.LOBBY:
            services.start_table(table, host, "start-" + uuid.uuid4().hex)
            table.refresh_from_db()
            continue
        over = not play(table, rng.choice((1, 7, 40)), rng)
        if positions > 60:
            break
    assert positions > 3


def test_a_finished_game_shows_the_winners_banner():
    for game, mode, players in (("triumfdrez", "digital", 4), ("triggs", "companion", 2)):
        table = new_table(game, mode, players)
        rng = random.Random(1)
        while play(table, 50, rng):
            pass
        html = Client().get(f"/fr/t/{table.code}/centre/").content.decode()
        assert 'class="centre-winner"' in html and "🏆" in html


def test_the_table_tools_link_to_the_centre_screen_and_its_qr_code(client):
    table, _host, _token = services.create_table(
        "triggs", "companion", config("triggs", "companion", 2), NAMES[0]
    )
    client.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    html = client.get(f"/es/t/{table.code}/").content.decode()
    tools = html.split('id="r-tools"')[1]
    assert f'href="/es/t/{table.code}/centre/"' in tools
    assert f'src="/es/t/{table.code}/centre/qr.svg"' in tools
    qr = client.get(f"/es/t/{table.code}/centre/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml"
    assert f"http://testserver/es/t/{table.code}/centre/" in qr.content.decode()
    assert client.get("/es/t/ZZZZZZ/centre/").status_code == 404


# -- partners ---------------------------------------------------------------------------------


def test_the_adapters_name_the_sides():
    triumfdrez, triggs = get_game("triumfdrez").web, get_game("triggs").web
    assert triumfdrez.sides("digital", 4) == ((0, 2), (1, 3))
    assert triumfdrez.sides("companion", 4) == ((0, 2), (1, 3))
    assert triumfdrez.sides("companion", 3) == ((0,), (1,), (2,))
    assert triggs.sides("digital", 4) == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize(
    ("game", "mode", "players", "shown"),
    [
        ("triumfdrez", "companion", 4, True),
        ("triumfdrez", "digital", 4, True),
        ("triumfdrez", "digital", 3, False),
        ("triggs", "companion", 4, False),
    ],
)
def test_partners_are_shown_in_the_lobby_the_join_page_and_the_table(game, mode, players, shown):
    table, host, _token = services.create_table(game, mode, config(game, mode, players), NAMES[0])
    host_phone = Client()
    host_phone.post(f"/es/join/{table.code}/", {"seat": "0", "name": "Ana"})  # a second seat
    lobby = Client().get(f"/es/t/{table.code}/").content.decode()
    join = Client().get(f"/es/join/{table.code}/").content.decode()
    partner = re.compile(r"compañero del asiento (\d)")
    if not shown:
        assert not partner.search(lobby + join) and "Parejas" not in lobby
        return
    # the lobby's seats: seat 1 with seat 3, seat 2 with seat 4
    seats = lobby.split('class="seat-list"')[1].split("</ol>")[0]
    assert partner.findall(seats) == ["3", "4", "1", "2"]
    # the join page's seat choice: «Asiento 3 — compañero del asiento 1»
    assert "Asiento 3 — compañero del asiento 1" in join
    assert "Asiento 2 — compañero del asiento 4" in join
    # the table's players: the sides of partners, in four languages
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    words = {"es": "Parejas", "el": "Συμπαίκτες", "ru": "Партнёры", "fr": "Partenaires"}
    for lang, word in words.items():
        html = Client().get(f"/{lang}/t/{table.code}/").content.decode()
        sides = html.split('id="r-sides"')[1].split('id="r-phrases"')[0]
        assert word in sides
        assert "Ana + Chloé" in sides and "Boris + Dmitri" in sides


def test_the_triumfdrez_seating_help_says_where_partners_sit():
    html = Client().get("/fr/play/?game=triumfdrez").content.decode()
    assert "les partenaires sont assis face à face" in html
