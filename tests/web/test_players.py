"""Players who come back (issue 20): a guest remembered from the first seat, an account
that keeps the guest's games on every phone, "My games", replays for players that show
only what the seat saw while the game runs, and the public result page of a finished
game."""

import json
import random
import re
import uuid

import pytest
from django.test import Client

from games import services
from games.models import Seat, Table
from games.registry import get_game
from players.models import Player

pytestmark = pytest.mark.django_db

LANGS = ("es", "el", "ru", "fr")


def code_of(response) -> str:
    return response["Location"].split("/")[3]


def create(client, game="triggs", mode="digital", name="Ana", **fields) -> Table:
    data = {"game": game, "mode": mode, "players": "2", "name": name, **fields}
    if game == "triumfdrez":
        data |= {"players": "4", "target": "50"}
    response = client.post("/es/play/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(code=code_of(response))


def join(client, table, seat, name):
    response = client.post(f"/es/join/{table.code}/", {"seat": str(seat), "name": name})
    assert response.status_code == 302, response.content.decode()[:2000]


def start(client, table):
    client.post(f"/es/t/{table.code}/start/", {"action_id": "start-" + uuid.uuid4().hex})
    table.refresh_from_db()
    return table


def play(table, moves=None, seed=1):
    """Moves chosen by the greedy computer player for whoever is to act, through the
    services, until the game is over (or `moves` were made)."""
    game = get_game(table.game)
    engine = game.engine(table.mode)
    bot = next(iter(game.web.bot_levels.values()))[0]
    rng = random.Random(seed)
    made = 0
    while not engine.is_over(table.state) and (moves is None or made < moves):
        seat = engine.to_act(table.state)[0]
        action = bot(engine.view(table.state, seat), engine.legal_actions(table.state), rng)
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
        made += 1
    return table


def my_codes(client) -> list[str]:
    html = client.get("/es/me/").content.decode()
    return re.findall(r'id="game-([A-Z0-9]{6})"', html)


# -- a player that persists ------------------------------------------------------------


def test_a_guest_is_remembered_from_the_first_seat_with_their_name():
    phone, other = Client(), Client()
    first = create(phone)
    assert Player.objects.count() == 1
    player = Player.objects.get()
    assert player.name == "Ana" and player.user is None
    assert Seat.objects.get(table=first, index=0).player == player
    second = create(other, name="Boris")
    join(phone, second, 1, "Ana")
    assert Player.objects.count() == 2  # the same phone is the same player
    assert my_codes(phone) == [second.code, first.code]  # newest first
    assert my_codes(other) == [second.code]
    # the name is remembered on the forms that ask for it
    assert 'value="Ana"' in phone.get("/es/play/").content.decode()
    assert 'value="Ana"' in phone.get("/es/open/").content.decode()


def test_a_refused_seat_makes_no_guest():
    host = Client()
    table = create(host)
    join(Client(), table, 1, "Boris")
    before = Player.objects.count()
    response = Client().post(f"/es/join/{table.code}/", {"seat": "1", "name": "Chloé"})
    assert response.status_code == 400
    assert Player.objects.count() == before


def test_an_account_keeps_a_guests_games_on_every_phone():
    phone, elsewhere, friend = Client(), Client(), Client()
    first = create(phone)
    second = create(friend, name="Boris")
    join(phone, second, 1, "Ana")
    response = phone.post(
        "/es/account/sign-up/",
        {"username": "ana", "password1": "tréboles-42-x", "password2": "tréboles-42-x"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert "player" not in phone.cookies or not phone.cookies["player"].value
    assert set(my_codes(phone)) == {first.code, second.code}
    # another phone played one table as a guest, then signs in: all three are the account's
    third = create(elsewhere, name="Ana")
    response = elsewhere.post(
        "/es/account/sign-in/", {"username": "ana", "password": "tréboles-42-x"}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert set(my_codes(elsewhere)) == {first.code, second.code, third.code}
    assert set(my_codes(phone)) == {first.code, second.code, third.code}
    assert Player.objects.filter(user__username="ana").count() == 1
    assert Player.objects.count() == 2  # Ana's and Boris's: the second guest is merged
    # signing out leaves the phone without the account's games
    phone.post("/es/account/sign-out/")
    assert my_codes(phone) == []


def test_a_wrong_password_is_refused_in_the_readers_language():
    phone = Client()
    phone.post("/es/account/sign-up/", {"username": "ana", "password1": "tréboles-42-x",
                                        "password2": "tréboles-42-x"})  # fmt: skip
    other = Client()
    response = other.post("/fr/account/sign-in/", {"username": "ana", "password": "non"})
    assert response.status_code == 200
    assert "mot de passe" in response.content.decode()


# -- replays ---------------------------------------------------------------------------


def seated(game="triggs"):
    host, guest = Client(), Client()
    table = create(host, game=game)
    players = table.players
    join(guest, table, 1, "Boris")
    for seat in range(2, players):
        join(Client(), table, seat, f"P{seat}")
    return start(host, table), host, guest


def cards_in(value) -> set[str]:
    return set(re.findall(r'"([a-z]+-\d)"', json.dumps(value)))


def test_a_running_games_replay_shows_only_the_players_own_seat():
    table, host, guest = seated("triumfdrez")
    table = play(table, moves=12)
    engine = get_game(table.game).engine(table.mode)
    from games import replay

    log = replay.table_log(table)
    for step in (1, 5, len(log)):
        state = replay.run(table.game, table.mode, table.config, log, keep=step).state
        for asked in ("0", "1", "2", "", "x"):  # other seats and a spectator's view: refused
            html = host.get(f"/es/t/{table.code}/replay/?step={step}&seat={asked}")
            assert html.status_code == 200
            html = html.content.decode()
            seen = cards_in(engine.view(state, 0))
            hidden = {card for hand in state["hands"][1:] for card in hand} - seen
            shown = set(re.findall(r'data-card="([^"]+)"', html))
            assert shown and shown <= seen, (step, asked)
            assert not any(f'"{card}"' in html for card in hidden), (step, asked)
    # a phone that did not sit at the table may not replay it while it runs
    assert Client().get(f"/es/t/{table.code}/replay/").status_code == 403


@pytest.mark.parametrize("lang", LANGS)
def test_a_replay_steps_to_the_end_and_matches_the_saved_state(lang):
    table, host, guest = seated()
    table = play(table, moves=20)
    total = table.version
    html = guest.get(f"/{lang}/t/{table.code}/replay/").content.decode()
    assert 'rel="next"' in html and 'id="replay-board" data-me="1"' in html and " inert" in html
    assert re.search(rf"\b{total}\b", html.split('class="replay-count"')[1][:80])
    first = guest.get(f"/{lang}/t/{table.code}/replay/?step=1").content.decode()
    assert first != html
    # forged steps fall back to the last one
    assert guest.get(f"/{lang}/t/{table.code}/replay/?step=99999").status_code == 200
    assert guest.get(f"/{lang}/t/{table.code}/replay/?step=-3").status_code == 200


def test_a_finished_game_shows_every_seat_and_a_public_result():
    table, host, guest = seated()
    table = play(table)
    engine = get_game(table.game).engine(table.mode)
    assert engine.is_over(table.state)
    stranger = Client()
    for seat in ("0", "1", ""):
        html = stranger.get(f"/es/t/{table.code}/replay/?seat={seat}")
        assert html.status_code == 200
        # seen from that seat, for the board's style (a spectator's: from none)
        me = f' data-me="{seat}"' if seat else " inert"
        assert f'id="replay-board"{me}' in html.content.decode()
    for lang in LANGS:
        page = stranger.get(f"/{lang}/r/{table.code}/")
        assert page.status_code == 200
        html = page.content.decode()
        assert 'id="ranking"' in html and "<svg" in html and "Ana" in html and "Boris" in html
    assert my_codes(host) == [table.code]
    assert f"/es/r/{table.code}/" in host.get("/es/me/").content.decode()
    # the end screen shows the chart too, with the result page to share
    for lang in LANGS:
        end = host.get(f"/{lang}/t/{table.code}/").content.decode()
        assert 'id="r-result"' in end and "<svg" in end and f"/{lang}/r/{table.code}/" in end


def test_a_running_game_has_no_result_page_yet():
    table, host, guest = seated()
    assert Client().get(f"/es/r/{table.code}/").status_code == 404
    assert 'id="r-result"' not in host.get(f"/es/t/{table.code}/").content.decode()


def test_staff_find_players_and_groups_and_a_tables_seats_link_to_them(django_user_model):
    phone = Client()
    table = create(phone)
    phone.post("/es/groups/new/", {"name": "Jueves"})
    staff = Client()
    staff.force_login(django_user_model.objects.create_superuser("boss", password=None))
    player = Player.objects.get(name="Ana")
    page = staff.get(f"/es/admin/games/table/{table.pk}/change/").content.decode()
    assert f"/es/admin/players/player/{player.pk}/change/" in page
    found = staff.get("/es/admin/players/player/?q=Ana").content.decode()
    assert f"/es/admin/players/player/{player.pk}/change/" in found
    detail = staff.get(f"/es/admin/players/player/{player.pk}/change/").content.decode()
    assert table.code in detail and "token_hash" not in detail
    groups = staff.get("/es/admin/players/group/?q=Ana").content.decode()
    assert "Jueves" in groups


def test_a_finished_digital_triumfdrez_shows_every_hand_at_once():
    table, host, guest = seated("triumfdrez")
    table = play(table)
    from games import replay

    log = replay.table_log(table)
    step = 20  # in the first hand's play
    state = replay.run(table.game, table.mode, table.config, log, keep=step).state
    html = Client().get(f"/es/t/{table.code}/replay/?step={step}&seat=all").content.decode()
    shown = set(re.findall(r'data-card="([^"]+)"', html))
    assert {card for hand in state["hands"] for card in hand} <= shown
    assert html.count('class="hand-record"') == 4
    # while a game runs, "every hand" is refused: one's own seat is shown
    running, host, guest = seated("triumfdrez")
    running = play(running, moves=20)
    state = running.state
    page = host.get(f"/es/t/{running.code}/replay/?seat=all").content.decode()
    assert 'class="hand-record"' not in page
    engine = get_game(running.game).engine(running.mode)
    others = {card for hand in state["hands"][1:] for card in hand}
    hidden = others - cards_in(engine.view(state, 0))  # (an open contract shows some)
    assert hidden and not hidden & set(re.findall(r'data-card="([^"]+)"', page))


def test_my_games_reads_every_table_in_a_fixed_number_of_queries():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    phone = Client()
    counts = []
    for _ in range(2):
        create(phone)
        create(phone)
        with CaptureQueriesContext(connection) as queries:
            assert phone.get("/es/me/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts  # two tables or four: the same queries


# -- signing up says as little as it can about which usernames exist ---------------------


def sign_up(client, username, password="tréboles-42-x", again=None, lang="es"):
    return client.post(
        f"/{lang}/account/sign-up/",
        {"username": username, "password1": password, "password2": again or password},
    )


def username_errors(response) -> str:
    html = response.content.decode()
    found = re.search(r'<ul class="errorlist" id="id_username_error">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_taken_username_is_refused_like_any_unusable_one(lang):
    from django.contrib.auth.models import User
    from django.utils import translation
    from django.utils.html import escape

    from players.forms import SignUpForm

    assert sign_up(Client(), "ana").status_code == 302
    with translation.override(lang):
        unusable = escape(str(SignUpForm.UNUSABLE))
    other = Client()
    refusals = set()
    for name in ("ana", "ANA", "ana d'or", "a" * 151):  # taken, taken, malformed, too long
        response = sign_up(other, name, lang=lang)
        assert response.status_code == 400
        refusals.add(username_errors(response))
    assert refusals == {f"<li>{unusable}</li>"}
    assert User.objects.count() == 1


@pytest.fixture
def few_sign_ups(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sign_up": (3, 3600)}


@pytest.mark.parametrize("lang", LANGS)
def test_every_sign_up_attempt_counts_toward_the_limit(few_sign_ups, lang):
    from django.contrib.auth.models import User
    from django.utils import translation
    from django.utils.html import escape

    from players.views import REFUSED

    assert sign_up(Client(REMOTE_ADDR="203.0.113.50"), "ana").status_code == 302
    phone = Client(REMOTE_ADDR="198.51.100.50")
    assert sign_up(phone, "ana", lang=lang).status_code == 400  # taken
    assert sign_up(phone, "boris", again="tréboles-43-x", lang=lang).status_code == 400
    assert sign_up(phone, "bo ris", lang=lang).status_code == 400  # malformed
    over = sign_up(phone, "boris", lang=lang)
    assert over.status_code == 429
    with translation.override(lang):
        assert escape(str(REFUSED["too_many_attempts"])) in over.content.decode()
    assert username_errors(sign_up(phone, "ana", lang=lang)) == ""  # nothing said of it
    assert not User.objects.filter(username="boris").exists()
    # another address is not concerned
    assert sign_up(Client(REMOTE_ADDR="198.51.100.51"), "boris").status_code == 302


def test_the_default_sign_up_limit_holds_in_a_loop(settings):
    from games import ratelimit

    settings.RATE_LIMITS = {}  # the site's own limits
    limit, _seconds = ratelimit.RATE_LIMITS["sign_up"]
    assert limit == 10
    phone = Client()
    statuses = [sign_up(phone, "ana", again="other-42-x").status_code for _ in range(limit + 2)]
    assert statuses == [400] * limit + [429] * 2
