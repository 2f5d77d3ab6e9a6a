"""The hard computer players at real tables (issue 38): offered in the lobby with a line
saying what each level is, they play whole games through the service at 2, 3 and 4
players without a refused move, thinking in the pool of processes (games.thinking),
never in the process that serves the table."""

import logging
import os
import random

import pytest
from django.test import Client

from games import services, thinking
from games.models import Action, Seat, Table
from games.registry import get_game

pytestmark = pytest.mark.django_db(transaction=True)  # computer players move on commit

# Small budgets: the path is the tables' (pool, service), the strength is bench/ladder.py's.
SMALL = {
    "triggs": {"work": 300, "horizon": 4},
    "triumfdrez": {"play_work": 2_000, "play_deals": (4, 8), "bid_deals": 6, "bid_combos": 3},
}


@pytest.fixture(autouse=True)
def small_budgets(settings, monkeypatch):
    settings.BOT_DELAY = 0
    for slug, options in SMALL.items():
        thinker = get_game(slug).web.bot_levels["hard"][0]
        monkeypatch.setattr(thinker, "options", options)


def test_a_search_runs_in_another_process_at_a_lower_priority(settings):
    assert thinking.run(os.getpid) != os.getpid()
    assert thinking.run(os.nice, 0) == min(19, os.nice(0) + settings.THINK_NICE)
    if hasattr(os, "SCHED_IDLE"):  # Linux: the idle class, after anything else that runs
        assert thinking.run(os.sched_getscheduler, 0) == os.SCHED_IDLE
    assert isinstance(get_game("triggs").web.bot_levels["hard"][0], thinking.Thinker)
    assert isinstance(get_game("triumfdrez").web.bot_levels["hard"][0], thinking.Thinker)


def table_with_hard_players(game, players, **options):
    host = Client()
    fields = {"game": game, "mode": "digital", "players": str(players), "name": "Ana", **options}
    code = host.post("/fr/play/", fields)["Location"].split("/")[3]
    page = host.get(f"/fr/t/{code}/").content.decode()
    assert '<option value="hard">difficile</option>' in page
    assert "Anticipe sur de nombreuses répartitions possibles" in page  # the level in a line
    for index in range(1, players):
        response = host.post(f"/fr/t/{code}/bot/", {"index": str(index), "level": "hard"})
        assert response.status_code == 302
    assert host.post(f"/fr/t/{code}/start/", {"action_id": "start-hard"}).status_code == 302
    return Table.objects.get(code=code)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("triggs", 2, {}),
        ("triggs", 3, {}),
        ("triggs", 4, {}),
        ("triumfdrez", 2, {"target": "10"}),
        ("triumfdrez", 3, {"target": "10"}),
        ("triumfdrez", 4, {"target": "10"}),
    ],
)
def test_hard_players_play_a_whole_game_through_the_service(game, players, options, caplog):
    caplog.set_level(logging.ERROR, logger="games.autoplay")
    table = table_with_hard_players(game, players, **options)
    assert set(Seat.objects.filter(table=table).values_list("bot_level", flat=True)) >= {"hard"}
    engine = get_game(game).engine("digital")
    steady, _name = next(iter(get_game(game).web.bot_levels.values()))  # Ana plays as it would
    rng = random.Random(players)
    for turn in range(400):
        table.refresh_from_db()
        if engine.is_over(table.state):
            break
        # Ana's turn, or a moment any seat may end (the next hand): people do that
        assert 0 in engine.to_act(table.state), "a computer player's turn was left waiting"
        action = steady(engine.view(table.state, 0), engine.legal_actions(table.state), rng)
        services.apply_action(table, 0, action, table.version, f"ana-{turn}")
    assert engine.is_over(table.state)
    assert not [r for r in caplog.records if "was refused" in r.getMessage()]
    bots = Action.objects.filter(table=table).exclude(seat=0).count()
    assert bots >= players - 1
