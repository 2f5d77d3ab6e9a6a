"""At a real table nothing blocks (issue 36): the host, or any seated phone if the table
allows it, enters a companion move for a seat whose phone is gone or away; the log says
who entered it; a correction waiting for a seat gone a while is answered by the host."""

import time

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from games import presence
from games.models import Action, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nobody_here():
    """Presence notes live in this process's memory in tests (no Redis): start empty."""
    presence.NOTES.tables.clear()
    presence.NOTES.last.clear()
    yield
    presence.NOTES.tables.clear()
    presence.NOTES.last.clear()


def here(code, seat, state=presence.HERE):
    async_to_sync(presence.NOTES.note)(code, f"socket-{seat}", [seat], state)


def table_of_three(game="triggs", mode="companion", act_for="host", **extra):
    ana, boris, clara = Client(), Client(), Client()
    fields = {"game": game, "mode": mode, "players": "3", "name": "Ana", "first": "0"}
    fields.update(act_for=act_for, turn_marker="on", **extra)
    response = ana.post("/es/play/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    code = response["Location"].split("/")[3]
    boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    clara.post(f"/es/join/{code}/", {"seat": "2", "name": "Clara"})
    ana.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    return code, ana, boris, clara


def move(client, code, seat, **fields):
    version = Table.objects.get(code=code).version
    data = {"seat": str(seat), "version": str(version), "action_id": f"id-{version:012d}"}
    return client.post(f"/es/t/{code}/act/", {**data, **fields})


def page(client, code, lang="es", query=""):
    return " ".join(client.get(f"/{lang}/t/{code}/{query}").content.decode().split())


def state(code):
    return Table.objects.get(code=code).state


def test_the_host_enters_a_turn_for_an_absent_seat_and_the_log_says_so():
    code, ana, boris, clara = table_of_three()
    assert Table.objects.get(code=code).act_for == Table.ActFor.HOST
    assert move(ana, code, 0, kind="cross", value="7", sets="1").status_code == 302
    assert state(code)["turn"] == 1
    html = page(ana, code, query="?seat=0&for=1")
    assert "Turno de Boris." in html and "Es tu turno" not in html
    # Boris's phone died: Ana (the host) enters his turn, the marker moves on to Clara
    response = move(ana, code, 0, kind="pass", **{"for": "1"})
    assert response.status_code == 302 and "for=1" in response["Location"]
    assert state(code)["turn"] == 2
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by) == (1, 0)
    first = Action.objects.filter(table__code=code, version=2).get()
    assert first.acted_by is None
    # … and crosses for Clara too (the host may enter for any other seat)
    assert move(ana, code, 0, kind="cross", value="5", sets="2", **{"for": "2"}).status_code == 302
    assert state(code)["sheets"][2][4] == 2 and state(code)["turn"] == 0
    lines = {
        "es": "Boris (jugada introducida por Ana) robó o descartó.",
        "el": "Boris (καταχώριση: Ana) τράβηξε ή ξεσκαρτάρισε.",
        "ru": "Boris (ход внесён игроком Ana) берёт карты или сбрасывает.",
        "fr": "Boris (coup saisi par Ana) pioche ou défausse.",
    }
    for lang, line in lines.items():
        assert line in page(clara, code, lang), lang
    assert "Ana tachó 7 ×1." in page(clara, code)


def test_the_panel_switches_to_the_seat_entered_for():
    code, ana, boris, clara = table_of_three()
    html = page(ana, code, query="?seat=0&for=1")
    assert "Estás introduciendo jugadas por Boris" in html
    assert "Tabla de Boris · 0/42" in html and "Tu tabla" not in html
    assert "Turno de Ana." in html
    assert '<input type="hidden" name="for" value="1">' in html
    assert 'id="act-for-seat"' in html and ">Clara</option>" in html
    # a seat nobody may enter for is not offered, nor switched to
    plain = page(boris, code, query="?seat=1&for=0")
    assert "Estás introduciendo" not in plain and 'id="act-for-seat"' not in plain
    assert 'name="for"' not in plain
    # the table tools say who may act for an absent seat
    assert "Solo el anfitrión puede introducir jugadas por otro asiento" in page(ana, code)


