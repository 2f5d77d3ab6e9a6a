"""A third game that lives only in the tests proves the seam "a game is one package plus
one adapter": Highcard (tests/highcard) brings its engine, its computer player, its web
adapter and its templates folder, and is offered through one registry entry while a test
runs. It is played through every layer as people and staff would — the lobby, joining,
a computer player, plain form POSTs, refusals, the staff admin's list, replay, export and
import — in both its modes (real cards whose score the phones keep, and the whole game
on the phones, with a two-step move), each region declaring what it reads; and no shared
file names it: adding a game touches only its own package."""

import copy
import dataclasses
import html as htmllib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games import engine_errors, labels, open_tables, replay, services
from games.models import Action, Seat, Table
from games.registry import GAMES
from tests import declared
from tests.highcard import companion, engine
from tests.highcard.bots import lowest
from tests.highcard.game import GAME, SLUG, installed
from tests.highcard.web import adapter

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "/es/admin/games/table/"
NOT_YOUR_TURN_ES = "No es tu turno."


@pytest.fixture
def highcard(settings):
    settings.BOT_DELAY = 0  # the computer player answers inside the request
    with installed() as game:
        yield game


@pytest.fixture
def superuser_client(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("boss", password=None))
    return client


# -- helpers: a phone's pages ----------------------------------------------------------------


