"""Tables over plain HTTP: create, join by code or link, start, act with form
POSTs (no WebSocket needed), hand a seat over, and the host's powers."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games import labels, phones
from games.models import Action, Seat, Table, hash_token
from games.registry import GAMES, Game

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


def players_choice():
    return labels.players_choice(GAMES["triggs"])


def target_range():
    return labels.number_range(*GAMES["triumfdrez"].web.option_range("target"))


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"name": ""}, lambda: labels.REFUSALS["bad_name"]),
        ({"name": "x" * 25}, lambda: labels.REFUSALS["bad_name"]),
        ({"players": "5"}, players_choice),
        ({"players": "two"}, players_choice),
        ({"mode": "online"}, lambda: labels.REFUSALS["bad_request"]),
        ({"game": "chess"}, lambda: labels.REFUSALS["bad_request"]),
        ({"game": "triumfdrez", "target": "5"}, target_range),
        ({"game": "triumfdrez", "target": "5000"}, target_range),
    ],
)
def test_bad_table_settings_are_refused_and_create_nothing(client, fields, message):
    response = create(client, lang="el", **fields)
    assert response.status_code == 400
    html = response.content.decode()
    with translation.override("en"):
        assert str(message()) not in html  # not the English source…
    with translation.override("el"):
        assert str(message()) in html  # …but Greek
    assert not Table.objects.exists()


@pytest.mark.parametrize("lang", ["en", "es", "el", "ru", "fr"])
def test_the_sentences_of_counts_and_ranges_come_from_the_registry_and_the_adapter(lang):
    """No shared module repeats a game's numbers: the counts are the registry's, the range
    the option field's own, listed and written as each language does."""
    game = GAMES["triumfdrez"]
    assert game.web.option_range("target") == (10, 500)
    assert game.web.option_range("first") is None
    wanted = {
        "en": ("Choose 2, 3, or 4 players.", "Choose a number from 10 to 500."),
        "es": ("Elige 2, 3 o 4 jugadores.", "Elige un número entre 10 y 500."),
        "el": ("Επιλέξτε 2, 3 ή 4 παίκτες.", "Επιλέξτε έναν αριθμό από 10 έως 500."),
        "ru": ("Выберите 2, 3 или 4 игрока.", "Выберите число от 10 до 500."),
        "fr": ("Choisissez 2, 3 ou 4 joueurs.", "Choisissez un nombre entre 10 et 500."),
    }
    with translation.override(lang):
        assert (labels.players_choice(game), target_range()) == wanted[lang]
        two = Game(**{**game.__dict__, "min_players": 2, "max_players": 2})
        assert (
            labels.players_choice(two)
            == {
                "en": "Choose 2 players.",
                "es": "Elige 2 jugadores.",
                "el": "Επιλέξτε 2 παίκτες.",
                "ru": "Выберите 2 игрока.",
                "fr": "Choisissez 2 joueurs.",
            }[lang]
        )


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
        web = root.parent / game.web.__class__.__module__.replace(".", "/")
        for path in (
            [web.with_suffix(".py")] if web.with_suffix(".py").exists() else web.glob("*.py")
        ):
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


