"""Tables over plain HTTP: create, join by code or link, start, act with form
POSTs (no WebSocket needed), hand a seat over, and the host's powers."""

import re
import sys

import pytest
from django.test import Client
from django.utils import translation

from games import labels, phones
from games.models import Action, Seat, Table, hash_token

pytestmark = pytest.mark.django_db


def create(client, game="triggs", players="2", name="Ana", lang="es", **extra):
    fields = {"game": game, "mode": "companion", "players": players, "name": name}
    return client.post(f"/{lang}/play/", {"turn_marker": "on", **fields, **extra})


def hidden(html, name):
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


@pytest.fixture
def table_with_two():
    host, guest = Client(), Client()
    response = create(host)
    code = response["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    return Table.objects.get(code=code), host, guest


def test_creating_a_table_gives_a_code_link_and_qr(client):
    response = create(client)
    assert response.status_code == 302
    table = Table.objects.get()
    assert re.fullmatch(r"[ACDEFGHJKMNPQRTUVWXY34679]{6}", table.code)
    assert response["Location"] == f"/es/t/{table.code}/?seat=0"
    html = client.get(response["Location"]).content.decode()
    assert f"/es/join/{table.code}/" in html
    # the QR code of the join link, drawn by segno, an image of its own (not fetched until shown)
    assert (
        f'<img src="/es/join/{table.code}/qr.svg" alt="http://testserver/es/join/{table.code}/" loading="lazy">'
        in html
    )
    qr = client.get(f"/es/join/{table.code}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    assert f"<title>http://testserver/es/join/{table.code}/</title>".encode() in qr.content
    assert client.get("/es/join/ZZZZZZ/qr.svg").status_code == 404
    assert client.post(f"/es/join/{table.code}/qr.svg").status_code == 405
    cookie = response.cookies[phones.COOKIE_NAME]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    (token,) = phones.cookie_tokens({phones.COOKIE_NAME: cookie.value}, table.code)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.token_hash != token and seat.token_hash == hash_token(token)  # stored hashed


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"name": ""}, "bad_name"),
        ({"name": "x" * 25}, "bad_name"),
        ({"players": "5"}, "bad_players"),
        ({"players": "two"}, "bad_players"),
        ({"mode": "online"}, "bad_request"),
        ({"game": "chess"}, "bad_request"),
        ({"game": "triumfdrez", "target": "5"}, "bad_target"),
    ],
)
def test_bad_table_settings_are_refused_and_create_nothing(client, fields, code):
    response = create(client, lang="el", **fields)
    assert response.status_code == 400
    html = response.content.decode()
    with translation.override("en"):
        assert str(labels.REFUSALS[code]) not in html  # not the English source…
    with translation.override("el"):
        assert str(labels.REFUSALS[code]) in html  # …but Greek
    assert not Table.objects.exists()


def test_join_by_code_is_forgiving_and_unknown_codes_are_explained(client):
    create(Client())
    table = Table.objects.get()
    response = client.get("/fr/join/", {"code": f" {table.code.lower()} "})
    assert response["Location"] == f"/fr/join/{table.code}/"
    response = client.get("/fr/join/", {"code": "QQQQQQ"})
    assert response.status_code == 404
    assert "Aucune table n’a ce code" in response.content.decode()


def test_a_taken_seat_cannot_be_claimed_twice(table_with_two):
    table, _host, _guest = table_with_two
    response = Client().post(f"/ru/join/{table.code}/", {"seat": "1", "name": "Mallory"})
    assert response.status_code == 400
    assert "Это место только что заняли" in response.content.decode()
    assert Seat.objects.get(table=table, index=1).name == "Boris"