def test_a_player_who_is_not_the_host_is_refused_unless_the_table_allows_any():
    code, ana, boris, clara = table_of_three()
    response = move(boris, code, 1, kind="pass", **{"for": "0"})
    assert response.status_code == 409
    assert "En esta mesa solo el anfitrión puede introducir" in response.content.decode()
    assert state(code)["turn"] == 0
    assert Action.objects.filter(table__code=code).count() == 1


def test_any_seated_player_may_enter_for_an_absent_seat_when_the_table_allows_it():
    code, ana, boris, clara = table_of_three(act_for="any")
    assert Table.objects.get(code=code).act_for == Table.ActFor.ANY
    here(code, 0)  # Ana's phone is here: she enters her own turn
    response = move(boris, code, 1, kind="pass", **{"for": "0"})
    assert response.status_code == 409
    assert "El móvil de ese jugador está aquí" in response.content.decode()
    assert state(code)["turn"] == 0
    # Boris's page asking to act for Ana passes it on to its socket, which knows she is here
    assert "&amp;seat=1&amp;for=0" in page(boris, code, query="?seat=1&for=0")
    here(code, 0, presence.AWAY)  # her page is hidden: away
    assert move(boris, code, 1, kind="pass", **{"for": "0"}).status_code == 302
    assert state(code)["turn"] == 1
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by) == (0, 1)
    # a correction proposed from a phone acting for Boris is its own seat's proposal …
    response = move(
        clara, code, 2, kind="correct", target="1", value="3", crosses="1", **{"for": "1"}
    )
    assert response.status_code == 302
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by) == (2, None)
    assert state(code)["correction"] == {"by": 2, "seat": 1, "value": 3, "crosses": 1}
    # … and only the host answers it for Boris
    response = move(clara, code, 2, kind="confirm", **{"for": "1"})
    assert response.status_code == 409
    assert "Solo el anfitrión puede hacerlo." in response.content.decode()


def test_a_game_of_hidden_hands_is_refused():
    ana, boris = Client(), Client()
    fields = {"game": "triggs", "mode": "digital", "players": "2", "name": "Ana"}
    code = ana.post("/es/play/", fields)["Location"].split("/")[3]
    boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    ana.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    before = Table.objects.get(code=code).version
    response = move(ana, code, 0, kind="draw", sources="stock", **{"for": "1"})
    assert response.status_code == 409
    assert "En un juego con cartas ocultas nadie puede" in response.content.decode()
    assert Table.objects.get(code=code).version == before
    assert 'id="act-for-seat"' not in page(ana, code)


def test_the_host_confirms_a_correction_for_a_seat_gone_a_while():
    code, ana, boris, clara = table_of_three()
    assert move(boris, code, 0, kind="pass", **{"for": "0"}).status_code == 409
    assert move(ana, code, 0, kind="cross", value="7", sets="2").status_code == 302
    fix = {"kind": "correct", "target": "0", "value": "7", "crosses": "1"}
    assert move(clara, code, 2, **fix).status_code == 302
    assert state(code)["correction"] is not None
    # a correction of Ana's own sheet is hers to answer, on her phone
    assert move(ana, code, 0, kind="reject").status_code == 302
    # Clara's proposal on Boris's row; Boris's phone went a moment ago
    fix = {"kind": "correct", "target": "1", "value": "3", "crosses": "1"}
    assert move(clara, code, 2, **fix).status_code == 302
    presence.NOTES.last.setdefault(code, {})[1] = time.time() - 5
    response = move(ana, code, 0, kind="confirm", **{"for": "1"})
    assert response.status_code == 409
    assert "cuando su móvil lleva un minuto sin conexión" in response.content.decode()
    assert state(code)["sheets"][1][2] == 0
    # only the host answers for a seat
    presence.NOTES.last[code][1] = time.time() - 120
    response = move(clara, code, 2, kind="confirm", **{"for": "1"})
    assert response.status_code == 409
    assert state(code)["sheets"][1][2] == 0
    # gone for two minutes: the host confirms for Boris
    assert move(ana, code, 0, kind="confirm", **{"for": "1"}).status_code == 302
    assert state(code)["sheets"][1][2] == 1 and state(code)["correction"] is None
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by, last.action) == (1, 0, {"type": "confirm"})
    lines = {
        "es": "Ana confirmó por Boris la corrección de su tabla.",
        "el": "Ana επιβεβαίωσε για λογαριασμό του/της Boris τη διόρθωση του πίνακά του/της.",
        "ru": "Ana подтверждает за игрока Boris исправление его таблицы.",
        "fr": "Ana confirme pour Boris la correction de sa grille.",
    }
    for lang, line in lines.items():
        assert line in page(clara, code, lang), lang