def test_shared_regions_carry_each_phones_own_csrf_token(table_with_two, monkeypatch):
    """A region whose inputs are those of a recent render in the same language is not
    rendered again, for any phone (games.regions.rendered); the token in its forms is
    filled in per phone, and the host's forms work with it."""
    from games import regions

    table, host, guest = table_with_two
    host.cookies.load({"csrftoken": "a" * 32})
    guest.cookies.load({"csrftoken": "b" * 32})
    regions.rendered.clear()
    rendered, real = [], regions.render
    monkeypatch.setattr(regions, "render", lambda t, c: rendered.append(t) or real(t, c))
    pages = []
    for client in (host, host, guest):
        rendered.clear()
        pages.append(client.get(f"/es/t/{table.code}/").content.decode())
        if len(pages) == 2:  # the host's second page: every region as before
            assert rendered == []
    tools = [page[page.index('<details class="panel tools">') :] for page in pages]
    tokens = [re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', part) for part in tools]
    assert [len(found) for found in tokens] == [1, 1, 1]  # the tools are one form
    # the host moves their seat, frees Boris, switches the phrases and who may act for an
    # absent seat, leaves and closes
    buttons = [re.findall(r'<button formaction="([^"]+)"', part) for part in tools]
    assert [len(found) for found in buttons] == [6, 6, 2]
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


def test_sheet_rows_and_other_players_sheets_escape_names_in_each_language():
    from django.template.loader import render_to_string

    from games.triggs.web import screens

    def row(lang, value, done, mode):
        sheet = [0] * 12
        sheet[value - 1] = done
        data = screens.play_rows(sheet, cross=mode == "cross")[value - 1]
        with translation.override(lang):
            return render_to_string("games/triggs/_play_sheet.html#rows", {"rows": [data]})

    rows = [row(lang, 9, 1, "cross") for lang in ("es", "fr")]
    assert "Tachar" in rows[0] and "Cocher" in rows[1]
    # one box is crossed: the three open ones are buttons crossing 1, 2 or 3 boxes
    assert re.findall(r'name="box" value="9:(\d)"', rows[0]) == ["1", "2", "3"]
    assert row("es", 9, 4, None).count("<button") == 0  # a full row
    # a short row's count fills it to its end (the style), no blank box nor inline style
    assert rows[0].rstrip().endswith('<span class="row-count">1/4</span>\n</div><!--/part-->')
    assert "spacer" not in rows[0] and "style=" not in rows[0]
    # another player, with their small sheet
    view = {"sheets": [[0] * 12, [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]], "hand_sizes": [3, 5]}
    other = screens.others(view, {1: "<b>Ana</b>"}, lambda seat: seat == 1)[1]

    def other_html(lang, other):
        with translation.override(lang):
            return render_to_string(
                "games/triggs/_others.html", {"others": [other], "total_boxes": 42}
            )

    spanish = other_html("es", other)
    assert 'id="other-1"' in spanish and "<b>" not in spanish
    assert 'aria-label="&lt;b&gt;Ana&lt;/b&gt;"' in spanish
    mini = spanish[spanish.index('<table class="mini-sheet"') :]
    assert mini.count("✕") == 2 and "2/4" in mini  # row 9: two crossed of four
    assert mini.count("<tr") == 12 and mini.count("<td>") == 24  # end tags left out
    assert "5 cartas en la mano" in spanish and "su turno" in spanish and "2/42" in spanish
    french = other_html("fr", {**other, "hand_size": 1, "turn": False})
    assert "1 carte en main" in french and "their-turn" not in french


def pile_html(**pile):
    from django.template.loader import render_to_string

    defaults = {"face_up": True, "drawable": False, "second": False, "uncovered": False}
    from games.triggs.web.screens import keyed

    pile = keyed({**defaults, "discard": pile["name"] == "discard", **pile})
    context = {"board": {"piles": [pile]}, "panel": {}}
    return render_to_string("games/triggs/_digital.html#piles", context)


def test_piles_show_their_top_count_and_buttons():
    left = pile_html(name="left", label="Izquierdo", top=7, count=21, drawable=True)
    # a pile to draw the first card from: a button of the draw form, its top card shown
    assert re.search(r'<button name="first" value="left"[^>]*class="t-pile pickable"', left)
    assert 'data-pile-top="7">7<' in left and "Izquierdo · " in left and ">21<" in left
    # the second card: the pile the first came from shows what it uncovered
    taken = pile_html(
        name="left", label="Izquierdo", top=3, count=20, drawable=True, second=True, uncovered=True
    )
    assert (
        '<button name="second"' in taken
        and 'class="pile-face uncovered" data-pile-top="3"' in taken
    )
    stock = pile_html(name="stock", label="Central", top=None, count=44, face_up=False)
    assert "<button" not in stock and "face-down" in stock and "pile-face back" in stock
    discard = pile_html(name="discard", label="Descarte", top=None, count=0)
    assert "discard-pile" in discard and "pile-face empty" in discard and "<button" not in discard


def test_a_hand_and_the_proposals():
    from django.template.loader import render_to_string

    from games.triggs.web import screens, words

    def hand_html(cards, playing):
        panel = {"hand": [card["value"] for card in cards], "hand_cards": cards, "playing": playing}
        title = words.hand_title(len(cards), translation.get_language())
        panel |= {"ways": "{}", "open_rows": [1, 12], "hand_title": title}
        return render_to_string("games/triggs/_digital.html#hand", {"panel": panel})

    hand = screens.hand_cards((3, 7, 7))
    playing = hand_html(hand, True)
    assert re.findall(r'<input type="checkbox" name="card" value="(\d+)">', playing) == [
        "3",
        "7",
        "7",
    ]
    assert '<option value="1">1</option><option value="12">12</option>' in playing
    seen = hand_html(hand, False)
    assert "checkbox" not in seen and seen.count('class="hand-card" data-card="7"') == 2
    # each card keyed by its value and which of that value it is: a card drawn moves in
    assert re.findall(r'data-anim="(h[\d-]+)"', seen) == ["h3-1", "h7-1", "h7-2"]
    # its title counts the cards, in the phone's language, one card or many
    with translation.override("es"):
        assert ">Tu mano · 3 cartas</h2>" in hand_html(hand, False)
        assert ">Tu mano · 1 carta</h2>" in hand_html(hand[:1], False)
    with translation.override("ru"):
        assert ">Ваша рука · 3 карты</h2>" in hand_html(hand, False)
    assert "hand-card" not in hand_html((), True)
    # a row's proposals: one button per number of sets, the one filling the row starred
    option = {"value": 11, "sets": [[11], [11], [1, 10]], "room": 3}

    def proposals(lang, option):
        with translation.override(lang):
            return render_to_string(
                "games/triggs/_digital.html#crosses",
                {"panel": {"crosses": [screens.cross_row(option)]}},
            )

    spanish = proposals("es", option)
    assert re.findall(r'name="box" value="([^"]+)"', spanish) == [
        "11:11",
        "11:11|11",
        "11:11|11|1+10",
    ]
    assert (
        spanish.count(' class="fills"') == 1
        and 'aria-label="Tachar 11 ×3: 11 · 11 · 1+10 ★"' in spanish
    )
    french = proposals("fr", {**option, "room": 4})
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


def test_who_starts_offers_the_seats_of_the_game_only():
    """The lobby's "who plays first" lists the seats its game may have, not a fixed four."""
    from games.forms import CreateTableForm

    for most in (2, 3, 4):
        game = Game(**{**GAMES["triggs"].__dict__, "max_players": most})
        values = [value for value, _text in CreateTableForm(game).fields["first"].choices]
        assert values == ["random", *map(str, range(most))]
