"""A player's statistics (issue 20, players.stats): games played and won per game and
mode; TriumfDrez: contracts declared and made, tricks over or under, open contracts,
points per hand; Triggs: turns to finish, the longest chain of extra crosses, discards
forced by a full row. Games with known numbers are played through the services, and a
random digital Triggs game is checked against a count made here from its log."""

import random
import uuid

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from games import replay, services
from games.models import Seat, Table
from games.registry import get_game
from games.triggs.sheet import ROW_SIZES
from players import stats
from players.models import Player
from tests.tables import config, start_with_seed
from tests.web.test_charts import play as play_on
from tests.web.test_players import create, join, start

pytestmark = pytest.mark.django_db

LANGS = ("es", "el", "ru", "fr")


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def seated(game, mode, names, seed=1, **options):
    table, host, _token = services.create_table(
        game, mode, config(game, mode, len(names), **options), names[0]
    )
    for index, name in enumerate(names[1:], start=1):
        services.claim_seat(table, index, name)
    table = start_with_seed(table, host, seed)
    people = [Player.objects.create(name=name) for name in names]
    for index, person in enumerate(people):
        Seat.objects.filter(table=table, index=index).update(player=person)
    return table, people


def act(table, by, **action):
    services.apply_action(table, by, action, table.version, uuid.uuid4().hex)
    table.refresh_from_db()


def lines(player, lang="es") -> dict[tuple[str, str], dict[str, str]]:
    with translation.override(lang):
        return {
            (block["game"], str(block["mode"])): {str(k): v for k, v in block["lines"]}
            for block in stats.summary(player)
        }


def contract(table, seat, tricks, won, open_=False):
    act(table, seat, type="contract", seat=seat, tricks=tricks, trump=None, supertrump=None,
        open=open_)  # fmt: skip
    act(table, seat, type="result", tricks=won)


def test_triumfdrez_contracts_made_margins_open_contracts_and_points():
    table, (ana, boris) = seated("triumfdrez", "companion", ["Ana", "Boris"], target=25)
    contract(table, 0, 5, 7)  # made, +2: Ana's side 5 + 2 x 2 = 9
    contract(table, 1, 4, 2)  # Boris fails, -2: Ana's side 4 + 2 x 2 = 8 (17)
    contract(table, 0, 6, 5, open_=True)  # open, failed, -1: Boris's side 8
    contract(table, 0, 7, 9)  # made, +2: 11 (28 of 25: Ana's side wins)
    assert table.state["winner"] == 0
    mine = lines(ana)[("TriumfDrez", "Acompañante")]
    assert mine == {
        "Encuentros jugados": "1",
        "Encuentros ganados": "1 de 1 (100\xa0%)",
        "Contratos que declaraste": "3",
        "Contratos cumplidos": "2 de 3 (67\xa0%)",
        "Bazas por encima (+) o por debajo (-) de tu contrato, de media": "+1",
        "Contratos a cartas descubiertas cumplidos": "0 de 1 (0\xa0%)",
        "Puntos de tu bando por partida": "7",  # (9 + 8 + 0 + 11) / 4
    }
    theirs = lines(boris)[("TriumfDrez", "Acompañante")]
    assert theirs["Encuentros ganados"] == "0 de 1 (0\xa0%)"
    assert theirs["Contratos cumplidos"] == "0 de 1 (0\xa0%)"
    assert theirs["Bazas por encima (+) o por debajo (-) de tu contrato, de media"] == "-2"
    assert theirs["Puntos de tu bando por partida"] == "2"  # 8 / 4
    assert "Contratos a cartas descubiertas cumplidos" not in theirs  # none declared


def test_a_running_game_counts_for_nothing_yet():
    table, (ana, _boris) = seated("triumfdrez", "companion", ["Ana", "Boris"], target=25)
    contract(table, 0, 5, 7)
    assert stats.summary(ana) == []


def full_but(sheet_rows: dict[int, int]) -> list[int]:
    """A sheet with every row full but the rows given, which have that many boxes open."""
    return [ROW_SIZES[v] - sheet_rows.get(v, 0) for v in range(1, 13)]


