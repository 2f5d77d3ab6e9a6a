"""Computer players move on their own (games.autoplay): after the delay, as a job of the
task queue (games.deadlines; here the in-process queue of a site on SQLite), through the
same service as people, once per turn however often they are scheduled."""

import pytest

from games import autoplay, deadlines, services
from games.models import Action, Table
from tests.tables import config, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def table_with_a_bot(level="strong"):
    """Ana against one computer player, the game started and the bot to act."""
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana"
    )
    services.seat_bot(table, host, 1, level)
    services.start_table(table, host, "start-autoplay")
    table.refresh_from_db()
    state = table.state
    state["turn"] = 1
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    return table


def test_after_the_delay_the_bot_plays_through_the_queue(settings, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *args: None)
    table = table_with_a_bot()
    monkeypatch.undo()
    # long enough that the check below comes first on a busy machine (it failed at 0.05 s)
    settings.BOT_DELAY = 0.5
    deadlines.schedule(table.pk)
    assert Table.objects.get(pk=table.pk).version == table.version  # not at once
    # the bot's move (and any extra crosses it brings) until it is Ana's turn
    wait_for(lambda: Table.objects.get(pk=table.pk).state["turn"] == 0, what="the bot's move")
    row = Action.objects.get(table=table, version=table.version + 1)
    assert (row.seat, row.client_action_id) == (1, f"bot:{table.version}")


def test_a_move_scheduled_twice_is_played_once(settings, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *args: None)
    table = table_with_a_bot()
    stale = Table.objects.get(pk=table.pk)  # what a second timer would have loaded
    assert autoplay.move(table)
    assert not autoplay.move(stale)
    assert Action.objects.filter(table=table, client_action_id__startswith="bot:").count() == 1


def test_with_no_delay_the_bots_play_until_a_person_is_to_act(settings):
    settings.BOT_DELAY = 0
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 3), "Ana"
    )
    services.seat_bot(table, host, 1, "strong")
    services.seat_bot(table, host, 2, "greedy")
    services.start_table(table, host, "start-bots")
    table.refresh_from_db()
    assert table.state["turn"] == 0 and table.state["phase"] == "play"
    # the bots moved in turn, each through the service with its own action id
    for row in Action.objects.filter(table=table, version__gt=1):
        assert row.seat in (1, 2) and row.client_action_id == f"bot:{row.version - 1}"


def test_a_bot_plays_no_seat_but_its_own(settings):
    settings.BOT_DELAY = 0
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana"
    )
    services.claim_seat(table, 1, "Boris")
    services.start_table(table, host, "start-people")
    table.refresh_from_db()
    assert not autoplay.play_once(table.pk)
    assert Action.objects.filter(table=table).count() == 1