def test_a_bid_entered_for_another_seat_on_the_triumfdrez_tracker_says_who_entered_it():
    host, guest = Client(), Client()
    fields = {"game": "triumfdrez", "mode": "companion", "players": "2", "name": "Ana"}
    code = host.post("/es/play/", {**fields, "target": "50", "first": "1"})["Location"].split("/")[
        3
    ]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    assert state(code)["turn"] == 0  # the seat after the dealer bids first
    # Boris's phone enters the bid of the turn's seat, Ana's
    bid = {"kind": "bid", "tricks": "7", "trump": "joker", "supertrump": "1"}
    response = move(guest, code, 1, **bid)
    assert response.status_code == 302, response.content.decode()[:3000]
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by) == (0, 1)
    # Boris enters his own pass: his own
    assert move(guest, code, 1, kind="pass").status_code == 302
    last = Action.objects.filter(table__code=code).latest("version")
    assert (last.seat, last.acted_by) == (1, None)
    html = page(host, code)
    assert "Ana (jugada introducida por Boris) propuso 7" in html
    assert "Boris anotó «paso»." in html


def test_the_host_switches_who_may_act_for_an_absent_seat_from_the_table_tools():
    code, ana, boris, clara = table_of_three()
    assert "Permitir a cualquier jugador introducir jugadas" in page(ana, code)
    assert "Permitir a cualquier jugador" not in page(boris, code)  # the host's tool
    assert boris.post(f"/es/t/{code}/act-for/", {"on": "1"}).status_code == 409
    assert Table.objects.get(code=code).act_for == Table.ActFor.HOST
    assert ana.post(f"/es/t/{code}/act-for/", {"on": "1"}).status_code == 302
    assert Table.objects.get(code=code).act_for == Table.ActFor.ANY
    html = page(boris, code)
    assert "Cualquier jugador sentado puede introducir jugadas por un asiento" in html
    # Clara's phone is gone: Boris enters her turn when it comes
    assert move(ana, code, 0, kind="pass").status_code == 302
    assert move(boris, code, 1, kind="pass").status_code == 302
    assert (
        move(boris, code, 1, kind="cross", value="4", sets="1", **{"for": "2"}).status_code == 302
    )
    assert state(code)["sheets"][2][3] == 1 and state(code)["turn"] == 0
    assert ana.post(f"/es/t/{code}/act-for/", {"on": "0"}).status_code == 302
    assert Table.objects.get(code=code).act_for == Table.ActFor.HOST
    # a TriumfDrez tracker is shared by the table already: no such option
    host = Client()
    fields = {"game": "triumfdrez", "mode": "companion", "players": "2", "name": "Ana"}
    other = host.post("/es/play/", {**fields, "target": "50"})["Location"].split("/")[3]
    html = page(host, other)
    assert "introducir jugadas por otro asiento" not in html
    assert 'name="act_for"' not in " ".join(
        host.get("/es/play/?game=triumfdrez").content.decode().split()
    )
    assert 'name="act_for"' in " ".join(host.get("/es/play/?game=triggs").content.decode().split())


def test_who_entered_a_move_survives_export_import_and_shows_in_the_replay():
    from games import transfer

    code, ana, boris, clara = table_of_three()
    assert move(ana, code, 0, kind="cross", value="7", sets="1").status_code == 302
    assert move(ana, code, 0, kind="pass", **{"for": "1"}).status_code == 302
    exported = transfer.export_session(Table.objects.get(code=code))
    assert exported["actions"][-1] == {
        "version": 3,
        "seat": 1,
        "action": {"type": "pass"},
        "acted_by": 0,
    }
    assert "acted_by" not in exported["actions"][-2]
    (copy,) = transfer.import_sessions(transfer.export_bytes(Table.objects.get(code=code)))
    assert list(copy.actions.values_list("seat", "acted_by")) == [(None, None), (0, None), (1, 0)]
    # the replay, at that step, says who entered Boris's turn
    html = page(ana, code, query="replay/?step=3")
    assert "Boris (jugada introducida por Ana) robó o descartó." in html
    assert "Boris (jugada introducida por Ana)" not in page(ana, code, query="replay/?step=2")