def test_a_turn_through_plain_form_posts(table_with_two):
    table, host, guest = table_with_two
    turn = table.state["turn"]
    phone = host if turn == 0 else guest
    html = phone.get(f"/es/t/{table.code}/").content.decode()
    move = {
        "seat": str(turn),
        "version": hidden(html, "version"),
        "action_id": hidden(html, "action_id"),
        "kind": "cross",
    }
    # a box of the sheet's form is "<row>:<sets>"; anything else changes nothing
    for box in ("12", "13:1", "12:0", "12:x", ":2", "12:2:1"):
        assert phone.post(f"/es/t/{table.code}/act/", {**move, "box": box}).status_code == 400
    assert Table.objects.get(pk=table.pk).version == table.version
    response = phone.post(f"/es/t/{table.code}/act/", {**move, "box": "12:2"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.state["sheets"][turn][11] == 2
    assert Action.objects.filter(table=table).count() == 2


def test_a_stale_post_is_refused_with_the_table_as_it_is(table_with_two):
    table, host, guest = table_with_two
    turn = table.state["turn"]
    phone = host if turn == 0 else guest
    response = phone.post(
        f"/fr/t/{table.code}/act/",
        {"seat": str(turn), "version": "0", "action_id": "stale-post-1", "kind": "pass"},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Quelqu’un a joué avant vous" in html
    assert f'data-version="{table.version}"' in html
    table.refresh_from_db()
    assert table.version == 1


def test_another_phones_seat_cannot_be_used(table_with_two):
    table, host, _guest = table_with_two
    response = host.post(
        f"/es/t/{table.code}/act/",
        {"seat": "1", "version": str(table.version), "action_id": "forged-seat-1", "kind": "pass"},
    )
    assert response.status_code == 409
    assert "Este móvil no tiene ese asiento" in response.content.decode()
    assert Table.objects.get(pk=table.pk).version == table.version


def test_an_illegal_move_links_to_its_rule(table_with_two):
    table, host, guest = table_with_two
    turn = table.state["turn"]
    phone = host if turn == 0 else guest
    response = phone.post(
        f"/es/t/{table.code}/act/",
        {
            "seat": str(turn),
            "version": str(table.version),
            "action_id": "too-many-sets",
            "kind": "cross",
            "value": "1",
            "sets": "3",
        },
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert 'href="/es/rules/triggs/#T-C-CAP"' in html


def test_only_the_host_frees_seats_and_closes(table_with_two):
    table, host, guest = table_with_two
    assert guest.post(f"/es/t/{table.code}/close/").status_code == 409
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert host.post(f"/es/t/{table.code}/free/", {"index": "1"}).status_code == 302
    assert Seat.objects.get(table=table, index=1).token_hash == ""
    # The freed phone is now a spectator: its page has no sheet to tap.
    assert 'id="score-sheet"' not in guest.get(f"/es/t/{table.code}/").content.decode()
    assert host.post(f"/es/t/{table.code}/close/").status_code == 302
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def test_only_the_host_switches_the_table_phrases_off_and_on(table_with_two):
    table, host, guest = table_with_two
    url = f"/el/t/{table.code}/phrases/"
    assert "Απενεργοποίηση φράσεων τραπεζιού" in host.get(f"/el/t/{table.code}/").content.decode()
    refused = guest.post(url, {"on": "0"})
    assert refused.status_code == 409
    assert "Μόνο ο οικοδεσπότης μπορεί να το κάνει αυτό." in refused.content.decode()
    for bad in ({"on": "maybe"}, {}):
        assert host.post(url, bad).status_code == 400
    assert Table.objects.get(pk=table.pk).phrases
    assert host.post(url, {"on": "0"}).status_code == 302
    assert not Table.objects.get(pk=table.pk).phrases
    html = guest.get(f"/el/t/{table.code}/").content.decode()
    assert "Ο οικοδεσπότης απενεργοποίησε τις φράσεις του τραπεζιού." in html
    assert 'name="phrase"' not in html
    assert "Ενεργοποίηση φράσεων τραπεζιού" in host.get(f"/el/t/{table.code}/").content.decode()
    assert host.post(url, {"on": "1"}).status_code == 302
    html = guest.get(f"/el/t/{table.code}/").content.decode()
    assert html.count('name="phrase"') == 8 + 6  # the common phrases and Triggs's own
    assert "Τι αλυσίδα!" in html


def test_a_seat_moves_to_another_phone_once(table_with_two):
    table, _host, guest = table_with_two
    html = guest.post(f"/es/t/{table.code}/handover/", {"seat": "1"}).content.decode()
    url = re.search(r'value="http://testserver(/es/h/[^"]+)"', html).group(1)
    new_phone = Client()
    assert new_phone.get(url).status_code == 200  # a link preview moves nothing
    assert new_phone.post(url).status_code == 302
    assert 'id="score-sheet"' in new_phone.get(f"/es/t/{table.code}/?seat=1").content.decode()
    assert 'id="score-sheet"' not in guest.get(f"/es/t/{table.code}/").content.decode()
    assert Client().post(url).status_code == 410  # one time only


def test_one_phone_holds_several_seats(client):
    create(client, players="3")
    table = Table.objects.get()
    client.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    html = client.get(f"/es/t/{table.code}/?seat=1").content.decode()
    assert 'aria-label="Jugadores en este móvil"' in html
    assert 'href="?seat=0"' in html and 'href="?seat=1"' in html


def test_the_game_needs_every_seat_before_it_starts(client):
    create(client)
    table = Table.objects.get()
    response = client.post(f"/es/t/{table.code}/start/", {"action_id": "start-early"})
    assert response.status_code == 409
    assert Table.objects.get().status == Table.Status.LOBBY


def test_every_refusal_code_has_a_translated_sentence():
    """Each engine's codes (of every mode) are worded by its game's adapter or, for the
    codes every engine shares, by games.labels; so are the table layer's and adapters'."""
    from pathlib import Path

    from games.registry import GAMES

    root = Path(__file__).resolve().parents[2] / "games"
    shared = set(labels.REFUSALS)
    for path in [*root.glob("*.py"), *root.glob("views/*.py")]:
        assert not set(re.findall(r'Refused\("([a-z_]+)"', path.read_text())) - shared, path
    for game in GAMES.values():
        codes = set()
        for mode in game.modes:
            codes |= set(game.engine(mode).IllegalAction.CODES)
        # the adapter's module, or every module of its package
        web_file = Path(sys.modules[game.web.__class__.__module__].__file__)
        web_files = web_file.parent.glob("*.py") if web_file.name == "__init__.py" else [web_file]
        for path in web_files:
            codes |= set(re.findall(r'Refused\("([a-z_]+)"', path.read_text()))
        assert not sorted(codes - shared - set(game.web.refusals)), game.slug


def test_the_turn_marker_can_be_switched_off(client):
    client.post("/es/play/", {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"})
    table = Table.objects.get()
    assert table.config["turn_marker"] is False
    Client().post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    client.post(f"/es/t/{table.code}/start/", {"action_id": "start-0002"})
    html = client.get(f"/es/t/{table.code}/").content.decode()
    assert "Turno de" not in html and "Es tu turno" not in html
    assert 'value="pass"' not in html  # nobody has turns to pass
    assert "button" in html and 'name="box"' in html  # anyone may cross at any time


def test_dates_are_formatted_by_babel_for_the_language(table_with_two):
    from babel.dates import format_datetime

    table, host, _guest = table_with_two
    for lang, locale in (("ru", "ru"), ("el", "el"), ("fr", "fr")):
        html = host.get(f"/{lang}/t/{table.code}/").content.decode()
        assert format_datetime(table.created, format="medium", locale=locale) in html


def test_cached_sheet_rows_carry_each_tables_own_address_and_fields():
    """The rows of a sheet are rendered once per process and shared by every table with
    the same row; the sheet is one form (games.render stamps its address and hidden
    fields in last), its boxes the buttons."""
    pages = []
    for lang in ("es", "es", "fr"):
        host = Client()
        code = create(host, lang=lang)["Location"].split("/")[3]
        Client().post(f"/{lang}/join/{code}/", {"seat": "1", "name": "Boris"})
        host.post(f"/{lang}/t/{code}/start/", {"action_id": f"start-{code}"})
        pages.append((code, lang, host.get(f"/{lang}/t/{code}/").content.decode()))
    for code, lang, html in pages:
        sheet = re.findall(
            r'<form class="play-sheet" id="score-sheet" method="post" action="([^"]*)"', html
        )
        assert sheet == [f"/{lang}/t/{code}/act/"]
        body = html[html.index('id="score-sheet"') :].split("</form>")[0]
        assert len(re.findall(r'<div id="row-\d+" class="play-row', body)) == 12
        version = Table.objects.get(code=code).version
        assert body.count(f'name="version" value="{version}"') == 1
        assert body.count('name="csrfmiddlewaretoken"') == 1
        assert 'name="kind" value="cross"' in body and 'name="box" value="12:1"' in body
        assert "<!--" not in html  # no stamp left unfilled
    assert "Tachar" in pages[0][2] and "Cocher" in pages[2][2]  # each in its own language


def test_shared_fragments_carry_each_phones_own_csrf_token(table_with_two):
    """The status line and the table tools are drawn once per language and content
    (games.render.Fragments, and the regions holding them: games.render.drawn); the
    token in their forms is each phone's own, and the host's forms work with it."""
    from games import render

    table, host, guest = table_with_two
    host.cookies.load({"csrftoken": "a" * 32})
    guest.cookies.load({"csrftoken": "b" * 32})
    render.fragments.clear()
    render.drawn.clear()
    pages = [c.get(f"/es/t/{table.code}/").content.decode() for c in (host, host, guest)]
    regions = pages[0].count('class="region ')
    assert render.drawn.hits >= regions > 4  # the host's second page drew none anew
    tools = [page[page.index('<details class="panel tools">') :] for page in pages]
    tokens = [re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', part) for part in tools]
    assert [len(found) for found in tokens] == [1, 1, 1]  # the tools are one form
    # the host moves their seat, frees Boris, switches the phrases, leaves and closes
    buttons = [re.findall(r'<button formaction="([^"]+)"', part) for part in tools]
    assert [len(found) for found in buttons] == [5, 5, 2]
    assert (
        f"/es/t/{table.code}/free/" in buttons[0] and f"/es/t/{table.code}/free/" not in buttons[2]
    )
    assert not set(tokens[0] + tokens[1]) & set(re.findall(r'value="([^"]+)"', pages[2]))
    assert all("<!--" not in page for page in pages)  # no stamp left unfilled
    assert "Liberar el asiento de Boris" in pages[0] and "Liberar" not in pages[2]
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = host.cookies
    form = {"csrfmiddlewaretoken": tokens[0][0], "index": "1", "seat": "0"}
    assert strict.post(f"/es/t/{table.code}/free/", form).status_code == 302
    assert not Seat.objects.get(table=table, index=1).taken


def test_sheets_are_drawn_once_per_language_and_content_and_escape_names():
    from games.triggs import web as render

    render.play_row.cache_clear()
    rows = [render.play_row(lang, 9, 1, "cross") for lang in ("es", "es", "fr")]
    assert rows[0] is rows[1]  # the same row in the same language: drawn once
    assert render.play_row.cache_info().hits == 1
    assert "Tachar" in rows[0] and "Cocher" in rows[2]
    # one box is crossed: the three open ones are buttons crossing 1, 2 or 3 boxes
    assert re.findall(r'name="box" value="9:(\d)"', rows[0]) == ["1", "2", "3"]
    assert render.play_row("es", 9, 4, None).count("<button") == 0  # a full row
    mini = render.mini_sheet((0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0), "<b>Ana</b>")
    assert "&lt;b&gt;Ana&lt;/b&gt;" in mini and "<b>" not in mini
    with translation.override("el"):  # no words: the same drawing in every language
        assert render.mini_sheet((0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0), "<b>Ana</b>") is mini
    assert mini.count("✕") == 2 and "2/4" in mini  # row 9: two crossed of four
    assert mini.count("<tr") == 12 and mini.count("<td>") == 24  # end tags left out
    # another player, with their small sheet: once per language and what it shows
    render.other_sheet.cache_clear()
    crossed = (0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
    spanish = render.other_sheet("es", 1, "<b>Ana</b>", crossed, 5, True)
    assert render.other_sheet("es", 1, "<b>Ana</b>", crossed, 5, True) is spanish
    assert render.other_sheet.cache_info().hits == 1
    assert 'id="other-1"' in spanish and "<b>" not in spanish and mini in spanish
    assert "5 cartas en la mano" in spanish and "su turno" in spanish and "2/42" in spanish
    french = render.other_sheet("fr", 1, "<b>Ana</b>", crossed, 1, False)
    assert "1 carte en main" in french and "their-turn" not in french


def test_piles_are_drawn_once_per_content_with_their_buttons():
    from games.triggs import web as render

    render.pile_slot.cache_clear()
    left = render.pile_slot("left", "Izquierdo", 7, 21, True, True)
    assert render.pile_slot("left", "Izquierdo", 7, 21, True, True) is left
    assert render.pile_slot.cache_info().hits == 1
    # a pile to draw the first card from: a button of the draw form, its top card shown
    assert re.search(r'<button name="first" value="left"[^>]*class="t-pile pickable"', left)
    assert 'data-pile-top="7">7<' in left and "Izquierdo · " in left and ">21<" in left
    # the second card: the pile the first came from shows what it uncovered
    taken = render.pile_slot("left", "Izquierdo", 3, 20, True, True, True, True)
    assert (
        '<button name="second"' in taken
        and 'class="pile-face uncovered" data-pile-top="3"' in taken
    )
    stock = render.pile_slot("stock", "Central", None, 44, False, False)
    assert "<button" not in stock and "face-down" in stock and "pile-face back" in stock
    discard = render.pile_slot("discard", "Descarte", None, 0)
    assert "discard-pile" in discard and "pile-face empty" in discard and "<button" not in discard


def test_a_hand_and_the_proposals_are_drawn_once_per_content():
    from games.triggs import web as render

    render.hand_cards.cache_clear()
    playing = render.hand_cards((3, 7, 7), True)
    assert render.hand_cards((3, 7, 7), True) is playing  # in any language: no words
    assert render.hand_cards.cache_info().hits == 1
    assert re.findall(r'<input type="checkbox" name="card" value="(\d+)">', playing) == [
        "3",
        "7",
        "7",
    ]
    seen = render.hand_cards((3, 7, 7), False)
    assert "checkbox" not in seen and seen.count('class="hand-card" data-card="7"') == 2
    assert render.hand_cards((), True) == ""
    # the rows still open, to cross with ticked cards
    assert (
        render.row_options((2, 11)) == '<option value="2">2</option><option value="11">11</option>'
    )
    # a row's proposals: one button per number of sets, the one filling the row starred
    render.cross_row.cache_clear()
    spanish = render.cross_row("es", 11, ((11,), (11,), (1, 10)), 3)
    assert render.cross_row("es", 11, ((11,), (11,), (1, 10)), 3) is spanish
    assert render.cross_row.cache_info().hits == 1
    assert re.findall(r'name="box" value="([^"]+)"', spanish) == [
        "11:11",
        "11:11|11",
        "11:11|11|1+10",
    ]
    assert (
        spanish.count(' class="fills"') == 1
        and 'aria-label="Tachar 11 ×3: 11 · 11 · 1+10 ★"' in spanish
    )
    french = render.cross_row("fr", 11, ((11,), (11,), (1, 10)), 4)
    assert "Cocher 11 ×1\xa0: 11" in french and "fills" not in french


def test_a_refused_create_form_keeps_every_choice(client):
    fields = {"game": "triumfdrez", "mode": "digital", "players": "3", "target": "70", "name": ""}
    response = client.post("/fr/play/", fields)
    assert response.status_code == 400
    html = response.content.decode()
    assert '<a href="?game=triumfdrez" aria-current="page">' in html
    assert re.search(r'<input type="radio" name="mode" value="digital"[^>]* checked', html)
    assert re.search(r'<input type="radio" name="players" value="3"[^>]* checked', html)
    assert re.search(r'name="target" value="70"', html)
    with translation.override("fr"):
        assert str(labels.REFUSALS["bad_name"]) in html
    assert not Table.objects.exists()


def test_the_create_form_shows_only_the_chosen_games_options(client):
    triggs = client.get("/es/play/?game=triggs").content.decode()
    drez = client.get("/es/play/?game=triumfdrez").content.decode()
    assert 'name="turn_marker"' in triggs and 'name="target"' not in triggs
    assert 'name="target"' in drez and 'name="turn_marker"' not in drez
    assert client.get("/es/play/").content.decode().count('aria-current="page"') == 1


def test_a_full_table_says_so_and_offers_to_watch(table_with_two):
    table, _host, _guest = table_with_two
    html = Client().get(f"/ru/join/{table.code}/").content.decode()
    assert 'id="table-full"' in html and 'id="join-seat"' not in html
    with translation.override("ru"):
        assert str(translation.gettext("This table is full: every seat is taken.")) in html
    assert f'href="/ru/t/{table.code}/" class="button"' in html
