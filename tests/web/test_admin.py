"""The staff admin (issue 8): tables as saved sessions — the list and its queries, a
table's page, replay, export and import, the staff actions, the purge command — and
that only staff with the right permissions get in."""

import io
import json
import random
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from games import admin as staff
from games import admin_views, labels, live, replay, services, transfer
from games.models import Action, Seat, Table
from games.registry import GAMES
from tests.tables import config

pytestmark = pytest.mark.django_db

ADMIN = "/es/admin/games/table/"
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")


# -- building sessions through the services -------------------------------------------------


def new_table(game="triggs", mode="companion", players=2):
    table, host, _token = services.create_table(game, mode, config(game, mode, players), NAMES[0])
    for index in range(1, players):
        services.claim_seat(table, index, NAMES[index])
    return table, host


def play(table, host, moves, seed=1):
    """Start the table and play up to `moves` random legal actions (no undos)."""
    services.start_table(table, host, "start")
    engine = GAMES[table.game].engine(table.mode)
    rng = random.Random(seed)
    for n in range(moves):
        table.refresh_from_db()
        state = table.state
        legal = [a for a in engine.legal_actions(state) if not a["type"].startswith("undo")]
        if not legal:
            break
        seat = state.get("extra_seat")
        seat = state["turn"] if seat is None else seat
        services.apply_action(table, seat or 0, rng.choice(legal), table.version, f"move-{n}")
    table.refresh_from_db()
    return table


def session(game="triggs", mode="companion", moves=12, players=3, seed=1):
    table, host = new_table(game, mode, players)
    return play(table, host, moves, seed)


def age(table, days):
    Table.objects.filter(pk=table.pk).update(updated=timezone.now() - timedelta(days=days))
    Seat.objects.filter(table=table).update(last_seen=timezone.now() - timedelta(days=days))


# -- who gets in ----------------------------------------------------------------------------


@pytest.fixture
def superuser_client(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("boss", password=None))
    return client


# No passwords: force_login needs none, and hashing them is slow.
def _staff(django_user_model, username, perms=()):
    user = django_user_model.objects.create_user(username, password=None, is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="games", codename__in=perms)
    )
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def bare_staff_client(django_user_model):
    return _staff(django_user_model, "bare")


@pytest.fixture
def viewer_client(django_user_model):
    return _staff(django_user_model, "viewer", ["view_table"])


@pytest.fixture
def player_client(django_user_model):
    user = django_user_model.objects.create_user("player", password=None)
    client = Client()
    client.force_login(user)
    return client


def pages(table):
    """(method, url, data) of every admin page and action of a table."""
    action = {"_selected_action": [table.pk], "days": "1"}
    return [
        ("get", ADMIN, {}),
        ("get", f"{ADMIN}{table.pk}/change/", {}),
        ("get", f"{ADMIN}{table.pk}/replay/", {}),
        ("get", f"{ADMIN}{table.pk}/export/", {}),
        ("get", f"{ADMIN}{table.pk}/history/", {}),
        ("get", f"{ADMIN}import/", {}),
        ("post", f"{ADMIN}import/", {}),
        ("post", f"{ADMIN}{table.pk}/seats/1/free/", {}),
        ("post", f"{ADMIN}{table.pk}/seats/1/bot/", {}),
        *(
            ("post", ADMIN, {**action, "action": name})
            for name in ("close_tables", "archive_tables", "purge_tables", "export_tables")
        ),
    ]


def test_non_staff_are_sent_to_the_login_and_see_no_data(client, player_client):
    table = session(moves=3)
    before = Seat.objects.get(table=table, index=1).token_hash
    for visitor in (client, player_client):
        for method, url, data in pages(table):
            response = getattr(visitor, method)(url, data)
            assert response.status_code == 302, url
            assert response["Location"].startswith("/es/admin/login/"), url
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Seat.objects.get(table=table, index=1).token_hash == before


