"""What an attacker's form posts get (issue 17, items 4, 6, 14, 16): a clear, translated
refusal and nothing changed — never a server error."""

import pytest
from django.test import Client

from games.models import Action, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def lobby_table():
    host, guest = Client(), Client()
    fields = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}
    code = host.post("/es/play/", {**fields, "turn_marker": "on"})["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    return Table.objects.get(code=code), host, guest


@pytest.mark.parametrize("action_id", ["a" * 64 + "\n", "a" * 65, "start\x00\x00\x00", "short"])
def test_a_hosts_start_with_a_bad_action_id_is_refused(lobby_table, action_id):
    table, host, _guest = lobby_table
    response = host.post(f"/es/t/{table.code}/start/", {"action_id": action_id})
    assert response.status_code == 400
    assert "No se ha entendido" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY and not Action.objects.exists()


def test_a_move_with_a_bad_action_id_is_refused(lobby_table):
    table, host, guest = lobby_table
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    table.refresh_from_db()
    turn = table.state["turn"]
    phone = host if turn == 0 else guest
    move = {"seat": str(turn), "version": str(table.version), "kind": "cross", "value": "9"}
    for action_id in ("a" * 64 + "\n", f"bot:{table.version}", "import:1"):
        response = phone.post(
            f"/es/t/{table.code}/act/", {**move, "sets": "1", "action_id": action_id}
        )
        assert response.status_code == 400
    assert Action.objects.filter(table=table).count() == 1  # the start only


def test_a_seat_freed_meanwhile_cannot_move(lobby_table):
    """The form path checks the phone's seat in the move's own transaction, as the
    WebSocket does."""
    table, host, guest = lobby_table
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    host.post(f"/es/t/{table.code}/free/", {"index": "1", "seat": "0"})
    table.refresh_from_db()
    move = {"seat": "1", "version": str(table.version), "kind": "cross", "value": "9", "sets": "1"}
    response = guest.post(f"/es/t/{table.code}/act/", {**move, "action_id": "freed-0001"})
    assert response.status_code == 409
    assert "no tiene ese asiento" in response.content.decode()
    assert Action.objects.filter(table=table).count() == 1


def test_deals_come_from_128_bit_seeds(lobby_table):
    table, host, _guest = lobby_table
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    seed = Action.objects.get(table=table).action["seed"]
    assert isinstance(seed, int) and 64 < seed.bit_length() <= 128  # 48 bits were too few
    table.refresh_from_db()
    assert table.state["seed"] == seed


def test_a_freed_seat_of_a_digital_game_in_play_goes_to_a_computer_player(settings):
    """Item 5: the host cannot free a seat mid-game and claim its hand from another
    browser (nor can a spectator race for it)."""
    host, guest = Client(), Client()
    fields = {"game": "triumfdrez", "mode": "digital", "players": "2", "name": "Ana"}
    code = host.post("/es/play/", {**fields, "target": "50"})["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    table = Table.objects.get(code=code)
    hand = table.state["hands"][1]
    host.post(f"/es/t/{code}/free/", {"index": "1", "seat": "0"})
    seat = table.seats.get(index=1)
    assert (seat.kind, seat.token_hash) == ("bot", "")  # a computer player plays it now
    for claimer in (host, Client()):  # the seat is not free: nobody may claim its hand
        response = claimer.post(f"/es/join/{code}/", {"seat": "1", "name": "Mallory"})
        assert response.status_code == 400
    page = Client().get(f"/es/t/{code}/").content.decode()
    assert not any(f'data-card="{card}"' in page for card in hand)


def test_a_handover_link_works_once_and_expires(monkeypatch):
    from games import services

    host, guest = Client(), Client()
    fields = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}
    code = host.post("/es/play/", fields)["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})

    def link():
        html = guest.post(f"/es/t/{code}/handover/", {"seat": "1"}).content.decode()
        return html.split('value="http://testserver')[1].split('"')[0]

    assert Client().post(link()[:-4] + "abc/").status_code == 410  # altered
    url = link()
    monkeypatch.setattr(services, "HANDOVER_MAX_AGE", -1)  # as if 15 minutes had gone
    response = Client().post(url)
    assert response.status_code == 410 and "ha caducado" in response.content.decode()
    monkeypatch.setattr(services, "HANDOVER_MAX_AGE", 900)
    assert Client().post(url).status_code == 302