def test_triggs_companion_turns_and_the_longest_chain():
    table, (ana, boris) = seated("triggs", "companion", ["Ana", "Boris"], turn_marker=True)
    assert table.state["turn"] == 0
    act(table, 0, type="cross", value=5, sets=1)  # Ana's turn 1
    act(table, 1, type="pass")
    act(table, 0, type="pass")  # Ana's turn 2
    act(table, 1, type="cross", value=6, sets=1)
    # Ana's sheet is put right to all but three rows with one box open each
    for value, crosses in enumerate(full_but({2: 1, 3: 1, 4: 1}), start=1):
        if table.state["sheets"][0][value - 1] != crosses:
            act(table, 0, type="correct", seat=0, value=value, crosses=crosses)
    act(table, 0, type="cross", value=2, sets=1)  # turn 3: row 2 full, an extra cross…
    act(table, 0, type="extra", value=3)  # … fills row 3: another…
    act(table, 0, type="extra", value=4)  # … fills row 4: every box, Ana wins
    assert table.state["winner"] == 0
    mine = lines(ana)[("Triggs", "Acompañante")]
    assert mine == {
        "Juegos jugados": "1",
        "Juegos ganados": "1 de 1 (100\xa0%)",
        "Turnos para acabar un juego que ganaste, de media": "3",
        "Cadena más larga de tachaduras adicionales": "2",
    }
    theirs = lines(boris)[("Triggs", "Acompañante")]
    assert theirs == {
        "Juegos jugados": "1",
        "Juegos ganados": "0 de 1 (0\xa0%)",
        "Cadena más larga de tachaduras adicionales": "0",
    }


def test_a_correction_after_the_end_is_counted_again():
    table, (ana, _boris) = seated("triggs", "companion", ["Ana", "Boris"], turn_marker=True)
    for value, crosses in enumerate(full_but({2: 1}), start=1):
        if table.state["sheets"][0][value - 1] != crosses:
            act(table, 0, type="correct", seat=0, value=value, crosses=crosses)
    act(table, 0, type="cross", value=2, sets=1)
    assert lines(ana)[("Triggs", "Acompañante")]["Juegos ganados"] == "1 de 1 (100\xa0%)"
    act(table, 0, type="correct", seat=0, value=2, crosses=0)  # a mistaken win
    assert lines(ana) == {}  # the game goes on: nothing finished


def counted_by_hand(table, seat):
    """The Triggs facts of `seat`, counted here from the log through the engine."""
    engine = get_game("triggs").engine("digital")
    log = replay.table_log(table)
    state = engine.new_game(table.config, log[0].action["seed"])
    turns = chain = longest = discards = forced = 0
    for entry in log[1:]:
        before, state = state, engine.apply(state, entry.seat, entry.action)
        if entry.seat != seat:
            continue
        kind = entry.action["type"]
        if kind in ("draw", "discard", "cross"):
            turns += 1
        if kind == "cross":
            chain = 0
        if kind == "extra":
            chain += 1
            longest = max(longest, chain)
        if kind == "discard":
            discards += 1
            value = entry.action["value"]
            forced += before["sheets"][seat][value - 1] == ROW_SIZES[value]
    return turns, longest, discards, forced


def test_triggs_digital_numbers_agree_with_the_log():
    found = {}
    for seed in range(1, 40):  # games until one had a chain and a forced discard
        table, people = seated("triggs", "digital", ["Ana", "Boris", "Chloé"], seed=seed)
        play_on(table, random.Random(seed))
        winner = table.state["winner"]
        for seat, person in enumerate(people):
            turns, longest, discards, forced = counted_by_hand(table, seat)
            mine = lines(person)[("Triggs", "Digital")]
            assert mine["Cadena más larga de tachaduras adicionales"] == str(longest)
            shown = mine["Descartes forzados por una fila llena"]
            if discards:
                assert shown.startswith(f"{forced} de {discards} (")
            else:
                assert shown == "0"
            if seat == winner:
                assert mine["Turnos para acabar un juego que ganaste, de media"] == str(turns)
                assert mine["Juegos ganados"] == "1 de 1 (100\xa0%)"
            else:
                assert "Turnos para acabar un juego que ganaste, de media" not in mine
            found["chain"] = found.get("chain") or longest > 0
            found["forced"] = found.get("forced") or forced > 0
        if all(found.get(k) for k in ("chain", "forced")):
            break
    assert found == {"chain": True, "forced": True}


