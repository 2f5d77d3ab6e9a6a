"""Playing online (issue 19) over plain HTTP and in the services: the lobby's online
options, open tables and "Play now", "play for me" and taking the seat back, a computer
player taking over a gone seat and handing it back, leaving the table, the turn clock and
an open table that fills with computer players. The timers that fire these live in the
consumers: tests/realtime/test_online.py."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import autoplay, online, open_tables, services
from games.models import Action, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)  # computer players move on commit


@pytest.fixture(autouse=True)
def bots_at_once(settings):
    settings.BOT_DELAY = 0


def code_of(response) -> str:
    return response["Location"].split("/")[3]


def create(client, **fields) -> Table:
    data = {"game": "triggs", "mode": "digital", "players": "2", "name": "Ana", **fields}
    response = client.post("/es/play/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(code=code_of(response))


def started(takeover=None, clock=None, game="triggs") -> tuple[Table, Client, Client]:
    host, guest = Client(), Client()
    fields = {"game": game}
    if game == "triumfdrez":
        fields["target"] = "50"
    if takeover:
        fields["takeover"] = str(takeover)
    if clock:
        fields["clock"] = clock
    table = create(host, **fields)
    guest.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    table.refresh_from_db()
    return table, host, guest


def to_act(table) -> int:
    from games.registry import get_game

    table.refresh_from_db()
    (seat,) = get_game(table.game).engine(table.mode).to_act(table.state)
    return seat


# -- the lobby's options -----------------------------------------------------------------


def test_the_lobby_offers_the_online_options_in_every_language():
    words = {
        "es": "Abierta a cualquiera",
        "el": "Ανοιχτό σε όλους",
        "ru": "Открыт для всех",
        "fr": "Ouverte à tous",
    }
    for lang, text in words.items():
        page = Client().get(f"/{lang}/play/").content.decode()
        assert text in page, lang
        assert 'name="takeover"' in page and 'name="clock"' in page


def test_a_digital_table_keeps_its_online_options():
    table = create(
        Client(), open="on", fill_after="120", takeover="60", takeover_level="", clock="5+15"
    )
    assert table.open and table.fill_after == 120 and table.takeover == 60
    assert table.clock == online.clock_new(5, 15) and table.lang == "es"


@pytest.mark.parametrize(
    "fields",
    [
        {"takeover": "10"},
        {"takeover": "301"},
        {"clock": "99+0"},
        {"fill_after": "5"},
        {"takeover_level": "god"},
    ],
)
def test_options_out_of_range_are_refused_and_nothing_is_created(fields):
    data = {"game": "triggs", "mode": "digital", "players": "2", "name": "Ana", **fields}
    response = Client().post("/es/play/", data)
    assert response.status_code == 400
    assert "La configuración de la mesa no es válida." in response.content.decode()
    assert not Table.objects.exists()


def test_a_companion_table_cannot_be_open_or_have_a_clock():
    for extra in ({"open": "on"}, {"clock": "5+15"}):
        data = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana", **extra}
        response = Client().post("/es/play/", data)
        assert response.status_code == 400
        assert "Solo una mesa digital" in response.content.decode()
    assert not Table.objects.exists()
    with pytest.raises(services.Refused):
        services.create_table(
            "triggs", "companion", {"players": 2}, "Ana", services.Online(open=True)
        )


# -- open tables and "Play now" ----------------------------------------------------------


def test_the_open_tables_list_only_digital_tables_waiting_for_players():
    listed = create(Client(), open="on")
    create(Client())  # not open
    full = create(Client(), open="on")
    Client().post(f"/es/join/{full.code}/", {"seat": "1", "name": "Boris"})
    full.refresh_from_db()
    assert full.status == Table.Status.PLAYING  # an open table starts once full
    page = Client().get("/fr/open/").content.decode()
    assert listed.code in page and full.code not in page
    assert "1 place libre sur 2" in page and "Español" in page
    assert 'ws-connect="/ws/open/?lang=fr"' in page


def test_play_now_sits_at_the_oldest_open_table_or_opens_one():
    older = create(Client(), open="on", players="3")
    create(Client(), open="on")
    first = Client().post("/el/open/play/", {"game": "triggs", "name": "Γιώργος"})
    assert code_of(first) == older.code
    assert older.seats.get(index=1).name == "Γιώργος"
    other = Client().post("/el/open/play/", {"game": "triumfdrez", "name": "Ελένη"})
    new = Table.objects.get(code=code_of(other))
    assert new.open and new.mode == "digital" and new.lang == "el"
    assert new.fill_after == open_tables.QUICK_FILL and new.takeover == open_tables.QUICK_TAKEOVER
    assert new.seats.get(index=0).name == "Ελένη"
    # the one who opened it hosts it: their phone may start it
    table_page = Client()
    table_page.cookies = Client().cookies
    response = Client().post("/el/open/play/", {"game": "chess", "name": "X"})
    assert response.status_code == 400 and Table.objects.count() == 3


def test_play_now_fills_the_table_it_opened_before_opening_another():
    codes = []
    for name in ("Ana", "Boris", "Chloé", "Dmitri", "Elena"):
        response = Client().post("/es/open/play/", {"game": "triggs", "name": name})
        codes.append(code_of(response))
    first = Table.objects.get(code=codes[0])
    assert codes[:4] == [first.code] * 4 and codes[4] != first.code
    assert first.status == Table.Status.PLAYING  # full, so dealt
    assert list(first.seats.values_list("name", flat=True)) == ["Ana", "Boris", "Chloé", "Dmitri"]
    assert Table.objects.count() == 2


def test_play_now_is_rate_limited_like_creating_a_table(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create_table": (2, 600)}
    client = Client()
    for name in ("A", "B"):
        assert client.post("/es/open/play/", {"game": "triggs", "name": name}).status_code == 302
    response = client.post("/es/open/play/", {"game": "triggs", "name": "C"})
    assert response.status_code == 429
    assert "Demasiados mensajes" in response.content.decode()


def test_an_open_table_that_waited_its_time_fills_with_computer_players_and_starts():
    table = create(Client(), open="on", fill_after="60", players="4")
    assert not services.fill_open_table(table.pk)  # not due yet
    Table.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(seconds=61))
    assert services.fill_open_table(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [s.kind for s in table.seats.all()] == ["human", "bot", "bot", "bot"]
    assert not services.fill_open_table(table.pk)  # once


def test_the_service_worker_is_served_from_the_root():
    response = Client().get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"] == "text/javascript"
    assert b"notificationclick" in response.content


# -- play for me, takeover, leaving ------------------------------------------------------


def test_play_for_me_and_take_the_seat_back():
    table, host, guest = started()
    seat = to_act(table)
    phone = host if seat == 0 else guest
    versions = table.version
    response = phone.post(f"/es/t/{table.code}/stand-in/", {"seat": str(seat), "on": "1"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.version > versions  # the computer player moved for the seat at once
    assert Action.objects.filter(
        table=table, seat=seat, client_action_id__startswith="bot:"
    ).exists()
    page = phone.get(f"/es/t/{table.code}/?seat={seat}").content.decode()
    name = "Ana" if seat == 0 else "Boris"
    assert f"Jugada por el ordenador en lugar de {name}" in page
    assert "Recuperar mi asiento" in page
    phone.post(f"/es/t/{table.code}/stand-in/", {"seat": str(seat), "on": "0"})
    assert table.seats.get(index=seat).stand_in == ""


def test_nobody_asks_a_computer_player_for_someone_elses_seat():
    table, host, guest = started()
    before = table.version
    response = host.post(f"/es/t/{table.code}/stand-in/", {"seat": "1", "on": "1"})
    assert response.status_code == 409
    assert "no tiene ese asiento" in response.content.decode()
    response = host.post(f"/es/t/{table.code}/stand-in/", {"seat": "0", "on": "maybe"})
    assert response.status_code == 400
    table.refresh_from_db()
    assert table.version == before and not table.seats.exclude(stand_in="").exists()


def test_a_gone_seat_is_taken_over_on_its_turn_only_and_handed_back():
    table, _host, _guest = started(takeover=30)
    seat = to_act(table)
    other = 1 - seat
    assert not services.take_over(table.pk, other, table.version)  # not its turn
    assert not services.take_over(table.pk, seat, table.version - 1)  # stale
    assert services.take_over(table.pk, seat, table.version)
    table.refresh_from_db()
    assert table.seats.get(index=seat).stand_in == Seat.StandIn.GONE
    moves = Action.objects.filter(table=table, seat=seat, client_action_id__startswith="bot:")
    assert moves.exists()  # it played for the seat, from that seat's view
    assert services.hand_back(table.pk, [seat])
    assert not services.hand_back(table.pk, [seat])
    assert table.seats.get(index=seat).stand_in == ""


def test_a_table_that_waits_is_never_taken_over():
    table, _host, _guest = started()
    assert not services.take_over(table.pk, to_act(table), table.version)


def test_a_player_who_leaves_a_game_in_play_hands_the_seat_to_a_computer_player():
    """Whatever the table's takeover rule (issue 34, item 3): a free seat would hand its
    cards to whoever claimed it next, an opponent already seated included."""
    table, host, guest = started(takeover=60)
    guest.post(f"/es/t/{table.code}/leave/", {"seat": "1", "on": "1"})
    boris = table.seats.get(index=1)
    assert boris.kind == Seat.Kind.BOT and not boris.token_hash
    waiting, host2, guest2 = started()
    guest2.post(f"/es/t/{waiting.code}/leave/", {"seat": "1", "on": "1"})
    boris = waiting.seats.get(index=1)
    assert boris.kind == Seat.Kind.BOT and not boris.token_hash and boris.taken
    # nobody can claim it, the opponent at the table included
    response = host2.post(f"/es/join/{waiting.code}/", {"seat": "1", "name": "Ana2"})
    assert response.status_code != 302 and not waiting.seats.get(index=1).token_hash
    lobby = create(Client())
    joiner = Client()
    joiner.post(f"/es/join/{lobby.code}/", {"seat": "1", "name": "Chloé"})
    joiner.post(f"/es/t/{lobby.code}/leave/", {"seat": "1", "on": "1"})
    assert not lobby.seats.get(index=1).taken and lobby.seats.get(index=1).name == ""
    # a phone that left has no seat any more
    response = guest2.post(f"/es/t/{waiting.code}/leave/", {"seat": "1", "on": "1"})
    assert response.status_code == 409


def test_a_closed_table_says_so_clearly():
    table, host, guest = started()
    host.post(f"/es/t/{table.code}/close/", {"seat": "0"})
    for lang, text in {
        "es": "El anfitrión ha cerrado esta mesa.",
        "el": "Ο οικοδεσπότης έκλεισε αυτό το τραπέζι.",
        "ru": "Хозяин закрыл этот стол.",
        "fr": "L’hôte a fermé cette table.",
    }.items():
        page = guest.get(f"/{lang}/t/{table.code}/").content.decode()
        assert text in page and 'data-moment="closed"' in page, lang


# -- the turn clock ----------------------------------------------------------------------


def test_the_clock_charges_the_seat_to_act_and_adds_the_increment():
    clock = online.clock_dealt(online.clock_new(5, 15), 2, 0, now=1000.0)
    assert clock["banks"] == {"0": 300.0, "1": 300.0}
    clock = online.clock_moved(clock, mover=0, to_act=1, now=1040.0)
    assert clock["banks"]["0"] == 275.0 and clock["seat"] == 1 and clock["since"] == 1040.0
    assert online.clock_left(clock, 1, now=1100.0) == 240.0
    assert online.clock_deadline(clock) == (1, 1340.0)
    same = online.clock_moved(clock, mover=None, to_act=1, now=1050.0)  # another change
    assert same["banks"]["1"] == 290.0 and same["seat"] == 1
    late = online.clock_moved(clock, mover=1, to_act=0, now=2000.0)
    assert late["banks"]["1"] == 15.0  # ran out, then the increment


def test_the_clock_runs_out_into_one_computer_move():
    table, host, _guest = started(clock="2+10")
    seat = to_act(table)
    page = host.get(f"/es/t/{table.code}/").content.decode()
    assert re.search(r'class="clock[^"]*" data-deadline="\d+"', page) and "2:00" in page
    assert not autoplay.clock_ran_out(table.pk, table.version)  # time is not up
    clock = {**table.clock, "since": table.clock["since"] - 121}
    Table.objects.filter(pk=table.pk).update(clock=clock)
    assert autoplay.clock_ran_out(table.pk, table.version)
    assert not autoplay.clock_ran_out(table.pk, table.version)  # once
    moved = Action.objects.filter(table=table, client_action_id=f"clock:{table.version}")
    assert moved.count() == 1 and moved.get().seat == seat
    table.refresh_from_db()
    assert table.clock["banks"][str(seat)] == 10.0  # the increment only