def test_staff_without_permissions_are_refused(bare_staff_client):
    table = session(moves=3)
    for method, url, data in pages(table):
        response = getattr(bare_staff_client, method)(url, data)
        assert response.status_code == 403, url
        assert table.code.encode() not in response.content
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_viewers_read_replay_and_export_but_change_nothing(viewer_client):
    table = session(moves=3)
    for url in ("", f"{table.pk}/change/", f"{table.pk}/replay/", f"{table.pk}/history/"):
        response = viewer_client.get(f"{ADMIN}{url}")
        assert response.status_code == 200, url
        assert table.code in response.content.decode()
    response = viewer_client.get(f"{ADMIN}{table.pk}/export/")
    assert json.loads(response.content)["code"] == table.code
    assert viewer_client.get(f"{ADMIN}import/").status_code == 403
    assert viewer_client.post(f"{ADMIN}{table.pk}/seats/1/bot/").status_code == 403
    html = viewer_client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert "/seats/1/bot/" not in html  # no seat buttons without the change permission
    viewer_client.post(ADMIN, {"action": "close_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    # The form itself never edits a table, even for those who may change tables.
    assert viewer_client.post(f"{ADMIN}{table.pk}/change/", {}).status_code == 403


def test_superusers_reach_every_page(superuser_client):
    table = session(moves=3)
    for url in ("", f"{table.pk}/change/", f"{table.pk}/replay/", "import/"):
        assert superuser_client.get(f"{ADMIN}{url}").status_code == 200, url
    assert superuser_client.get("/es/admin/").status_code == 200
    assert superuser_client.post(f"{ADMIN}{table.pk}/change/", {}).status_code == 403
    assert superuser_client.get(f"{ADMIN}{table.pk}/delete/").status_code == 403
    assert superuser_client.get(f"{ADMIN}{table.pk}/seats/1/bot/").status_code == 405


# -- the list -------------------------------------------------------------------------------


def test_the_list_shows_each_session_and_filters_and_searches(superuser_client):
    triggs = session("triggs", "companion", moves=4, players=2)
    drez = session("triumfdrez", "digital", moves=6, players=4)
    lobby, _host = new_table("triumfdrez", "companion", 3)
    admin_views.make_bot(drez, 2)
    html = superuser_client.get(ADMIN).content.decode()
    for table in (triggs, drez, lobby):
        assert table.code in html
    with translation.override("es"):
        bot = labels.bot_name(2, "heuristic", GAMES["triumfdrez"])
    assert f"Ana, Boris, {bot}, Dmitri" in html
    assert "3 mesas" in html
    assert f'<td class="field-action_count">{drez.version}</td>' in html
    assert f'<td class="field-action_count">{triggs.version}</td>' in html

    def codes(query):
        html = superuser_client.get(ADMIN, query).content.decode()
        return {t.code for t in (triggs, drez, lobby) if t.code in html}

    assert codes({"game": "triggs"}) == {triggs.code}
    assert codes({"mode__exact": "digital"}) == {drez.code}
    assert codes({"status__exact": "lobby"}) == {lobby.code}
    assert codes({"q": "dmitri"}) == {drez.code}
    assert codes({"q": lobby.code.lower()}) == {lobby.code}
    assert codes({"archived__exact": "1"}) == set()
    since = (timezone.now() - timedelta(days=1)).isoformat()
    assert codes({"updated__gte": since}) == {triggs.code, drez.code, lobby.code}
    assert codes({"_facets": "True", "status__exact": "playing"}) == {triggs.code, drez.code}
    # Searching joins the seats: the action counts must not be multiplied by it.
    html = superuser_client.get(ADMIN, {"q": "a"}).content.decode()
    assert f'<td class="field-action_count">{drez.version}</td>' in html


def test_the_list_costs_the_same_queries_for_5_or_30_tables(superuser_client):
    def count_queries():
        superuser_client.get(ADMIN)  # warm the session and the user
        with CaptureQueriesContext(connection) as queries:
            response = superuser_client.get(ADMIN)
        assert response.status_code == 200
        return len(queries)

    for n in range(5):
        session(moves=2, players=3, seed=n)
    five = count_queries()
    for n in range(25):
        session(moves=2, players=3, seed=n)
    assert Table.objects.count() == 30
    assert count_queries() == five <= 10


# -- a table's page --------------------------------------------------------------------------


def test_the_table_page_shows_seats_settings_state_and_log_but_no_token(superuser_client):
    table = session("triumfdrez", "companion", moves=5, players=3)
    seat = Seat.objects.get(table=table, index=1)
    html = superuser_client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert seat.token_hash not in html and table.host_token_hash not in html
    assert "token_hash" not in html and "handover" not in html
    assert "Boris" in html and "Chloé" in html
    assert "&quot;target&quot;: 50" in html  # the settings, pretty-printed
    assert "&quot;history&quot;" in html and "&quot;seed&quot;" in html  # the whole state
    assert "Empezó el juego." in html  # the log in words (the game's adapter), in Spanish
    assert html.count("<tr><td>") == table.version
    assert f"/admin/games/table/{table.pk}/replay/" in html
    assert f"/admin/games/table/{table.pk}/seats/1/free/" in html
    # computer players sit at digital tables only (games.services.seat_bot)
    assert f"/admin/games/table/{table.pk}/seats/1/bot/" not in html


# -- replay ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, mode, players",
    [
        ("triggs", "companion", 3),
        ("triumfdrez", "companion", 3),
        ("triggs", "digital", 2),
        ("triumfdrez", "digital", 4),
    ],
)
def test_replay_reproduces_the_saved_session_and_each_seat_view(
    superuser_client, game, mode, players
):
    table = session(game, mode, moves=25, players=players)
    result = replay.replay_table(table)
    assert result.faithful and result.steps == table.version
    assert result.final == table.state
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert 'id="replay-divergence"' not in html
    assert f"Paso {table.version} de {table.version}" in html
    for index in range(players):
        assert f"Lo que ve Asiento {index + 1} · {NAMES[index]}" in html
    assert "Lo que ve un espectador" in html
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/", {"step": 2}).content.decode()
    assert f"Paso 2 de {table.version}" in html
    assert 'href="?step=1"' in html and 'href="?step=3"' in html
    assert f'href="?step={table.version}"' in html
    first = replay.run(table.game, table.mode, table.config, replay.table_log(table), keep=1)
    assert first.state == GAMES[game].engine(mode).new_game(table.config, first.state["seed"])


def test_hidden_cards_appear_in_the_full_state_but_not_in_other_seats_views():
    table = session("triumfdrez", "digital", moves=3, players=4)
    result = replay.replay_table(table)
    seen = dict(replay.views(table.game, table.mode, result.state, table.players))
    assert result.state["hands"][1] == seen[1]["hand"]
    assert "hand" not in seen[None] and "hidden" in result.state
    assert result.state["hands"][1][0] not in json.dumps(seen[0])


def test_a_tampered_saved_state_is_flagged_at_its_step(superuser_client):
    table = session("triggs", "companion", moves=8)
    state = table.state
    state["sheets"][0][0] = 2
    Table.objects.filter(pk=table.pk).update(state=state)
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert 'id="replay-divergence"' in html
    assert f"diverge en el paso {table.version}" in html
    assert "sheets" in html


def test_a_refused_action_or_a_gap_in_the_log_is_flagged(superuser_client):
    table = session("triumfdrez", "companion", moves=6)
    Action.objects.filter(table=table, version=3).update(action={"type": "bid", "tricks": 99})
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert "diverge en el paso 3" in html
    assert "Paso 2 de 2" in html  # what did replay can still be stepped through
    Action.objects.filter(table=table, version=3).delete()
    result = replay.replay_table(table)
    assert (result.divergence.step, result.divergence.code) == (3, "bad_version")


def test_a_lobby_table_is_not_started(superuser_client):
    table, _host = new_table()
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert 'id="replay-not-started"' in html and "replay-divergence" not in html


# -- export and import -----------------------------------------------------------------------


def upload(client, data: bytes, lang="es"):
    file = SimpleUploadedFile("session.json", data, content_type="application/json")
    return client.post(f"/{lang}/admin/games/table/import/", {"session": file})


def test_export_then_import_gives_a_new_resumable_table(superuser_client):
    table = session("triumfdrez", "digital", moves=9, players=3)
    admin_views.make_bot(table, 2)
    response = superuser_client.get(f"{ADMIN}{table.pk}/export/")
    assert response["Content-Disposition"] == (
        f'attachment; filename="session-triumfdrez-{table.code}.json"'
    )
    document = json.loads(response.content)
    assert document["format"] == transfer.FORMAT and document["format_version"] == 1
    assert document["seats"][2] == {
        "index": 2,
        "name": "",  # a computer player's name is worded on each phone
        "kind": "bot",
        "bot_level": "heuristic",  # TriumfDrez's default computer player
    }
    assert document["final"] == {"version": table.version, "sha256": replay.state_hash(table.state)}
    assert "hash" not in json.dumps(document["seats"]) and "token" not in response.content.decode()

    response = upload(superuser_client, response.content)
    copy = Table.objects.exclude(pk=table.pk).get()
    assert response["Location"] == f"{ADMIN}{copy.pk}/change/"
    assert copy.code != table.code and copy.host_token_hash != table.host_token_hash
    assert (copy.state, copy.version, copy.config) == (table.state, table.version, table.config)
    assert copy.status == Table.Status.PLAYING and copy.actions.count() == table.version
    assert list(copy.seats.values_list("name", "kind", "token_hash")) == [
        ("Ana", "human", ""),
        ("Boris", "human", ""),
        ("", "bot", ""),
    ]
    assert replay.replay_table(copy).faithful
    # Players take their seats again and play on.
    services.claim_seat(copy, 0, "Ana")
    engine = GAMES[copy.game].engine(copy.mode)
    move = engine.legal_actions(copy.state)[0]
    services.apply_action(copy, copy.state["turn"], move, copy.version, "after-import")
    copy.refresh_from_db()
    assert copy.version == table.version + 1


def _document():
    return transfer.export_session(session("triggs", "companion", moves=6))


def _with(**changes):
    def change(document):
        document.update(changes)
        return document

    return change


def _illegal(document):
    document["actions"][2]["action"] = {"type": "cross", "value": 13, "sets": 1}
    return document


def _altered_sheet(document):
    document["final"]["sha256"] = "0" * 64
    return document


def _name_not_text(document):
    document["seats"][0]["name"] = 7
    return document


def _gap(document):
    del document["actions"][3]
    return document


@pytest.mark.parametrize(
    "tamper, reason",
    [
        (lambda d: b"{not json", "not_json"),
        (lambda d: "\u00e9".encode("latin-1"), "not_json"),
        (lambda d: [1, 2], "bad_format"),
        (_with(format="something-else"), "bad_format"),
        (_with(format_version=2), "bad_format_version"),
        (_with(game="chess"), "unknown_game"),
        (_with(mode="paper"), "unknown_mode"),
        (_with(config={"players": 9}), "bad_config"),
        (_with(config={"players": 3, "turn_marker": "yes"}), "bad_config"),
        (_illegal, "diverges"),
        (_gap, "diverges"),
        (_altered_sheet, "hash_mismatch"),
        (_with(final={"version": 99, "sha256": "0" * 64}), "version_mismatch"),
        (_name_not_text, "bad_field"),
        (_with(actions="all of them"), "bad_field"),
        (_with(seed=True), "bad_field"),
        (_with(actions=[]), "not_started"),
        (_with(seats=[]), "bad_seats"),
        (lambda d: b" " * (transfer.MAX_BYTES + 1), "too_large"),
    ],
)
def test_bad_or_tampered_files_are_refused_with_the_reason_and_create_nothing(
    superuser_client, tamper, reason
):
    document = tamper(_document())
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    before = (Table.objects.count(), Seat.objects.count(), Action.objects.count())
    response = upload(superuser_client, data, lang="fr")
    assert response.status_code == 400
    assert (Table.objects.count(), Seat.objects.count(), Action.objects.count()) == before
    with pytest.raises(transfer.ImportRejected) as refused:
        transfer.parse(data)
    assert refused.value.code == reason
    html = response.content.decode()
    with translation.override("fr"):
        message = refused.value.message
    with translation.override("en"):
        assert refused.value.message not in html  # not the English source…
    assert message in html.replace("&#x27;", "'").replace("&quot;", '"')  # …but French


def _refused_upload(client, data: bytes, lang="fr") -> str:
    """The page of a refused upload, checked to have created nothing."""
    before = (Table.objects.count(), Seat.objects.count(), Action.objects.count())
    response = upload(client, data, lang)
    assert response.status_code == 400
    assert (Table.objects.count(), Seat.objects.count(), Action.objects.count()) == before
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


@pytest.mark.parametrize(
    "name, shown",
    [
        ("Ana\u202e", "Ana\\u202e"),  # a right-to-left override
        ("\u202dAna", "\\u202dAna"),  # a left-to-right override
        ("\u2067Ana\u2069", "\\u2067Ana\\u2069"),  # a right-to-left isolate
        ("An\u200ba", "An\\u200ba"),  # a zero-width space
        ("Ana\x07", "Ana\\x07"),  # a control character
        (" Ana", " Ana"),  # a space the site would have dropped
        ("Ana  Pérez", "Ana  Pérez"),
        ("\u3164", "\u3164"),  # a Hangul filler: nothing visible
        ("A" * 25, "A" * 25),  # longer than services.NAME_MAX
    ],
)
def test_a_seat_name_the_site_would_not_store_as_it_is_is_refused(superuser_client, name, shown):
    document = _document()
    document["seats"][1]["name"] = name
    data = json.dumps(document).encode()
    html = _refused_upload(superuser_client, data)
    with pytest.raises(transfer.ImportRejected) as refused:
        transfer.parse(data)
    rejected = refused.value
    assert rejected.code == "bad_name" and rejected.params["field"] == "seats[1].name"
    with translation.override("fr"):
        message = rejected.message
    assert message.startswith("Le nom du champ «\u00a0seats[1].name\u00a0» («\u00a0")
    assert f"«\u00a0{shown}\u00a0»" in message and message in html
    if not name.isprintable():  # what draws nothing is shown as its escape
        assert name not in html


def test_seat_names_as_the_site_stores_them_are_imported(superuser_client):
    document = _document()
    document["seats"][1]["name"] = "María José"
    document["seats"][2]["name"] = "Γιώργος 🃏"
    response = upload(superuser_client, json.dumps(document).encode())
    assert response.status_code == 302
    copy = Table.objects.latest("pk")
    assert list(copy.seats.values_list("name", flat=True)) == ["Ana", "María José", "Γιώργος 🃏"]


def _with_bot(document, level):
    document["seats"][2].update(kind="bot", name="", bot_level=level)
    return document


def test_a_computer_player_of_a_level_the_game_does_not_have_is_refused(superuser_client):
    table = session("triumfdrez", "digital", moves=2, players=3)
    admin_views.make_bot(table, 2)
    exported = transfer.export_session(table)
    # "greedy" is Triggs's, not TriumfDrez's; "" is no level at all
    for level in ("god", "greedy", "", "strong\u202e"):
        data = json.dumps(_with_bot(json.loads(json.dumps(exported)), level)).encode()
        html = _refused_upload(superuser_client, data)
        with pytest.raises(transfer.ImportRejected) as refused:
            transfer.parse(data)
        rejected = refused.value
        assert rejected.code == "unknown_level", level
        assert rejected.params["field"] == "seats[2].bot_level"
        with translation.override("fr"):
            message = rejected.message
        assert message in html
        assert message.startswith("Niveau de l’ordinateur inconnu dans le champ «\u00a0seats[2]")
        assert message.endswith(
            "Les niveaux de TriumfDrez sont\u00a0: heuristic, strong, hard, random."
        )
    assert "strong\\u202e" in html and "\u202e" not in html
    # each of the game's own levels is imported
    for level in ("heuristic", "strong", "random"):
        response = upload(superuser_client, json.dumps(_with_bot(exported, level)).encode())
        assert response.status_code == 302, level
        assert Table.objects.latest("pk").seats.get(index=2).bot_level == level


def test_a_zip_with_a_bad_name_or_level_names_the_file_and_imports_nothing(superuser_client):
    good = transfer.export_bytes(session(moves=3, seed=1))
    named = _document()
    named["seats"][0]["name"] = "\u202eanA"
    leveled = _with_bot(_document(), "clever")
    for bad, reason in ((named, "bad_name"), (leveled, "unknown_level")):
        members = {"good.json": good, "odd-one.json": json.dumps(bad), "also.json": good}
        html = _refused_zip(superuser_client, _zip(members))
        with pytest.raises(transfer.ImportRejected) as refused:
            transfer.parse_upload(_zip(members))
        rejected = refused.value
        assert rejected.code == "in_archive" and rejected.params["file"] == "odd-one.json"
        assert rejected.inner.code == reason
        with translation.override("fr"):
            assert rejected.message in html
        assert "odd-one.json" in html and "Rien n’a été importé." in html


def test_importing_without_a_file_says_so(superuser_client):
    response = superuser_client.post(f"{ADMIN}import/")
    assert response.status_code == 400
    assert "Elige un archivo de juego para importar." in response.content.decode()


def test_exporting_several_sessions_gives_a_zip_of_documents(superuser_client):
    tables = [session(moves=3, seed=n) for n in range(2)]
    lobby, _host = new_table()
    selected = [t.pk for t in (*tables, lobby)]
    response = superuser_client.post(
        ADMIN, {"action": "export_tables", "_selected_action": selected}
    )
    assert response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = sorted(archive.namelist())
        assert names == sorted(transfer.export_filename(t) for t in tables)
        for table in tables:
            document = json.loads(archive.read(transfer.export_filename(table)))
            assert document["final"]["sha256"] == replay.state_hash(table.state)
    response = superuser_client.post(
        ADMIN, {"action": "export_tables", "_selected_action": [tables[0].pk]}
    )
    assert json.loads(response.content)["code"] == tables[0].code


# -- staff actions ---------------------------------------------------------------------------


def test_closing_tables_tells_their_phones(
    superuser_client, monkeypatch, django_capture_on_commit_callbacks
):
    told = []
    monkeypatch.setattr(live, "broadcast", lambda code, version=None, snap=None: told.append(code))
    tables = [session(moves=2, seed=n) for n in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        response = superuser_client.post(
            ADMIN,
            {"action": "close_tables", "_selected_action": [t.pk for t in tables]},
            follow=True,
        )
    assert "2 mesas cerradas." in response.content.decode()
    assert set(Table.objects.values_list("status", flat=True)) == {Table.Status.CLOSED}
    assert sorted(told) == sorted(t.code for t in tables)
    with pytest.raises(services.Refused):
        services.apply_action(tables[0], 0, {"type": "pass"}, tables[0].version, "late")
    html = superuser_client.get(f"{ADMIN}{tables[0].pk}/history/").content.decode()
    assert "Modificado estado." in html  # the history names the field in Spanish


def test_archiving_keeps_only_finished_games(superuser_client):
    finished = session("triumfdrez", "companion", moves=400)
    assert finished.status == Table.Status.FINISHED
    playing = session(moves=2)
    response = superuser_client.post(
        ADMIN,
        {"action": "archive_tables", "_selected_action": [finished.pk, playing.pk]},
        follow=True,
    )
    html = response.content.decode()
    assert "1 mesa archivada." in html
    finished.refresh_from_db()
    playing.refresh_from_db()
    assert finished.archived and finished.status == Table.Status.CLOSED
    assert not playing.archived and playing.status == Table.Status.PLAYING
    html = superuser_client.get(ADMIN, {"archived__exact": "1"}).content.decode()
    assert finished.code in html and playing.code not in html


def test_the_purge_action_deletes_only_selected_abandoned_tables(superuser_client):
    old, recent = session(moves=2), session(moves=2, seed=2)
    age(old, 40)
    age(recent, 2)
    selected = [old.pk, recent.pk]
    superuser_client.post(
        ADMIN, {"action": "purge_tables", "_selected_action": selected, "days": "0"}
    )
    assert Table.objects.count() == 2  # an invalid number of days deletes nothing
    response = superuser_client.post(
        ADMIN,
        {"action": "purge_tables", "_selected_action": selected, "days": "30"},
        follow=True,
    )
    assert list(Table.objects.values_list("code", flat=True)) == [recent.code]
    assert not Action.objects.filter(table_id=old.pk).exists()
    assert "1 mesa abandonada eliminada." in response.content.decode()


def test_freeing_a_seat_and_giving_it_to_a_computer(superuser_client):
    table = session(moves=2)  # companion: no hidden hand
    html = superuser_client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert f'formaction="/es/admin/games/table/{table.pk}/seats/1/free/"' in html
    response = superuser_client.post(f"{ADMIN}{table.pk}/seats/1/free/")
    assert response["Location"] == f"{ADMIN}{table.pk}/change/"
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.token_hash, seat.kind, seat.name) == ("", "human", "Boris")
    services.claim_seat(table, 1, "Boris")  # the seat can be claimed again
    table = session(mode="digital", moves=2)
    superuser_client.post(f"{ADMIN}{table.pk}/seats/2/bot/")
    seat = Seat.objects.get(table=table, index=2)
    assert (seat.token_hash, seat.kind, seat.bot_level) == (
        "",
        "bot",
        "greedy",
    )  # Triggs's default computer player
    assert superuser_client.post(f"{ADMIN}{table.pk}/seats/7/bot/").status_code == 302
    assert superuser_client.post(f"{ADMIN}{table.pk}/seats/1/paint/").status_code == 404


# -- the purge command -----------------------------------------------------------------------


def test_the_purge_command_deletes_only_old_abandoned_tables():
    old_lobby, _host = new_table()
    old_playing = session(moves=2, seed=2)
    old_closed = session(moves=2, seed=3)
    staff.close_table(old_closed)
    old_finished = session("triumfdrez", "companion", moves=400)
    old_archived = session("triumfdrez", "companion", moves=400, seed=5)
    staff.archive_table(old_archived)
    seen_lately = session(moves=2, seed=6)
    recent = session(moves=2, seed=7)
    for table in (old_lobby, old_playing, old_closed, old_finished, old_archived, seen_lately):
        age(table, 40)
    Seat.objects.filter(table=seen_lately, index=0).update(last_seen=timezone.now())
    doomed = {old_lobby.code, old_playing.code, old_closed.code}

    out = io.StringIO()
    call_command("purge_tables", "--days", "30", "--dry-run", stdout=out)
    assert Table.objects.count() == 7
    listed = {line.split()[0] for line in out.getvalue().splitlines() if line.startswith(" ")}
    assert listed == doomed
    assert "3" in out.getvalue().splitlines()[-1]

    call_command("purge_tables", "--days", "30", stdout=io.StringIO())
    kept = set(Table.objects.values_list("code", flat=True))
    assert kept == {old_finished.code, old_archived.code, seen_lately.code, recent.code}

    call_command("purge_tables", "--days", "50", stdout=io.StringIO())
    assert Table.objects.count() == 4


def test_greek_admin_pages_do_not_fall_back_to_spanish(superuser_client):
    """Django's Greek catalogue lacks some admin strings (games/django_gaps.py fills them):
    without them these pages would show Spanish, the site's default language."""
    table = session()
    for url in (
        "/el/admin/",
        "/el/admin/games/table/",
        f"/el/admin/games/table/{table.pk}/change/",
    ):
        html = superuser_client.get(url).content.decode()
        for spanish in ("Empieza a escribir", "Mostrar recuentos", "Saltar al contenido principal"):
            assert spanish not in html, (url, spanish)
    changelist = superuser_client.get("/el/admin/games/table/").content.decode()
    assert "Πληκτρολογήστε για φιλτράρισμα" in changelist


# -- the edges an attacker tries (issue 17, items 9 and 15) ----------------------------------


@pytest.mark.parametrize("days", ["1000000", "99999999999999999999", "36501", "0", "-3", "x"])
def test_the_purge_action_refuses_days_out_of_range_and_deletes_nothing(superuser_client, days):
    old = session(moves=2)
    age(old, 40)
    response = superuser_client.post(
        ADMIN, {"action": "purge_tables", "_selected_action": [old.pk], "days": days}, follow=True
    )
    assert response.status_code == 200
    assert Table.objects.filter(pk=old.pk).exists()
    html = response.content.decode()
    assert f"Introduce un número de días entre 1 y {staff.MAX_PURGE_DAYS}." in html


@pytest.mark.parametrize("days", ["1000000", "36501", "0"])
def test_the_purge_command_refuses_days_out_of_range_with_a_clear_error(days):
    old = session(moves=2)
    age(old, 40)
    with pytest.raises(CommandError, match=r"--days must be from 1 to 36500"):
        call_command("purge_tables", "--days", days, stdout=io.StringIO())
    assert Table.objects.filter(pk=old.pk).exists()


@pytest.mark.parametrize(
    "query",
    ["q=%00", "q=Ana%00", "game=%00", "mode__exact=%00", "status__exact=%00x", "%00=1"],
)
def test_a_nul_in_the_lists_search_or_filters_is_dropped(superuser_client, query):
    table = session(moves=2)
    response = superuser_client.get(f"{ADMIN}?{query}", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "\x00" not in html and "errornote" not in html
    if query in ("q=%00", "game=%00", "q=Ana%00"):
        assert table.code in html  # an empty search (or filter) lists every table


def _zip(members: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def upload_zip(client, data: bytes, lang="es"):
    file = SimpleUploadedFile("sessions.zip", data, content_type="application/zip")
    return client.post(f"/{lang}/admin/games/table/import/", {"session": file})


def test_the_zip_of_several_exported_sessions_imports_them_all(superuser_client):
    tables = [session(moves=3, seed=1), session("triumfdrez", "digital", moves=5, seed=2)]
    exported = superuser_client.post(
        ADMIN, {"action": "export_tables", "_selected_action": [t.pk for t in tables]}
    )
    assert exported["Content-Type"] == "application/zip"
    response = upload_zip(superuser_client, exported.content)
    assert response.status_code == 302 and response["Location"] == ADMIN
    copies = Table.objects.exclude(pk__in=[t.pk for t in tables])
    assert copies.count() == 2
    for table in tables:
        copy = copies.get(game=table.game)
        assert (copy.state, copy.version, copy.config) == (table.state, table.version, table.config)
        assert copy.actions.count() == table.version and replay.replay_table(copy).faithful
    html = superuser_client.get(ADMIN).content.decode()
    assert "2 juegos importados como las mesas" in html
    assert all(copy.code in html for copy in copies)
    # A zip of one session is that session's page, as its JSON file would be.
    alone = _zip({"one.json": transfer.export_bytes(tables[0])})
    response = upload_zip(superuser_client, alone)
    copy = Table.objects.exclude(pk__in=[t.pk for t in (*tables, *copies)]).get()
    assert response["Location"] == f"{ADMIN}{copy.pk}/change/"


def _refused_zip(client, data: bytes, lang="fr") -> str:
    before = (Table.objects.count(), Seat.objects.count(), Action.objects.count())
    response = upload_zip(client, data, lang)
    assert response.status_code == 400
    assert (Table.objects.count(), Seat.objects.count(), Action.objects.count()) == before
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


def test_a_zip_with_one_refused_session_imports_none_and_names_the_file(superuser_client):
    good = transfer.export_bytes(session(moves=3, seed=1))
    bad = _altered_sheet(_document())
    html = _refused_zip(
        superuser_client,
        _zip({"good.json": good, "tampered-one.json": json.dumps(bad), "also.json": good}),
    )
    with translation.override("fr"):
        reason = str(labels.IMPORT_REASONS["hash_mismatch"])
    assert "tampered-one.json" in html and reason in html
    assert "Rien n’a été importé." in html


@pytest.mark.parametrize(
    "members, reason, file",
    [
        ({}, "empty_archive", None),
        ({"notes.txt": b"hello"}, "not_json", "notes.txt"),
        ({"big.json": b" " * (transfer.MAX_BYTES + 1)}, "too_large", "big.json"),
        (
            {f"s{n}.json": b"{}" for n in range(transfer.MAX_SESSIONS + 1)},
            "too_many_sessions",
            None,
        ),
    ],
)
def test_a_zip_that_is_empty_too_big_or_not_sessions_is_refused(
    superuser_client, members, reason, file
):
    html = _refused_zip(superuser_client, _zip(members))
    with pytest.raises(transfer.ImportRejected) as refused:
        transfer.parse_upload(_zip(members))
    rejected = refused.value
    assert (rejected.inner.code if file else rejected.code) == reason
    assert rejected.params.get("file") == file
    with translation.override("fr"):
        assert rejected.message in html


def test_a_damaged_zip_is_refused():
    data = _zip({"one.json": b"{}"})
    with pytest.raises(transfer.ImportRejected) as refused:
        transfer.parse_upload(data[:-30])
    assert refused.value.code == "bad_archive"


def test_a_refusal_echoes_at_most_40_characters_of_the_format_version(superuser_client):
    for found, shown in (
        ("x" * 1_000_000, "x" * 40 + "…"),
        (["v"] * 100_000, "[…]"),
        (2, "2"),
    ):
        document = _with(format_version=found)(_document())
        response = upload(superuser_client, json.dumps(document).encode())
        assert response.status_code == 400
        html = response.content.decode()
        assert len(html) < 50_000
        assert f"versión de formato {shown};" in html
