"""Hints (games.hints): a seated player asks "What would the computer play?" and is shown
the hint player's choice from that seat's own view, on its own screen only, counted on
the result page; refused, translated and with nothing stored, when the host does not allow
hints, it is not the seat's turn, the phone holds no seat or the game is over. The lobby
allows them by default, but not at a table of a group's league. Highcard (tests/highcard)
proves the seam; the two games' hint is their hard level's choice."""

import random
import re
import time

import pytest
from django.test import Client
from django.utils import translation

from games import hints, live, phones, render, services, thinking
from games.models import Seat, Table
from games.registry import get_game
from players import services as players
from players.models import Group, Player
from tests.declared import undeclared
from tests.highcard import engine
from tests.highcard.bots import highest
from tests.highcard.game import SLUG, installed
from tests.tables import config, play_random, start_with_seed

pytestmark = pytest.mark.django_db

HINTS_OFF_ES = "El anfitrión no permite pistas en esta mesa."
NOT_YOUR_TURN_ES = "No es tu turno."
HINT_LINE = re.compile(r'id="hint-line"[^>]*>(.*?)</p>', re.S)


@pytest.fixture
def highcard(settings):
    settings.BOT_DELAY = 0
    with installed() as game:
        yield game


def create(client, hints_on=True, name="Ana", game=SLUG, extra=None) -> str:
    data = {"game": game, "mode": "digital", "players": "2", "name": name, **(extra or {})}
    if hints_on:
        data["hints"] = "on"
    response = client.post("/es/play/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return response["Location"].split("/")[3]


def two_people(hints_on=True, seed=5):
    """Ana (seat 0, to act first) and Boris (seat 1) at a started Highcard table."""
    ana, boris = Client(), Client()
    code = create(ana, hints_on)
    assert boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"}).status_code == 302
    table = Table.objects.get(code=code)
    start_with_seed(table, _host(ana, code), seed)
    return code, ana, boris


def _host(client, code):
    return phones.host_token({k: v.value for k, v in client.cookies.items()}, code)


def page(client, code, seat=None) -> str:
    url = f"/es/t/{code}/" + ("" if seat is None else f"?seat={seat}")
    return client.get(url).content.decode()


def ask(client, code, seat, version=None):
    if version is None:
        version = Table.objects.get(code=code).version
    return client.post(f"/es/t/{code}/hint/", {"seat": str(seat), "version": str(version)})


def flash(html) -> str:
    match = re.search(r'id="table-flash"[^>]*>(.*?)</div>', html, re.S)
    return match.group(1) if match else ""


def seat_row(code, index) -> Seat:
    return Seat.objects.get(table__code=code, index=index)


def expected_highcard_hint(code, seat) -> dict:
    table = Table.objects.get(code=code)
    view, legal = engine.view(table.state, seat), engine.legal_actions(table.state)
    return highest(view, legal, random.Random(f"{code}:{table.version}:{seat}"))


# -- asked by a form post ----------------------------------------------------------------------


def test_a_hint_is_shown_to_its_seat_only_and_asking_twice_thinks_once(highcard, in_process):
    code, ana, boris = two_people()
    html = page(ana, code, 0)
    assert 'id="hint-form"' in html and "¿Qué jugaría el ordenador?" in html
    assert 'id="hint-form"' not in page(boris, code, 1)  # not his turn
    wanted = expected_highcard_hint(code, 0)

    response = ask(ana, code, 0)
    assert response.status_code == 302 and response["Location"] == f"/es/t/{code}/?seat=0"
    html = page(ana, code, 0)
    line = HINT_LINE.search(html).group(1)
    assert "El ordenador jugaría esto:" in line and f"Play {wanted['card']}" in line
    # the card is marked by a class and words, not by colour alone
    button = re.search(rf'<button[^>]*data-card="{wanted["card"]}"[^>]*>.*?</button>', html, re.S)
    assert "hinted" in button.group(0) and "El ordenador jugaría esto" in button.group(0)
    assert 'id="hint-form"' not in html  # given: no second question at this version
    row = seat_row(code, 0)
    assert row.hint == wanted and row.hints == 1 and len(in_process) == 1

    # never on another phone: Boris, a spectator, the table-centre screen
    for other in (
        page(boris, code, 1),
        page(Client(), code),
        Client().get(f"/es/t/{code}/centre/").content.decode(),
    ):
        assert 'id="hint-line"' not in other and "hinted" not in other and "jugaría" not in other

    # asked again at the same version: the same hint, not thought over nor counted again
    assert ask(ana, code, 0).status_code == 302
    assert len(in_process) == 1 and seat_row(code, 0).hints == 1


def test_the_hint_is_forgotten_once_the_table_moves_on_and_counted_on_the_result_page(
    highcard, in_process
):
    code, ana, boris = two_people()
    ask(ana, code, 0)
    table = Table.objects.get(code=code)
    card = table.state["hands"][0][0]
    services.apply_action(table, 0, {"type": "play", "card": card}, table.version, "m-1")
    assert 'id="hint-line"' not in page(ana, code, 0)
    ask(boris, code, 1)
    table.refresh_from_db()
    assert 'id="hint-line"' in page(boris, code, 1)
    n = 0
    while not engine.is_over(table.state):
        seat = engine.to_act(table.state)[0]
        if seat == 0:
            ask(ana, code, 0)
        table.refresh_from_db()
        action = {"type": "play", "card": min(table.state["hands"][seat])}
        services.apply_action(table, seat, action, table.version, f"m-{n}-end")
        table.refresh_from_db()
        n += 1
    ana_hints, boris_hints = seat_row(code, 0).hints, seat_row(code, 1).hints
    assert (ana_hints, boris_hints) == (3, 1)
    result = Client().get(f"/es/r/{code}/").content.decode()
    assert "Ana · pistas: 3" in result and "Boris · pista: 1" in result
    result_ru = Client().get(f"/ru/r/{code}/").content.decode()
    assert "Ana · подсказки: 3" in result_ru and "Boris · подсказка: 1" in result_ru
    # a new game at the table counts afresh
    ana.post(f"/es/t/{code}/rematch/", {"action_id": "rematch-1"})
    assert seat_row(code, 0).hints == 0


# -- refused, translated, nothing stored ----------------------------------------------------------


def test_refusals_are_translated_and_store_nothing(highcard, in_process):
    code, ana, boris = two_people(hints_on=False)
    assert 'id="hint-form"' not in page(ana, code, 0)
    response = ask(ana, code, 0)
    assert response.status_code == 409 and HINTS_OFF_ES in flash(response.content.decode())
    assert seat_row(code, 0).hint_version is None and not in_process

    code, ana, boris = two_people()
    response = ask(boris, code, 1)  # not his turn
    assert response.status_code == 409 and NOT_YOUR_TURN_ES in flash(response.content.decode())
    response = ask(boris, code, 0)  # Ana's seat, from Boris's phone
    assert response.status_code == 409
    assert "Este móvil no tiene ese asiento." in flash(response.content.decode())
    response = ask(Client(), code, 0)  # a spectator
    assert response.status_code == 409
    response = ask(ana, code, 0, version=Table.objects.get(code=code).version - 1)
    assert response.status_code == 409  # an old screen
    response = Client().post(f"/es/t/{code}/hint/", {"seat": "x", "version": "1"})
    assert response.status_code == 400
    assert all(row.hint_version is None and row.hints == 0 for row in Seat.objects.all())
    assert not in_process

    table = Table.objects.get(code=code)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = ask(ana, code, 0)
    assert response.status_code == 409 and "El juego ha terminado." in flash(
        response.content.decode()
    )
    assert seat_row(code, 0).hint_version is None and not in_process


def test_a_hint_through_the_thinking_pool(highcard, settings):
    """The hint player runs in the pool of spawned processes (games.thinking)."""
    settings.THINKERS = 1
    code, ana, _boris = two_people()
    wanted = expected_highcard_hint(code, 0)
    try:
        assert ask(ana, code, 0).status_code == 302
    finally:
        thinking.shutdown()
    assert seat_row(code, 0).hint == wanted
    assert f"Play {wanted['card']}" in HINT_LINE.search(page(ana, code, 0)).group(1)


# -- the lobby: on by default, off at a league's table ---------------------------------------------


def test_the_lobby_allows_hints_by_default_but_not_for_a_league(highcard, in_process):
    ana = Client()
    lobby = ana.get("/es/play/?game=triggs").content.decode()
    assert re.search(r'<input type="checkbox" name="hints"[^>]*checked', lobby)
    code = create(ana, game="triggs")
    assert Table.objects.get(code=code).hints

    player = Player.objects.get(seats__table__code=code)
    group = players.create_group(player, "Jueves")
    lobby = ana.get(f"/es/play/?game=triggs&group={group.code}").content.decode()
    assert not re.search(r'<input type="checkbox" name="hints"[^>]*checked', lobby)
    assert "Esta mesa cuenta para la liga de Jueves." in lobby
    # the form as the page sends it: the box left unticked
    code = create(ana, hints_on=False, game="triggs", extra={"group": group.code})
    table = Table.objects.get(code=code)
    assert not table.hints and group.tables.filter(pk=table.pk).exists()
    # the group's page links to it
    assert f"/es/play/?group={group.code}" in ana.get(f"/es/g/{group.code}/").content.decode()
    # someone else's group does not make a league table of theirs
    stranger = Client()
    code = create(stranger, game="triggs", name="Eve", extra={"group": group.code})
    assert not Group.objects.filter(tables__code=code).exists()


# -- the two games: the hint is the hard level's choice from the seat's view --------------------


SMALL = {
    "triggs": {"work": 300, "horizon": 6},
    "triumfdrez": {"play_work": 3000, "play_deals": (2, 4), "bid_deals": 4, "bid_combos": 2},
}


@pytest.mark.parametrize("game", ["triggs", "triumfdrez"])
@pytest.mark.parametrize("seed", [3, 11])
def test_the_hint_is_the_hard_levels_choice_from_the_seats_view(game, seed, monkeypatch):
    web = get_game(game).web
    monkeypatch.setattr(type(web), "hint_budget", SMALL[game])
    table, host, token = services.create_table(
        game, "digital", config(game, "digital", 2), "Ana", services.Online(hints=True)
    )
    services.claim_seat(table, 1, "Boris")
    table = start_with_seed(table, host, seed)
    engine_ = get_game(game).engine("digital")
    rng = random.Random(seed)
    for step in range(6):  # a few moments of the game
        seat = engine_.to_act(table.state)[0]
        asked = services.ask_hint(table, seat, table.version, None)
        hint = hints.think(asked, seat)
        wanted = web.hint_player(
            engine_.view(table.state, seat),
            engine_.legal_actions(table.state),
            random.Random(f"{table.code}:{table.version}:{seat}"),
            **SMALL[game],
        )
        assert hint == wanted and hint in engine_.legal_actions(table.state)
        assert services.give_hint(table.pk, seat, table.version, hint)
        with_hint = services.ask_hint(table, seat, table.version, None)
        assert with_hint.known  # asked again: nothing to think over
        action = rng.choice(engine_.legal_actions(table.state))
        services.apply_action(table, seat, action, table.version, f"{game}-{seed}-{step}")
        table.refresh_from_db()
        if engine_.is_over(table.state):
            break


# -- the screens: what each region reads, and no other seat's screen --------------------------------


def _every_region(game: str, mode: str):
    web = get_game(game).web
    reads = web.reads(mode)
    regions = [(name, template, reads[name]) for name, template, _pane in web.screen(mode)]
    return [*regions, (render.HINT.name, render.HINT.template, render.HINT.reads)]


@pytest.mark.parametrize("game, players", [("triggs", 2), ("triggs", 3), ("triumfdrez", 3)])
def test_a_hint_reaches_its_seats_context_only_and_each_region_reads_what_it_declares(
    game, players
):
    table, host, _token = services.create_table(
        game, "digital", config(game, "digital", players), "Ana", services.Online(hints=True)
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, ("Ana", "Boris", "Chloé")[seat])
    table = start_with_seed(table, host, 7)
    engine_ = get_game(game).engine("digital")
    rng = random.Random(game)
    marked: set[str] = set()
    with translation.override("es"):
        for step in range(400):
            state = table.state
            if engine_.is_over(state):
                break
            seat = engine_.to_act(state)[0]
            legal = engine_.legal_actions(state)
            if step % 7 == 0:
                kinds = {}
                for action in legal:  # a hint of each kind the seat may play here
                    kinds.setdefault(action["type"], action)
                for hint in kinds.values():
                    Seat.objects.filter(table=table).update(hint=None, hint_version=None)
                    Seat.objects.filter(table=table, index=seat).update(
                        hint=hint, hint_version=table.version
                    )
                    snap = live.snapshot(table)
                    for active in (None, *range(players)):
                        phone = [] if active is None else [active]
                        context = render.table_context(snap, phone, active, active == 0, None, "es")
                        if active == seat:
                            assert context["hint"]["action"] == hint
                        else:
                            assert context["hint"] is None and not context["can_hint"]
                        for name, template, reads in _every_region(game, "digital"):
                            diff = undeclared(template, context, reads)
                            assert diff is None, (name, hint, active, diff)
                    shown = render.screen(snap, [seat], seat, False, "es")
                    html = "".join(h for _n, h, _p in shown.regions)
                    assert 'id="hint-line"' in html
                    if 'class="hinted' in html or " hinted" in html:
                        marked.add(hint["type"])
                    for other in range(players):
                        if other != seat:
                            theirs = render.screen(snap, [other], other, False, "es")
                            html = "".join(h for _n, h, _p in theirs.regions)
                            assert "hint-line" not in html and "hinted" not in html
            action = rng.choice(legal)
            services.apply_action(table, seat, action, table.version, f"r-{step}")
            table.refresh_from_db()
    # the hint is marked where it shows: the pile, the cards of a discard, the card to play
    assert {"draw", "discard"} <= marked if game == "triggs" else "play" in marked


def test_a_hint_being_worked_out_is_waited_for_and_asked_again_once_lost(highcard, in_process):
    code, ana, _boris = two_people()
    table = Table.objects.get(code=code)
    thinking_now = {"thinking": time.time()}
    Seat.objects.filter(table=table, index=0).update(hint=thinking_now, hint_version=table.version)
    html = page(ana, code, 0)
    assert "El ordenador está pensando…" in html and 'id="hint-form"' not in html
    assert ask(ana, code, 0).status_code == 302 and not in_process  # already under way
    # its process died: after the thinking's timeout and a margin, it may be asked again
    lost = {"thinking": thinking_now["thinking"] - 1000}
    Seat.objects.filter(table=table, index=0).update(hint=lost, hint_version=table.version)
    assert 'id="hint-form"' in page(ana, code, 0)
    assert ask(ana, code, 0).status_code == 302 and len(in_process) == 1
    assert seat_row(code, 0).hint == expected_highcard_hint(code, 0)


def test_a_hint_that_could_not_be_worked_out_may_be_asked_again(highcard, monkeypatch):
    async def broken(fn, *args, **kwargs):
        raise TimeoutError

    monkeypatch.setattr(thinking, "arun", broken)
    code, ana, _boris = two_people()
    assert ask(ana, code, 0).status_code == 302
    row = seat_row(code, 0)
    assert row.hint is None and row.hint_version is None and row.hints == 0
    assert 'id="hint-form"' in page(ana, code, 0)


def test_the_hints_given_show_on_the_tables_end_screen_for_every_phone():
    """A game with a chart (the end screen's region): Triggs, played to its end."""
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana", services.Online(hints=True)
    )
    services.claim_seat(table, 1, "Boris")
    table = start_with_seed(table, host, 4)
    rng = random.Random(4)
    Seat.objects.filter(table=table, index=1).update(hints=2)
    assert "pistas" not in _live(table, 1)  # not while the game is played
    while play_random(table, rng):
        pass
    for seat in (0, 1, None):
        end = _live(table, seat)
        assert "Boris · pistas: 2" in end and "Ana · pista" not in end