def create_table(client, name="Ana") -> str:
    """The lobby's create form, as a person fills it in; the new table's code."""
    response = client.post(
        "/es/play/", {"game": SLUG, "mode": "digital", "players": "2", "name": name}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"].startswith("/es/t/")
    return response["Location"].split("/")[3]


def page(client, code, seat, lang="es") -> str:
    return client.get(f"/{lang}/t/{code}/?seat={seat}").content.decode()


def form_fields(html) -> dict:
    return {
        "version": re.search(r'name="version" value="(\d+)"', html).group(1),
        "action_id": re.search(r'name="action_id" value="(\w+)"', html).group(1),
    }


def playable(html) -> list[int]:
    """The cards the page offers to play: the play form's submit buttons."""
    return [int(card) for card in re.findall(r'type="submit" name="card" value="(\d+)"', html)]


def shown_hand(html) -> list[int]:
    return sorted(int(card) for card in re.findall(r'data-card="(\d+)"', html))


def flash(html) -> str:
    match = re.search(r'id="table-flash"[^>]*>(.*?)</div>', html, re.S)
    return match.group(1) if match else ""


def post_card(client, code, seat, card, html=None, lang="es"):
    html = html or page(client, code, seat, lang)
    return client.post(
        f"/{lang}/t/{code}/act/",
        {"seat": str(seat), **form_fields(html), "kind": "play", "card": str(card)},
    )


def seated_by_services(moves=None, seed=5):
    """Ana and Boris at a started Highcard table, through the services; then `moves`
    moves (all of them if None), each seat playing its highest card."""
    table, host, _token = services.create_table(
        SLUG, "digital", adapter.config("digital", 2, {}), "Ana"
    )
    services.claim_seat(table, 1, "Boris")
    original = services.secrets.randbits
    services.secrets.randbits = lambda bits: seed
    try:
        services.start_table(table, host, "start-highcard")
    finally:
        services.secrets.randbits = original
    table.refresh_from_db()
    n = 0
    while not engine.is_over(table.state) and (moves is None or n < moves):
        seat = engine.to_act(table.state)[0]
        card = max(table.state["hands"][seat])
        services.apply_action(
            table, seat, {"type": "play", "card": card}, table.version, f"move-{n}"
        )
        table.refresh_from_db()
        n += 1
    return table


# -- the package keeps the engine contract ---------------------------------------------------


def random_game(seed):
    """(states, actions) of one seeded game of random legal moves."""
    rng = random.Random(seed)
    state = engine.new_game({"players": 2}, seed)
    states, actions = [state], []
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        assert legal and engine.to_act(state) == [state["turn"]]
        action = rng.choice(legal)
        before = copy.deepcopy(state)
        state = engine.apply(state, state["turn"], action)
        assert states[-1] == before  # apply never mutates its input
        states.append(state)
        actions.append(action)
    return states, actions


@pytest.mark.parametrize("seed", range(30))
def test_the_engine_keeps_the_contract_over_seeded_games(seed):
    assert engine.new_game({"players": 2}, seed) == engine.new_game({"players": 2}, seed)
    states, actions = random_game(seed)
    assert len(actions) == 6
    for state in states:
        assert json.loads(json.dumps(state)) == state
        played = [p["card"] for p in state["table"]]
        rounds = [p["card"] for p in (state["last_round"] or {}).get("cards", [])]
        held = [c for hand in state["hands"] for c in hand] + state["stock"]
        assert len(held) + len(played) + sum(state["rounds"]) * 2 == len(engine.DECK)
        assert set(held) | set(played) | set(rounds) <= set(engine.DECK)
        for seat in (0, 1, None):
            seen = engine.view(state, seat)
            assert "seed" not in seen and "stock" not in seen and "hands" not in seen
            assert ("hand" in seen) is (seat is not None)
            json.dumps(seen)
    final = states[-1]
    assert engine.legal_actions(final) == [] and engine.to_act(final) == []
    assert sum(final["rounds"]) == 3 and final["rounds"][final["winner"]] >= 2
    # replaying the same actions from the same seed gives the same states
    state = engine.new_game({"players": 2}, seed)
    for action, expected in zip(actions, states[1:], strict=True):
        state = engine.apply(state, state["turn"], action)
        assert state == expected


def test_a_view_does_not_change_with_what_its_seat_may_not_see():
    state = engine.new_game({"players": 2}, 11)
    other = copy.deepcopy(state)
    # Boris's hand and the undealt cards swapped: a different deal for everyone but Ana
    other["hands"][1], other["stock"] = other["stock"][:3], other["hands"][1] + other["stock"][3:]
    assert engine.view(state, 0) == engine.view(other, 0)
    assert engine.view(state, None) == engine.view(other, None)
    assert engine.view(state, 1) != engine.view(other, 1)


def test_refusals_are_shared_codes_or_its_own_each_worded():
    state = engine.new_game({"players": 2}, 3)
    card = state["hands"][1][0]
    with pytest.raises(engine_errors.IllegalAction) as refused:
        engine.apply(state, 1, {"type": "play", "card": card})
    error = refused.value
    assert isinstance(error, engine.IllegalAction)
    assert (error.code, error.rule) == ("not_your_turn", "H-PLAY") and error.message
    cases = [
        ({"players": 3}, "bad_config"),
        ({"players": True}, "bad_config"),
        ({}, "bad_config"),
    ]
    for config, code in cases:
        with pytest.raises(engine.IllegalAction) as refused:
            engine.new_game(config, 1)
        assert refused.value.code == code
    mine = state["hands"][0][0]
    for seat, action, code in [
        (2, {"type": "play", "card": mine}, "bad_seat"),
        (0, {"type": "pass"}, "bad_action"),
        (0, {"type": "play", "card": mine, "x": 1}, "bad_action"),
        (0, {"type": "play", "card": 11}, "bad_card"),
        (0, {"type": "play", "card": str(mine)}, "bad_card"),
        (0, {"type": "play", "card": card}, "card_not_in_hand"),
    ]:
        with pytest.raises(engine.IllegalAction) as refused:
            engine.apply(state, seat, action)
        assert refused.value.code == code
    over = random_game(3)[0][-1]
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply(over, 0, {"type": "play", "card": 1})
    assert refused.value.code == "game_over"
    # every code is worded: the shared ones by games.labels, its own by the adapter only
    # (with the adapter's own: a chosen card not played)
    for rules in (engine, companion):
        own = set(rules.IllegalAction.CODES) - set(labels.REFUSALS)
        assert own <= set(adapter.refusals)
    assert set(adapter.refusals) == {"bad_card", "card_not_in_hand", "card_chosen", "bad_winner"}
    assert not set(adapter.refusals) & set(labels.REFUSALS)


def test_the_computer_player_plays_its_lowest_card():
    state = engine.new_game({"players": 2}, 8)
    action = lowest(engine.view(state, 0), engine.legal_actions(state), random.Random(1))
    assert action == {"type": "play", "card": min(state["hands"][0])}


def test_the_engine_and_its_player_import_no_django():
    code = (
        "import sys, tests.highcard.engine, tests.highcard.bots; "
        "assert not any(m.split('.')[0] == 'django' for m in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# -- the lobby, joining and a whole game over plain form POSTs --------------------------------

# the computer player moves once the move before it is committed
played_on_commit = pytest.mark.django_db(transaction=True)


@played_on_commit
def test_the_lobby_offers_it_and_creates_a_digital_table(highcard):
    html = Client().get(f"/es/play/?game={SLUG}").content.decode()
    assert f'<input type="hidden" name="game" value="{SLUG}">' in html
    assert f'href="?game={SLUG}" aria-current="page">Highcard</a>' in html
    form = re.search(r'<form[^>]*id="create-table".*?</form>', html, re.S).group(0)
    assert re.findall(r'name="mode" value="(\w+)"', form) == ["companion", "digital"]
    assert re.findall(r'name="players" value="(\d+)"', form) == ["2"]
    ana = Client()
    code = create_table(ana)
    table = Table.objects.get(code=code)
    assert (table.game, table.mode, table.config) == (SLUG, "digital", {"players": 2})
    assert table.status == Table.Status.LOBBY and table.players == 2
    lobby = page(ana, code, 0)
    assert '<h1 class="app-title"><span class="app-game">Highcard</span>' in lobby
    assert '<option value="lowest">lowest</option>' in lobby  # its computer player's level
    # a mode it does not have is refused, and no table is made; so is an open table of
    # real cards (its mode has no hidden hands: the registry's Game.hidden_hands)
    for mode, extra in (("online", {}), ("companion", {"open": "on"})):
        refused = Client().post(
            "/es/play/", {"game": SLUG, "mode": mode, "players": "2", "name": "Eve", **extra}
        )
        assert refused.status_code == 400
    assert Table.objects.count() == 1
    # Play now offers its online mode, the one of hidden hands
    assert (highcard.online_mode, highcard.hidden_hands("companion")) == ("digital", False)
    assert highcard in open_tables.games()


@played_on_commit
def test_a_person_plays_a_whole_game_against_the_computer_by_form_posts(highcard):
    ana = Client()
    code = create_table(ana)
    assert ana.post(f"/es/t/{code}/bot/", {"index": "1", "level": "lowest"}).status_code == 302
    assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-web-1"}).status_code == 302
    table = Table.objects.get(code=code)
    assert Seat.objects.get(table=table, index=1).bot_level == "lowest"
    for _turn in range(10):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        assert engine.to_act(table.state) == [0], "the computer player left its turn waiting"
        html = page(ana, code, 0)
        assert shown_hand(html) == sorted(table.state["hands"][0])
        assert sorted(playable(html)) == sorted(table.state["hands"][0])
        assert str(table.state["seed"]) not in html
        response = post_card(ana, code, 0, max(playable(html)), html)
        assert response.status_code == 302 and response["Location"] == f"/es/t/{code}/?seat=0"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and engine.is_over(table.state)
    log = list(Action.objects.filter(table=table).order_by("version"))
    assert [row.seat for row in log].count(0) == 3 and [row.seat for row in log].count(1) == 3
    assert len(log) == table.version == 7
    # the computer player (given only what a phone is given) always played its lowest card
    state = engine.new_game(table.config, log[0].action["seed"])
    for row in log[1:]:
        if row.seat == 1:
            assert row.action == {"type": "play", "card": min(state["hands"][1])}
        state = engine.apply(state, row.seat, row.action)
    assert state == table.state
    html = page(ana, code, 0)
    winner = ("Ana", "Ordenador 2")[table.state["winner"]]
    assert f"{winner} wins the game." in html
    assert 'name="card"' not in html  # nothing left to play
    assert "Ordenador 2 played" in html and "Ana played" in html  # its log lines


@played_on_commit
def test_two_people_join_and_play_and_out_of_turn_is_refused(highcard):
    ana, boris = Client(), Client()
    code = create_table(ana)
    join = boris.get(f"/es/join/{code}/").content.decode()
    assert 'name="seat" value="1"' in join and "Highcard" in join
    response = boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    assert response.status_code == 302 and response["Location"] == f"/es/t/{code}/?seat=1"
    assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-web-2"}).status_code == 302
    table = Table.objects.get(code=code)
    assert table.status == Table.Status.PLAYING and engine.to_act(table.state) == [0]

    # Boris plays out of turn: refused with the shared sentence, translated, and its rule
    html = page(boris, code, 1)
    assert playable(html) == [] and shown_hand(html) == sorted(table.state["hands"][1])
    response = post_card(boris, code, 1, table.state["hands"][1][0], html)
    assert response.status_code == 409
    refused = flash(response.content.decode())
    assert NOT_YOUR_TURN_ES in refused
    assert f'href="/es/rules/{SLUG}/#H-PLAY"' in refused
    assert Table.objects.get(pk=table.pk).state == table.state
    assert Table.objects.get(pk=table.pk).version == table.version
    # the rule the refusal links to is on the game's own rules page
    rules = Client().get(f"/es/rules/{SLUG}/").content.decode()
    assert 'id="H-PLAY"' in rules

    # Ana plays a card she does not hold: the game's own (untranslated) sentence
    response = post_card(ana, code, 0, table.state["hands"][1][0])
    assert response.status_code == 409
    assert "You do not hold that card." in flash(response.content.decode())
    # a malformed card is not understood, in the shared words
    response = post_card(ana, code, 0, "eleven")
    assert response.status_code == 400
    assert "No se ha entendido esa petición." in flash(response.content.decode())
    assert Table.objects.get(pk=table.pk).version == table.version

    phones = {0: ana, 1: boris}
    for _move in range(6):
        table.refresh_from_db()
        seat = engine.to_act(table.state)[0]
        html = page(phones[seat], code, seat)
        other = page(phones[1 - seat], code, 1 - seat)
        assert playable(other) == []
        assert not set(shown_hand(other)) & set(table.state["hands"][seat])
        assert post_card(phones[seat], code, seat, min(playable(html)), html).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    winner = ("Ana", "Boris")[table.state["winner"]]
    assert f"{winner} wins the game." in page(boris, code, 1)
    watcher = Client().get(f"/es/t/{code}/").content.decode()
    assert "Estás mirando esta mesa." in watcher and "data-card=" not in watcher


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_site_lists_it_and_its_rules_anchor_every_rule_id(highcard, client, lang):
    home = client.get(f"/{lang}/").content.decode()
    assert f'id="game-{SLUG}"' in home and f'href="/{lang}/rules/{SLUG}/"' in home
    rules = client.get(f"/{lang}/rules/{SLUG}/")
    assert rules.status_code == 200
    for rule in highcard.rule_ids:
        assert f'id="{rule}"' in rules.content.decode()
    # a game whose book leaves nothing to rule on has no clarifications page, and none
    # is linked
    assert f"/{lang}/rules/{SLUG}/clarifications/" not in home
    assert client.get(f"/{lang}/rules/{SLUG}/clarifications/").status_code == 404


# -- the staff admin -------------------------------------------------------------------------


def pre_blocks(html) -> list:
    """The JSON documents a page shows (games.admin.pretty_json), in order."""
    return [
        json.loads(htmllib.unescape(block))
        for block in re.findall(r'<pre class="session-json">(.*?)</pre>', html, re.S)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("moves", [3, None])
def test_the_admin_lists_replays_exports_and_imports_it(highcard, superuser_client, moves):
    table = seated_by_services(moves)
    other = services.create_table("triggs", "digital", {"players": 2}, "Zoe")[0]

    html = superuser_client.get(ADMIN).content.decode()
    assert table.code in html
    assert '<td class="field-game_name">Highcard</td>' in html
    filtered = superuser_client.get(ADMIN, {"game": SLUG}).content.decode()
    assert table.code in filtered and other.code not in filtered
    change = superuser_client.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert "The cards were dealt." in change and "Boris played" in change

    # the replay reproduces the saved state and what each seat sees, step by step
    assert replay.replay_table(table).faithful
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert 'id="replay-divergence"' not in html
    assert f"Paso {table.version} de {table.version}" in html
    assert "Lo que ve Asiento 2 · Boris" in html and "Lo que ve un espectador" in html
    full, *views = pre_blocks(html)
    assert full == table.state
    assert views == [engine.view(table.state, seat) for seat in (0, 1, None)]
    log = replay.table_log(table)
    state = engine.new_game(table.config, log[0].action["seed"])
    for step, entry in enumerate(log[1:], start=2):
        state = engine.apply(state, entry.seat, entry.action)
        html = superuser_client.get(f"{ADMIN}{table.pk}/replay/", {"step": step}).content.decode()
        assert pre_blocks(html)[0] == state
        assert f"Paso {step} de {table.version}" in html

    # export, then import: a new table with the same state
    response = superuser_client.get(f"{ADMIN}{table.pk}/export/")
    assert response["Content-Disposition"] == (
        f'attachment; filename="session-{SLUG}-{table.code}.json"'
    )
    document = json.loads(response.content)
    assert document["game"] == SLUG and document["final"]["sha256"] == replay.state_hash(
        table.state
    )
    upload = SimpleUploadedFile("session.json", response.content, content_type="application/json")
    response = superuser_client.post(f"{ADMIN}import/", {"session": upload})
    copy_ = Table.objects.exclude(pk__in=(table.pk, other.pk)).get()
    assert response["Location"] == f"{ADMIN}{copy_.pk}/change/"
    assert copy_.code != table.code
    assert (copy_.game, copy_.state, copy_.version, copy_.config) == (
        SLUG,
        table.state,
        table.version,
        table.config,
    )
    assert copy_.status == table.status
    assert copy_.status == (Table.Status.PLAYING if moves else Table.Status.FINISHED)
    assert replay.replay_table(copy_).faithful


@pytest.mark.django_db
def test_a_tampered_highcard_state_is_flagged_by_the_replay(highcard, superuser_client):
    table = seated_by_services(2)
    state = table.state
    state["rounds"][0] += 1
    Table.objects.filter(pk=table.pk).update(state=state)
    html = superuser_client.get(f"{ADMIN}{table.pk}/replay/").content.decode()
    assert 'id="replay-divergence"' in html and "rounds" in html


# -- no shared file names it -----------------------------------------------------------------


def test_no_shared_file_names_the_third_game():
    """Run without the fixture: outside its tests the site does not offer it, and nothing
    in the shared code, templates, static files, settings or catalogues names it."""
    assert SLUG not in GAMES
    mentions = []
    for folder in ("games", "templates", "static", "companion", "locale"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix in (".pyc", ".mo"):
                continue
            text = path.read_bytes().decode("utf-8", "replace").lower()
            if SLUG in text or "tests.highcard" in text:
                mentions.append(str(path.relative_to(ROOT)))
    assert mentions == []


# -- its companion mode: real cards, the phones keep the score --------------------------------


def round_buttons(html) -> list[int]:
    """The seats the round form offers as the round's winner."""
    return [int(seat) for seat in re.findall(r'type="submit" name="winner" value="(\d+)"', html)]


def post_round(client, code, seat, winner, html=None, lang="es"):
    html = html or page(client, code, seat, lang)
    return client.post(
        f"/{lang}/t/{code}/act/",
        {"seat": str(seat), **form_fields(html), "kind": "round", "winner": str(winner)},
    )


@played_on_commit
def test_a_companion_game_is_played_refused_finished_and_replayed_through_the_views(highcard):
    ana, boris = Client(), Client()
    response = ana.post(
        "/es/play/", {"game": SLUG, "mode": "companion", "players": "2", "name": "Ana"}
    )
    assert response.status_code == 302
    code = response["Location"].split("/")[3]
    table = Table.objects.get(code=code)
    assert (table.mode, table.open) == ("companion", False)
    # no computer player sits at a table of real cards: its hands are not hidden
    refused = ana.post(f"/es/t/{code}/bot/", {"index": "1", "level": "lowest"})
    assert refused.status_code in (400, 409)
    assert Seat.objects.get(table=table, index=1).bot_level == ""
    assert boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"}).status_code == 302
    assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-companion"}).status_code == 302

    # Ana leads: her phone asks who won the round, Boris's does not
    html = page(ana, code, 0)
    assert round_buttons(html) == [0, 1] and "Your turn." in html and 'id="scores"' in html
    assert round_buttons(page(boris, code, 1)) == [] and "Ana to play." in page(boris, code, 1)
    # refused: Boris records out of turn (the shared sentence and its rule), Ana names no seat
    response = post_round(boris, code, 1, 1)
    assert response.status_code == 409
    assert NOT_YOUR_TURN_ES in flash(response.content.decode())
    assert f'href="/es/rules/{SLUG}/#H-PLAY"' in flash(response.content.decode())
    assert post_round(ana, code, 0, 7).status_code == 400
    assert Table.objects.get(pk=table.pk).version == 1

    # Boris wins a round, then leads and records the next two: he wins the game
    phones = {0: ana, 1: boris}
    for winner in (1, 0, 1):
        table.refresh_from_db()
        seat = companion.to_act(table.state)[0]
        assert post_round(phones[seat], code, seat, winner).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.state["winners"] == [1, 0, 1]
    html = page(ana, code, 0)
    assert "Boris wins the game." in html and round_buttons(html) == []
    assert "Rounds played: 3 of 3" in html
    assert "Ana recorded a round won by seat 2." in html  # its log lines
    assert replay.replay_table(table).faithful
    # its players step through it again, move by move
    replayed = ana.get(f"/es/t/{code}/replay/", {"step": "2"})
    assert replayed.status_code == 200
    assert "Rounds played: 1 of 3" in replayed.content.decode()


# -- the two-step move: choose a card, then confirm it -----------------------------------------


def post_choice(client, code, seat, card, html=None, lang="es"):
    html = html or page(client, code, seat, lang)
    return client.post(
        f"/{lang}/t/{code}/act/",
        {"seat": str(seat), **form_fields(html), "kind": "choose", "card": str(card)},
    )


@played_on_commit
def test_a_card_is_chosen_then_confirmed_and_a_chosen_card_is_committed(highcard):
    ana, boris = Client(), Client()
    code = create_table(ana)
    boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    ana.post(f"/es/t/{code}/start/", {"action_id": "start-two-step"})
    table = Table.objects.get(code=code)
    low, high = min(table.state["hands"][0]), max(table.state["hands"][0])

    html = page(ana, code, 0)
    assert 'name="kind" value="choose"' in html and "Choose a card, then confirm it." in html
    # choosing is no move: the table keeps the card on Ana's seat, at this version
    assert post_choice(ana, code, 0, high, html).status_code == 302
    table.refresh_from_db()
    assert table.version == 1
    assert Seat.objects.get(table=table, index=0).pending == f"1:{high}"
    html = page(ana, code, 0)
    assert f'data-chosen="{high}"' in html and playable(html) == [high]
    assert shown_hand(html) == sorted(table.state["hands"][0])  # the hand is all still shown
    assert "data-chosen" not in page(boris, code, 1)  # a choice is the seat's own

    # the chosen card is committed: another card, or another choice, is refused (H-PLAY)
    for response in (post_card(ana, code, 0, low, html), post_choice(ana, code, 0, low)):
        assert response.status_code == 409
        refused = flash(response.content.decode())
        assert "You chose another card: confirm it." in refused
        assert f'href="/es/rules/{SLUG}/#H-PLAY"' in refused
    # Boris may not choose out of turn, nor a card he does not hold
    assert post_choice(boris, code, 1, table.state["hands"][1][0]).status_code == 409
    assert Seat.objects.get(table=table, index=1).pending == ""
    assert Table.objects.get(pk=table.pk).version == 1

    # confirmed: the move is made and the choice is spent
    assert post_card(ana, code, 0, high).status_code == 302
    table.refresh_from_db()
    assert table.version == 2 and table.state["table"] == [{"seat": 0, "card": high}]
    assert Seat.objects.get(table=table, index=0).pending == ""
    assert f"Ana played {high}." in page(boris, code, 1)
    # Boris chooses one of his cards: he may choose the same card again, then play it
    card = table.state["hands"][1][0]
    assert post_choice(boris, code, 1, card).status_code == 302
    assert post_choice(boris, code, 1, card).status_code == 302
    assert post_card(boris, code, 1, card).status_code == 302
    table.refresh_from_db()
    assert table.version == 3 and table.state["last_round"]["cards"][1]["card"] == card


# -- each region declares what it reads ------------------------------------------------------


def positions(mode: str, seed: int):
    """The states of a seeded game of random legal moves in `mode`, with the card each
    seat to act may have chosen (its pending step) in digital play."""
    rules = companion if mode == "companion" else engine
    rng = random.Random(seed)
    state = rules.new_game({"players": 2}, seed)
    out = [(state, None)]
    while not rules.is_over(state):
        action = rng.choice(rules.legal_actions(state))
        if mode == "digital":
            out.append((state, str(action["card"])))
        state = rules.apply(state, state["turn"], action)
        out.append((state, None))
    return out


@pytest.mark.parametrize("mode", ["companion", "digital"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_region_renders_the_same_from_what_it_declares(highcard, mode, seed):
    """tests/declared.py: each region, rendered from only the context paths it declares
    (GameWeb.regions), comes out as it does from the whole context, for every seat and a
    spectator at every position of a game, with a chosen card or none."""
    reads = adapter.reads(mode)
    assert set(reads) == {name for name, *_rest in adapter.regions[mode]}
    assert all(paths for paths in reads.values())  # every region declares its reads
    names = {0: "Ana", 1: "Boris"}
    checked = 0
    for state, pending in positions(mode, seed):
        board = adapter.board(mode, state, names)
        to_act = (companion if mode == "companion" else engine).to_act(state)
        for seat in (0, 1, None):
            mine = pending if seat in to_act else None
            context = {
                "board": board,
                "panel": adapter.panel(mode, state, seat, names, mine),
                # what the rest of a table's context holds: no region may need it
                "names": names,
                "seated": seat is not None,
                "active": seat,
                "table": {"code": "ABCDEF", "game": SLUG, "mode": mode},
                "view": None,
                "fields": "<!--fields-->",
                "post_fields": "<!--post-fields-->",
                "act_url": "/es/t/ABCDEF/act/",
            }
            for name, template, _pane in adapter.screen(mode):
                diff = declared.undeclared(template, context, reads[name])
                assert diff is None, f"{mode} region {name!r} (seat {seat}) reads more:\n{diff}"
                checked += 1
    assert checked >= 3 * len(reads) * 4


@pytest.mark.parametrize("mode", ["companion", "digital"])
def test_an_undeclared_read_is_caught(highcard, mode):
    """The check finds a region that reads what it does not declare: the status line
    without `board.winner_name` at a finished game."""
    state = positions(mode, 4)[-1][0]
    names = {0: "Ana", 1: "Boris"}
    context = {
        "board": adapter.board(mode, state, names),
        "panel": adapter.panel(mode, state, 0, names, None),
    }
    template = dict((name, template) for name, template, _pane in adapter.screen(mode))["status"]
    short = [path for path in adapter.reads(mode)["status"] if path != "board.winner_name"]
    assert declared.undeclared(template, context, adapter.reads(mode)["status"]) is None
    assert "wins the game" in declared.undeclared(template, context, short)


# -- what the registry says of its modes -------------------------------------------------------


def test_the_registry_says_which_modes_hide_hands_and_which_plays_online():
    """Shared code asks Game.hidden_hands and Game.online_mode, not the mode's name: a game
    whose only mode keeps the score of real cards is not offered online."""
    highcard = GAME
    assert highcard.hidden_hands("digital") and not highcard.hidden_hands("companion")
    assert not highcard.hidden_hands("online")  # a mode it does not have
    assert highcard.online_mode == "digital"
    scores_only = dataclasses.replace(
        highcard, engines={"companion": highcard.engines["companion"]}
    )
    assert scores_only.online_mode is None and not scores_only.hidden_hands("digital")
    hidden_first = dataclasses.replace(highcard, hidden_modes=("companion", "digital"))
    assert hidden_first.online_mode == "companion"  # the first of its modes that hides hands
    with pytest.raises(services.Refused) as refused:
        services.Online(open=True).fields(scores_only, "companion")
    assert refused.value.code == "bad_config"
    assert services.Online(open=True).fields(highcard, "digital")["open"] is True
