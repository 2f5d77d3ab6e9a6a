"""Turn-based digital tables (issue 37): a time per move of an hour to three days instead of
playing in one sitting; when it runs out a computer player moves for the seat (the task
queue's job, with no phone connected); "My games" and the home page list first the games
where it is the player's turn, with the time left."""

import time

import pytest
from django.test import Client

from games import deadlines, online, services
from games.models import Action, Table
from games.registry import get_game
from tests.web.test_deadlines import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 3600


@pytest.fixture(autouse=True)
def bots_at_once(settings):
    settings.BOT_DELAY = 0


def create(client, lang="es", **fields):
    data = {"game": "triggs", "mode": "digital", "players": "2", "name": "Ana", **fields}
    return client.post(f"/{lang}/play/", data)


def turn_based_table(per_move=DAY) -> tuple[Table, Client, Client]:
    host, guest = Client(), Client()
    response = create(host, pace=str(per_move))
    assert response.status_code == 302, response.content.decode()[:1500]
    table = Table.objects.get(code=response["Location"].split("/")[3])
    guest.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    table.refresh_from_db()
    return table, host, guest


def to_act(table) -> int:
    table.refresh_from_db()
    (seat,) = get_game(table.game).engine(table.mode).to_act(table.state)
    return seat


def test_the_lobby_offers_the_pace_in_every_language():
    words = {
        "es": "Por correspondencia: 1 día por jugada",
        "el": "Δι’ αλληλογραφίας: 3 ημέρες ανά κίνηση",
        "ru": "По переписке: 12 часов на ход",
        "fr": "Par correspondance\u00a0: 1 heure par coup",
    }
    for lang, text in words.items():
        page = Client().get(f"/{lang}/play/").content.decode()
        assert text in page, lang
        assert 'name="pace"' in page


def test_a_turn_based_table_has_a_time_per_move_and_takes_no_seat_over():
    table, _host, _guest = turn_based_table()
    assert online.turn_based(table.clock) and table.clock["per_move"] == DAY
    assert table.takeover is None  # its phones are mostly closed: the clock is its rule
    seat = to_act(table)
    running = online.clock_deadline(table.clock)
    assert running[0] == seat and abs(running[1] - (time.time() + DAY)) < 60


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"mode": "companion", "pace": "3600"}, "Solo una mesa digital puede estar abierta"),
        ({"pace": "3600", "clock": "5+15"}, "Una mesa por correspondencia ya tiene"),
        ({"pace": "60"}, "La configuración de la mesa no es válida."),
    ],
)
def test_a_pace_that_cannot_be_is_refused_and_nothing_is_created(fields, message):
    response = create(Client(), **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_each_move_has_the_whole_time_again():
    table, _host, _guest = turn_based_table(per_move=3600)
    engine = get_game(table.game).engine(table.mode)
    for _ in range(6):
        seat = to_act(table)
        action = engine.legal_actions(table.state)[0]
        services.apply_action(table, seat, action, table.version, f"m{table.version}")
        table.refresh_from_db()
        now_to_act = to_act(table)
        assert table.clock["banks"][str(now_to_act)] == 3600.0
        assert table.clock["seat"] == now_to_act


def test_a_move_whose_time_ran_out_is_played_by_the_computer_with_nobody_there():
    table, _host, _guest = turn_based_table(per_move=3600)
    seat = to_act(table)
    clock = {**table.clock, "since": time.time() - 3599.5}  # half a second left
    Table.objects.filter(pk=table.pk).update(clock=clock)
    deadlines.schedule(table.pk)  # as after a deploy: the job at the new time
    moved = Action.objects.filter(table=table, client_action_id=f"clock:{table.version}")
    wait_for(moved.exists, what="the computer's move")
    assert moved.get().seat == seat
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the game goes on
    assert table.clock["banks"][str(to_act(table))] == 3600.0


def test_my_games_and_the_home_page_list_first_where_it_is_your_turn():
    boris = Client()
    waiting, _host, _guest = turn_based_table()  # Boris not at it
    mine_waiting = []
    for _ in range(2):
        host = Client()
        response = create(host, pace=str(DAY))
        table = Table.objects.get(code=response["Location"].split("/")[3])
        boris.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
        host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
        mine_waiting.append(table)
    # make it Boris's turn at the second table only
    first, second = mine_waiting
    for table, want in ((first, 0), (second, 1)):
        engine = get_game(table.game).engine(table.mode)
        for _ in range(20):
            if to_act(table) == want:
                break
            seat = to_act(table)
            services.apply_action(
                table,
                seat,
                engine.legal_actions(table.state)[0],
                table.version,
                f"x{table.version}",
            )
            table.refresh_from_db()
        assert to_act(table) == want
    page = boris.get("/es/me/").content.decode()
    assert page.index(f"game-{second.code}") < page.index(f"game-{first.code}")
    turn = page[page.index(f"game-{second.code}") : page.index(f"game-{first.code}")]
    assert "Te toca" in turn and "tiempo restante: 23 h 59 min" in turn
    assert waiting.code not in page
    home = boris.get("/es/").content.decode()
    assert "Te toca" in home and second.code in home and first.code not in home