def _live(table, seat) -> str:
    snap = live.snapshot(table.pk)
    phone = [] if seat is None else [seat]
    return render.live_html(render.screen(snap, phone, seat, False, "es"))


def test_a_triggs_hint_after_the_first_card_of_a_draw_finishes_that_draw(monkeypatch):
    """The seat took its first card (its pending first step): the hint player is given only
    the draws that finish it, and the second pile is the one marked."""
    web = get_game("triggs").web
    triggs = get_game("triggs").engine("digital")
    monkeypatch.setattr(type(web), "hint_budget", SMALL["triggs"])
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana", services.Online(hints=True)
    )
    services.claim_seat(table, 1, "Boris")
    table = start_with_seed(table, host, 9)
    seat = triggs.to_act(table.state)[0]
    view = triggs.view(table.state, seat)
    assert view["draw_count"] == 2
    first = next(
        pile
        for pile in triggs.PILE_NAMES
        if triggs.first_draw_refusal(table.state, seat, pile) is None
    )
    services.take_step(table, seat, {"kind": "draw_first", "first": first}, table.version)
    asked = services.ask_hint(table, seat, table.version, None)
    assert asked.legal and all(a["type"] == "draw" and a["from"][0] == first for a in asked.legal)
    hint = hints.think(asked, seat)
    assert hint in asked.legal
    services.give_hint(table.pk, seat, table.version, hint)
    with translation.override("es"):
        context = render.table_context(live.snapshot(table.pk), [seat], seat, False, None, "es")
    marked = [pile["name"] for pile in context["panel"]["piles"] if pile.get("hinted")]
    assert marked == [hint["from"][1]] and context["panel"]["draw_step"]


def test_the_games_hint_players_think_in_the_pool_as_in_this_process(settings):
    """The two games' hard searches are sent to a spawned process (no Django there) and
    answer as they do here, from the same seed."""
    settings.THINKERS = 1
    try:
        for game in ("triggs", "triumfdrez"):
            web = get_game(game).web
            engine_ = get_game(game).engine("digital")
            state = engine_.new_game(config(game, "digital", 3), 21)
            seat = engine_.to_act(state)[0]
            view, legal = engine_.view(state, seat), engine_.legal_actions(state)
            there = thinking.run(web.hint_player, view, legal, random.Random("pool"), **SMALL[game])
            here = web.hint_player(view, legal, random.Random("pool"), **SMALL[game])
            assert there == here and there in legal
    finally:
        thinking.shutdown()