def test_several_games_are_summed_per_game_and_mode():
    ana = None
    for seed in (3, 4):
        table, people = seated("triumfdrez", "companion", ["Ana", "Boris"], seed=seed, target=10)
        if ana is not None:
            Seat.objects.filter(table=table, index=0).update(player=ana)
        ana = ana or people[0]
        contract(table, 0, 4, 6)  # 4 + 2 x 2 = 8
        contract(table, 0, 3, 3)  # 3: 11 of 10, Ana's side wins
    mine = lines(ana)[("TriumfDrez", "Acompañante")]
    assert mine["Encuentros jugados"] == "2"
    assert mine["Contratos que declaraste"] == "4"
    assert mine["Contratos cumplidos"] == "4 de 4 (100\xa0%)"
    assert mine["Bazas por encima (+) o por debajo (-) de tu contrato, de media"] == "+1"
    assert mine["Puntos de tu bando por partida"] == "5,5"


@pytest.mark.parametrize("lang", LANGS)
def test_my_games_shows_the_statistics_in_the_readers_language(lang):
    phone = Client()
    table = create(phone, game="triumfdrez", mode="companion")
    join(Client(), table, 1, "Boris")
    for seat in (2, 3):
        join(Client(), table, seat, f"P{seat}")
    table = start(phone, table)
    assert table.state is not None
    contract(table, 0, 10, 10)  # 10 of 50: not yet
    page = phone.get(f"/{lang}/me/").content.decode()
    assert 'id="stats-title"' not in page
    for _ in range(4):  # 10 + 4 x 13 = 62: over
        contract(table, 0, 13, 13)
    page = phone.get(f"/{lang}/me/").content.decode()
    assert 'id="stats-title"' in page
    with translation.override(lang):
        for what, value in stats.summary(Player.objects.get(name="Ana"))[0]["lines"]:
            assert f"<dt>{escape(what)}</dt><dd>{escape(value)}</dd>" in page
    assert "Contracts" not in page and "Games played" not in page


def bots_at(table, levels: dict[int, str]):
    for index, level in levels.items():
        Seat.objects.filter(table=table, index=index).update(
            kind=Seat.Kind.BOT, bot_level=level, player=None, name=""
        )


def test_wins_are_counted_against_each_level_faced_not_a_partners():
    """Ana (seat 0) with a steady partner (seat 2) against a strong and a hard player; a
    second game against two hard players, lost."""
    won_game, (ana, *_others) = seated("triumfdrez", "digital", ["Ana", "B", "C", "D"], target=10)
    bots_at(won_game, {1: "strong", 2: "heuristic", 3: "hard"})
    lost_game, _people = seated("triumfdrez", "digital", ["Ana", "B"], target=10)
    Seat.objects.filter(table=lost_game, index=0).update(player=ana)
    bots_at(lost_game, {1: "hard"})
    for table, winner in ((won_game, 0), (lost_game, 1)):
        state = {**table.state, "phase": "match_over", "winner": winner}
        state["scores"] = [10 if side == winner else 0 for side in range(len(state["scores"]))]
        Table.objects.filter(pk=table.pk).update(state=state)
    mine = lines(ana, "es")[("TriumfDrez", "Digital")]
    assert mine["Victorias contra el nivel «difícil»"] == "1 de 2 (50\xa0%)"
    assert mine["Victorias contra el nivel «fuerte»"] == "1 de 1 (100\xa0%)"
    assert not [what for what in mine if "constante" in what]  # the partner's level
    with translation.override("ru"):
        block = stats.summary(ana)[0]
    assert ("hard", "сложный", "Просчитывает ходы вперёд на множестве возможных раскладов и "
            "безупречно разыгрывает последние взятки.") in block["levels"]  # fmt: skip
