"""Digital Triggs over plain HTTP: creating a table, seating computer players, each kind
of move as a form POST, the bots' replies, and a rematch at the same table."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games import labels
from games.models import Action, Seat, Table
from games.registry import GAMES
from games.triggs import engine
from games.triggs import web as triggs_web
from tests.engines.test_triggs_positions import position, row_sheet

# bots move on commit: the test needs real commits
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.BOT_DELAY = 0


def create(client, players="2", game="triggs", lang="es", **extra):
    fields = {"game": game, "mode": "digital", "players": players, "name": "Ana", **extra}
    return client.post(f"/{lang}/play/", fields)


def hidden(html, name):
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def two_people():
    """Ana (host, seat 0) and Boris (seat 1), started, then a position set by each test."""
    host, guest = Client(), Client()
    code = create(host)["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    table = Table.objects.get(code=code)
    return table, host, guest


def set_position(table, **kwargs):
    state = position(**kwargs)
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    return state


def act(client, table, seat=0, lang="es", **fields):
    html = client.get(f"/{lang}/t/{table.code}/?seat={seat}").content.decode()
    data = {
        "seat": str(seat),
        "version": hidden(html, "version"),
        "action_id": hidden(html, "action_id"),
        **fields,
    }
    response = client.post(f"/{lang}/t/{table.code}/act/", data)
    table.refresh_from_db()
    return response


def test_a_digital_table_with_computer_players_starts_and_the_bots_play(client):
    response = create(client, players="3")
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.mode, table.config) == ("digital", {"players": 3})
    for index, level in ((1, "strong"), (2, "greedy")):
        response = client.post(f"/es/t/{table.code}/bot/", {"index": index, "level": level})
        assert response.status_code == 302
    seats = list(Seat.objects.filter(table=table))
    assert [(s.kind, s.bot_level, s.name) for s in seats[1:]] == [
        ("bot", "strong", ""),  # no name stored: it is worded on each phone
        ("bot", "greedy", ""),
    ]
    html = client.get(f"/fr/t/{table.code}/").content.decode()
    with translation.override("fr"):
        assert labels.bot_name(1, "strong", GAMES["triggs"]) in html
    response = client.post(f"/es/t/{table.code}/start/", {"action_id": "start-0002"})
    assert response.status_code == 302
    table.refresh_from_db()
    # the bots have played until it is Ana's turn
    assert table.state["turn"] == 0 and table.status == Table.Status.PLAYING
    bot_rows = Action.objects.filter(table=table, seat__in=[1, 2])
    assert all(row.client_action_id == f"bot:{row.version - 1}" for row in bot_rows)
    html = client.get(f"/es/t/{table.code}/").content.decode()
    assert sorted(map(int, re.findall(r'data-card="(\d+)"', html))) == sorted(
        table.state["hands"][0]
    )


def test_the_host_can_take_a_computer_player_off_again(client):
    create(client, players="2")
    table = Table.objects.get()
    client.post(f"/es/t/{table.code}/bot/", {"index": "1", "level": "strong"})
    client.post(f"/es/t/{table.code}/free/", {"index": "1"})
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.kind, seat.bot_level, seat.taken) == ("human", "", False)
    response = client.post(f"/es/t/{table.code}/start/", {"action_id": "start-0003"})
    assert response.status_code == 409  # the seat needs a person or a bot


@pytest.mark.parametrize(
    "who, mode, level, index, code",
    [
        ("guest", "digital", "strong", "1", "not_host"),
        ("host", "companion", "strong", "1", "bots_digital_only"),
        ("host", "digital", "genius", "1", "bad_request"),
        ("host", "digital", "strong", "0", "seat_taken"),
        ("host", "digital", "strong", "7", "bad_seat"),
    ],
)
def test_bad_bot_requests_are_refused(who, mode, level, index, code):
    host = Client()
    host.post("/el/play/", {"game": "triggs", "mode": mode, "players": "2", "name": "Ana"})
    table = Table.objects.get()
    client = host if who == "host" else Client()
    response = client.post(f"/el/t/{table.code}/bot/", {"index": index, "level": level})
    assert response.status_code == 409
    with translation.override("el"):
        assert str(labels.REFUSALS[code]) in response.content.decode()
    assert not Seat.objects.filter(kind="bot").exists()


def test_both_games_are_offered_digitally(client):
    response = create(client, game="triumfdrez", lang="ru", target="50")
    assert response.status_code == 302
    assert Table.objects.get().mode == Table.Mode.DIGITAL
    html = client.get("/ru/play/").content.decode()
    assert 'name="mode" value="digital"' in html


def test_drawing_two_cards_with_two_form_fields(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[5, 5], [1]], left=[7, 3], right=[9, 8], under="stock")
    response = act(host, table, kind="draw", first="left", second="left")
    assert response.status_code == 302
    assert sorted(table.state["hands"][0]) == [3, 5, 5, 7]
    assert table.state["turn"] == 1


def test_drawing_one_card_with_nine_in_hand(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[1, 1, 1, 2, 2, 2, 3, 3, 3], [1]], right=[12], under="stock")
    html = host.get(f"/es/t/{table.code}/").content.decode()
    assert 'name="second"' not in html  # one tap: the piles are the buttons
    act(host, table, kind="draw", first="right")
    assert table.state["hands"][0].count(12) == 1 and len(table.state["hands"][0]) == 10


def test_discarding_the_ticked_cards(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[4, 9, 9, 9], [1]])
    act(host, table, kind="discard", card=["9", "9"])
    assert sorted(table.state["hands"][0]) == [4, 9]
    assert table.state["discard"][-2:] == [9, 9]


def test_mixed_values_cannot_be_discarded(two_people):
    table, host, _guest = two_people
    state = set_position(table, hands=[[4, 9, 9, 9], [1]])
    response = act(host, table, lang="fr", kind="discard", card=["4", "9"])
    assert response.status_code == 409
    html = response.content.decode()
    with translation.override("fr"):
        assert str(labels.sentence("mixed_values", GAMES["triggs"].web)) in html
    assert "#T-B" in html
    assert table.state == state


def test_crossing_with_a_proposal_in_one_tap(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[11, 11, 7, 4, 10, 1, 3], [2]])
    html = host.get(f"/es/t/{table.code}/").content.decode()
    # the proposal the engine's legal actions list for 11 ×4
    assert 'name="box" value="11:11|11|1+10|4+7"' in html
    proposals = html[html.index('id="cross-form"') :].split("</form>")[0]
    assert proposals.count('name="csrfmiddlewaretoken"') == 1  # one form for them all
    # a proposal's button is "<row>:<sets>"; anything else is refused and changes nothing
    for box in ("11", "13:11", "11:", "x:11", "11:11|x", ":11|11", "11:11:11"):
        assert act(host, table, kind="cross", box=box).status_code == 400
    assert table.version == 1
    response = act(host, table, kind="cross", box="11:11|11|1+10|4+7")
    assert response.status_code == 302
    assert table.state["sheets"][0][10] == 4
    assert table.state["hands"][0] == [3]


def test_crossing_with_ticked_cards_and_the_extra_cross(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[6, 2, 4, 9], [2]], sheets=[row_sheet({6: 1}), row_sheet()])
    act(host, table, kind="cross", value="6", card=["4", "6", "2"])
    assert table.state["sheets"][0][5] == 3  # row 6 is full: an extra cross is due
    assert table.state["phase"] == "extra" and table.state["turn"] == 0
    html = host.get(f"/es/t/{table.code}/").content.decode()
    assert html.count('name="kind" value="extra"') == 1  # the sheet is one form
    assert html.count('class="box open extra"') == 11  # the first open box of each open row
    act(host, table, kind="extra", value="9")
    assert table.state["sheets"][0][8] == 1 and table.state["phase"] == "play"
    html = host.get(f"/es/t/{table.code}/").content.decode()
    with translation.override("es"):
        line = triggs_web.adapter.describe_turns(
            [
                {"version": 2, "seat": 0, "action": row.action}
                for row in Action.objects.filter(table=table, version__gt=1)
            ],
            {0: "Ana"},
        )
    assert len(line) == 1 and line[0] in text(html)  # one log line for the cross and extra


def test_ticked_cards_that_make_no_sets_are_refused(two_people):
    table, host, _guest = two_people
    state = set_position(table, hands=[[6, 2, 3, 9], [2]])
    response = act(host, table, kind="cross", value="6", card=["2", "3"])
    assert response.status_code == 409
    assert "#T-C" in response.content.decode()
    assert table.state == state


def test_a_malformed_move_is_a_bad_request(two_people):
    table, host, _guest = two_people
    state = set_position(table, hands=[[6, 2, 3, 9], [2]])
    for fields in (
        {"kind": "cross", "value": "6", "sets": "6|2+4|1+5|3+3|6|6"},
        {"kind": "cross", "value": "6", "sets": "<b>"},
        {"kind": "draw", "first": "table"},
        {"kind": "discard", "card": ["13"]},
        {"kind": "discard", "card": ["1"] * 11},
        {"kind": "teleport"},
    ):
        response = act(host, table, **fields)
        assert response.status_code == 400, fields
    assert table.state == state


def test_the_host_deals_a_rematch_at_the_same_table(two_people):
    table, host, guest = two_people
    response = host.post(f"/es/t/{table.code}/rematch/", {"action_id": "rematch-0001"})
    assert response.status_code == 409  # not over yet
    # Ana needs one more 12 to cross her 42nd box
    set_position(
        table, hands=[[12], [1]], sheets=[[2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 4], row_sheet()]
    )
    act(host, table, kind="cross", value="12", sets="12")
    assert table.status == Table.Status.FINISHED and table.state["winner"] == 0
    html = host.get(f"/es/t/{table.code}/").content.decode()
    assert 'id="rematch-form"' in html
    assert 'id="rematch-form"' not in guest.get(f"/es/t/{table.code}/").content.decode()
    response = guest.post(f"/es/t/{table.code}/rematch/", {"action_id": "rematch-0002"})
    assert response.status_code == 409
    version, seed = table.version, table.state["seed"]
    for _twice in range(2):  # a repeated tap deals once
        response = host.post(f"/es/t/{table.code}/rematch/", {"action_id": "rematch-0003"})
        assert response.status_code == 302
    table.refresh_from_db()
    assert table.version == version + 1 and table.status == Table.Status.PLAYING
    assert table.state["seed"] != seed and table.state["sheets"] == [[0] * 12, [0] * 12]
    start = Action.objects.get(table=table, version=table.version)
    assert start.seat is None and start.action == {"type": "start", "seed": table.state["seed"]}


def test_a_draw_in_two_taps_shows_what_the_first_card_uncovered(two_people):
    """T-A: after the first card the player sees the pile's next card, then picks the
    second pile; the first pick commits the seat to drawing."""
    table, host, guest = two_people
    set_position(table, hands=[[5, 5], [1]], left=[4, 9], right=[8, 6], under="stock")
    html = host.get(f"/es/t/{table.code}/").content.decode()
    assert 'name="kind" value="draw_first"' in html
    version = table.version
    assert act(host, table, kind="draw_first", first="left").status_code == 302
    assert table.version == version and table.state["hands"][0] == [5, 5]  # nothing drawn yet
    html = host.get(f"/es/t/{table.code}/").content.decode()
    step = re.search(r'id="draw-step">(.*?)</p>', html, re.S).group(1)
    assert "9" in step and "4" in step  # took the 9, which uncovered a 4
    assert 'data-pile-top="4"' in html and 'name="second"' in html
    # The other phone does not see under the pile.
    assert 'data-pile-top="4"' not in guest.get(f"/es/t/{table.code}/").content.decode()
    # Committed: no discarding instead, and no other first pile.
    for fields in (
        {"kind": "discard", "card": ["5"]},
        {"kind": "draw", "first": "right", "second": "left"},
    ):
        response = act(host, table, **fields)
        assert response.status_code == 409
        page = " ".join(response.content.decode().split())
        # the rule named in the reader's words, its id in the anchor
        assert 'href="/es/rules/triggs/#T-A" title="T-A">Regla: Acción A: robar cartas</a>' in page
    assert table.state["hands"][0] == [5, 5]
    assert act(host, table, kind="draw", first="left", second="left").status_code == 302
    assert sorted(table.state["hands"][0]) == [4, 5, 5, 9]
    assert Seat.objects.get(table=table, index=0).pending == ""


def test_the_second_tap_offers_only_piles_the_draw_can_end_on(two_people):
    """T-A, T-REFILL: the last card of a pile taken first, with no discard pile to refill
    it, leaves that pile empty: it is not offered for the second card."""
    table, host, _guest = two_people
    set_position(table, hands=[[5, 5], [1]], right=[8], discard=[], under="stock")
    assert act(host, table, kind="draw_first", first="right").status_code == 302
    html = host.get(f"/es/t/{table.code}/").content.decode()
    offered = set(re.findall(r'name="second" value="(\w+)"', html))
    assert offered == {"left", "stock"}
    response = act(host, table, kind="draw", first="right", second="right")
    assert response.status_code == 409 and table.state["hands"][0] == [5, 5]
    assert act(host, table, kind="draw", first="right", second="stock").status_code == 302
    assert len(table.state["hands"][0]) == 4


def test_a_first_pick_that_cannot_be_drawn_is_refused_and_commits_nothing(two_people):
    table, host, _guest = two_people
    set_position(table, hands=[[5, 5], [1]], left=[], right=[8, 6], under="stock")
    response = act(host, table, kind="draw_first", first="left")
    assert response.status_code == 409
    assert Seat.objects.get(table=table, index=0).pending == ""
    response = act(host, table, seat=0, kind="draw_first", first="middle")
    assert response.status_code == 400


def ring(lang, active, seats=(), clock=None):
    """The ring region (_digital.html#ring) of a table of three, seen from `active`."""
    from django.template.loader import render_to_string

    from games.triggs.web.screens import keyed

    board = {
        "ring": [
            keyed({"seat": 0, "name": "Ana", "hand_size": 5, "total": 0, "turn": False}),
            keyed({"seat": 1, "name": "<b>Boris</b>", "hand_size": 1, "total": 7, "turn": True}),
            keyed({"seat": 2, "name": "Chloé", "hand_size": 9, "total": 40, "turn": False}),
        ],
        "total_boxes": engine.TOTAL_BOXES,
    }
    states = {
        s["index"]: {
            "presence": s["presence"],
            "symbol": s["presence_symbol"],
            "label": s["presence_label"],
        }
        for s in seats
    }
    context = {"board": board, "active": active, "seat_states": states, "clock": clock}
    with translation.override(lang):
        return render_to_string("games/triggs/_digital.html#ring", context)


def test_the_other_seats_show_their_cards_progress_turn_phone_and_clock():
    html = ring("es", 0)
    # every seat in seat order, the same for every phone: the page's style hides the
    # phone's own (its sheet and hand) and starts from the next seat (data-me)
    assert html.index('id="seat-0"') < html.index('id="seat-1"') < html.index('id="seat-2"')
    assert html == ring("es", 1) == ring("es", None)
    assert "&lt;b&gt;Boris&lt;/b&gt;" in html and "<b>Boris" not in html
    # whose turn: the seat's frame and ▶ (the style), and words for screen readers
    assert 'id="seat-1" class="ring-seat their-turn"' in html
    assert '<span class="visually-hidden"> · su turno</span>' in html
    assert 'aria-label="1 carta en la mano">1</span>' in html
    # boxes crossed of the sheet's, the engine's number (42), in words for screen readers
    assert f"Espacios tachados </span>7/{engine.TOTAL_BOXES}</span>" in html
    assert f'<progress value="40" max="{engine.TOTAL_BOXES}" aria-hidden="true">' in html
    assert 'data-anim="g1-7"' in html  # a count that goes up pops
    russian = ring("ru", None)
    assert 'id="seat-0"' in russian and "9 карт на руке" in russian
    assert "Перечёркнутые ячейки" in ring("ru", 0)
    # a seat's phone, in a symbol and words, and the turn clock where it runs
    away = {"index": 2, "presence": "gone", "presence_symbol": "○", "presence_label": "hors ligne"}
    clock = {"seat": 1, "name": "Boris", "left": "1:05", "deadline": 99}
    french = ring("fr", 0, [away], clock)
    seat_2 = french[french.index('id="seat-2"') :]
    assert 'aria-hidden="true">○</span\n><span> hors ligne</span>' in seat_2
    seat_1 = french[french.index('id="seat-1"') : french.index('id="seat-2"')]
    assert 'data-deadline="99"' in seat_1 and '<span class="clock-left">1:05</span>' in seat_1
    assert "data-deadline" not in seat_2
