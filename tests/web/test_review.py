"""The review after a game (issue 38; games.review): a finished digital game's decisions
of a person's seat judged by the game's hard level from that seat's view, the costliest
moments listed on the result and replay pages, computed once by a job of the task queue
with its progress shown, and shown only to the phone that holds the seat.

The scripted game: TriumfDrez at two players, one hand (the match's target lowered to 1
before the deal), every move the `heuristic` level's but one of Ana's: with two cards
left she plays the one that gives away a trick (2 points of the hand). Budgets are small.
"""

import random
import re
import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import review, services, thinking
from games.models import Review, Table
from games.registry import get_game
from games.triumfdrez import bots, engine
from tests.tables import wait_for

SMALL = {"play_work": 2_000, "play_deals": (8, 16), "bid_deals": 6, "bid_combos": 3}
SEED = 1
# Ana's move with two cards left (11 tricks played) that throws a trick away
BAD = {"type": "play", "card": "pawn-9"}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    web = get_game("triumfdrez").web
    monkeypatch.setattr(web, "review_budget", {"digital": SMALL})


@pytest.fixture
def inline(monkeypatch):
    """The judge called in the test's own process (the pool is tested once, below)."""
    calls = []

    def run(fn, *args, **kwargs):
        calls.append(args[3])
        return fn(*args, **kwargs)

    monkeypatch.setattr(thinking, "run", run)
    return calls


def finished_game(played_bad: bool = True):
    """Ana (seat 0) and Boris (seat 1), people, each with a phone (a Client), through one
    seeded hand to the end of the match; returns (table, ana, boris, the bad move's step)."""
    ana, boris = Client(), Client()
    response = ana.post(
        "/es/play/",
        {"game": "triumfdrez", "mode": "digital", "players": "2", "name": "Ana", "target": "10"},
    )
    code = response["Location"].split("/")[3]
    assert boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"}).status_code == 302
    table = Table.objects.get(code=code)
    Table.objects.filter(pk=table.pk).update(config={**table.config, "target": 1})
    table.refresh_from_db()
    original = services.secrets.randbits
    services.secrets.randbits = lambda bits: SEED
    try:
        assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-review"}).status_code == 302
    finally:
        services.secrets.randbits = original
    table.refresh_from_db()
    rng, bad_step = random.Random(SEED), None
    while not engine.is_over(table.state):
        state = table.state
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state)
        action = bots.heuristic(engine.view(state, seat), legal, rng)
        bad_moment = state["phase"] == "play" and len(state["played_tricks"]) == 11
        if played_bad and seat == 0 and bad_moment:
            assert BAD in legal and action != BAD
            action, bad_step = BAD, table.version + 1
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
    return table, ana, boris, bad_step


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.mark.django_db
def test_the_review_names_the_move_that_threw_a_trick_away(inline):
    table, _ana, _boris, bad_step = finished_game()
    asked = review.ask(table, 0)
    review.compute(asked.pk)
    asked.refresh_from_db()
    assert asked.status == Review.Status.DONE
    assert asked.total == len(review.decisions(table, 0)) == len(inline) > 5
    assert 1 <= len(asked.moments) <= review.MOMENTS
    costs = [moment["cost"] for moment in asked.moments]
    assert costs == sorted(costs, reverse=True)
    bad = next(moment for moment in asked.moments if moment["step"] == bad_step)
    assert bad["played"] == BAD and bad["best"] != BAD and bad["best"]["type"] == "play"
    assert bad["cost"] >= 1.5  # a trick: 2 points of the hand


@pytest.mark.django_db
def test_only_the_persons_choices_are_judged(inline):
    table, *_rest = finished_game(played_bad=False)
    found = review.decisions(table, 0)
    assert found and all(len(d.legal) > 1 for d in found)
    assert all(d.played["type"] in ("bid", "pass", "play") for d in found)
    # each judged from the seat's own view: Boris's hand is never in it
    assert all("hand" in d.view and d.view["seat"] == 0 for d in found)
    steps = {d.step for d in found}
    seats = dict(table.actions.values_list("version", "seat"))
    assert all(seats[step] == 0 for step in steps)
    # a move a computer player made for her (her turn clock ran out) is not hers to judge
    taken = found[3].step
    table.actions.filter(version=taken).update(client_action_id=f"clock:{taken - 1}")
    assert [d.step for d in review.decisions(table, 0)] == [
        d.step for d in found if d.step != taken
    ]


@pytest.mark.django_db
def test_a_rematch_leaves_the_finished_games_review_to_that_game(inline):
    table, ana, _boris, bad_step = finished_game()
    asked = review.ask(table, 0)
    ended = table.version
    host = re.search(
        r'action="([^"]+)" id="rematch-form"', ana.get(f"/es/t/{table.code}/").content.decode()
    )
    assert host is not None
    assert ana.post(host.group(1), {"action_id": "rematch-review"}).status_code == 302
    table.refresh_from_db()
    assert table.version > ended and not review.reviewable(table)
    review.compute(asked.pk)
    asked.refresh_from_db()
    assert asked.status == Review.Status.DONE and bad_step in [m["step"] for m in asked.moments]
    assert all(d.step <= ended for d in review.decisions(table, 0, ended))
    assert review.current(table, 0) is None  # the new game has none yet


@pytest.mark.django_db
def test_a_table_still_in_play_has_no_review():
    ana = Client()
    response = ana.post(
        "/es/play/",
        {"game": "triumfdrez", "mode": "digital", "players": "2", "name": "Ana", "target": "10"},
    )
    code = response["Location"].split("/")[3]
    Client().post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-review"}).status_code == 302
    table = Table.objects.get(code=code)
    assert not review.reviewable(table)
    assert ana.get(f"/es/r/{code}/review/0/").status_code == 404
    assert ana.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 404
    assert not Review.objects.exists()


@pytest.mark.django_db
def test_only_the_phone_holding_the_seat_sees_and_asks_for_its_review(inline):
    table, ana, boris, bad_step = finished_game()
    code = table.code
    stranger = Client()
    page = text(ana.get(f"/es/r/{code}/"))
    assert "· Ana y Boris" in page  # the players, not the site's games (base.html's names)
    assert "Revisión de las jugadas de Ana" in page and "Revisar mis jugadas" in page
    assert "Revisión de las jugadas de Boris" not in page
    # a stranger and Boris may neither ask for Ana's review nor read it
    for phone in (stranger, boris):
        assert phone.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 404
        assert phone.get(f"/es/r/{code}/review/0/").status_code == 404
    assert not Review.objects.exists()
    assert ana.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 302
    review.compute(Review.objects.get().pk)
    mine = text(ana.get(f"/es/r/{code}/"))
    assert (
        f"Jugada {bad_step} Tu jugada:" in mine
        and "Mejor:" in mine
        and "puntos por partida" in mine
    )
    for phone in (stranger, boris):
        for path in (f"/es/r/{code}/", f"/es/t/{code}/replay/?seat=0&step={bad_step}"):
            shown = phone.get(path).content.decode()
            assert "review-moments" not in shown and "jugadas de Ana" not in shown
        assert phone.get(f"/es/r/{code}/review/0/").status_code == 404
    # the replay at that move shows it to Ana, the link to it marked as the current step
    replay = ana.get(f"/es/t/{code}/replay/?seat=0&step={bad_step}").content.decode()
    assert f'?step={bad_step}&amp;seat=0" aria-current="step"' in " ".join(replay.split())


@pytest.mark.django_db
def test_the_highcard_game_declines_a_review():
    from tests.highcard.game import installed

    with installed():
        table = Table(game="highcard", mode="digital", config={"players": 2})
        web = get_game("highcard").web
        assert web.judge("digital") is None
        assert review.judge_of(table) is None and not review.reviewable(table)


@pytest.mark.django_db(transaction=True)
def test_the_job_runs_through_the_queue_shows_progress_then_the_moments(monkeypatch):
    table, ana, _boris, bad_step = finished_game()
    code = table.code
    gate, started, judged = threading.Event(), threading.Event(), []

    def run(fn, *args, **kwargs):
        judged.append(args[3])
        if len(judged) == 2:  # the page looks while the review is under way
            started.set()
            assert gate.wait(20)
        return fn(*args, **kwargs)

    monkeypatch.setattr(thinking, "run", run)
    assert ana.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 302
    assert ana.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 302  # twice
    assert started.wait(20), "the review's job did not start"
    total = len(review.decisions(table, 0))
    part = ana.get(f"/es/r/{code}/review/0/?page=result")
    html = part.content.decode()
    assert f"Revisando… 1 de {total} jugadas" in text(part)
    assert 'hx-trigger="every 2s"' in html  # the page asks again
    gate.set()
    wait_for(lambda: Review.objects.get().status == Review.Status.DONE, 60, "the review")
    assert len(judged) == total  # asked twice, computed once
    assert Review.objects.count() == 1
    part = ana.get(f"/es/r/{code}/review/0/")
    assert "hx-trigger" not in part.content.decode()
    assert f"Jugada {bad_step} Tu jugada:" in text(part)
    # asked again once done: nothing more is computed
    assert ana.post(f"/es/r/{code}/review/", {"seat": "0"}).status_code == 302
    time.sleep(0.3)
    assert len(judged) == total


@pytest.mark.django_db
def test_the_judge_runs_in_the_thinking_pool(settings):
    settings.THINKERS = 1
    table, *_rest = finished_game()
    decision = review.decisions(table, 0)[-3]
    judge = review.judge_of(table)
    try:
        pairs = thinking.run(
            judge, decision.view, decision.legal, decision.played, random.Random(1), **SMALL
        )
    finally:
        thinking.shutdown()
    assert decision.played in [action for action, _value in pairs]
    assert pairs == judge(decision.view, decision.legal, decision.played, random.Random(1), **SMALL)


TRIGGS_SMALL = {"work": 600, "horizon": 8}


def _wins_now(state, action) -> bool:
    """Whether `action` of seat 0 wins the game before the other seat moves again (with
    the extra crosses it brings, T-C-BONUS, T-WIN)."""
    from games.triggs import bots as triggs_bots
    from games.triggs import engine as triggs

    after, rng = triggs.apply(state, 0, action), random.Random(0)
    while not triggs.is_over(after) and after["phase"] == "extra":
        seen = triggs.view(after, 0)
        after = triggs.apply(after, 0, triggs_bots.strong(seen, triggs.legal_actions(after), rng))
    return triggs.is_over(after) and after["winner"] == 0


@pytest.mark.django_db
def test_the_triggs_review_names_the_cross_that_would_have_won(inline, monkeypatch):
    """Triggs at two players, both seats `strong` but once: Ana could cross and win the
    game at once, and draws instead (then Boris wins). The review lists that move, the
    winning cross as the better one, in chance to win lost."""
    from games.triggs import bots as triggs_bots
    from games.triggs import engine as triggs
    from tests.tables import start_with_seed

    monkeypatch.setattr(get_game("triggs").web, "review_budget", {"digital": TRIGGS_SMALL})
    table, host, _token = services.create_table("triggs", "digital", {"players": 2}, "Ana")
    services.claim_seat(table, 1, "Boris")
    table = start_with_seed(table, host, 7)
    rng, bad_step = random.Random(7), None
    while not triggs.is_over(table.state):
        state = table.state
        seat = triggs.to_act(state)[0]
        legal = triggs.legal_actions(state)
        action = triggs_bots.strong(triggs.view(state, seat), legal, rng)
        chance = seat == 0 and bad_step is None and action["type"] == "cross"
        if chance and _wins_now(state, action):
            action = next(a for a in legal if a["type"] == "draw")
            bad_step = table.version + 1
        services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
        table.refresh_from_db()
    assert bad_step is not None and table.state["winner"] == 1
    asked = review.ask(table, 0)
    review.compute(asked.pk)
    asked.refresh_from_db()
    assert asked.status == Review.Status.DONE and asked.total == len(inline)
    bad = next(moment for moment in asked.moments if moment["step"] == bad_step)
    assert bad["played"]["type"] == "draw" and bad["best"]["type"] == "cross"
    assert bad["cost"] >= 0.1  # twice the least cost listed (GameWeb.least_cost)
    from django.utils import translation

    with translation.override("fr"):
        line = next(m for m in review.lines(table, asked, "Ana") if m["step"] == bad_step)
    assert line["cost"].endswith("\u00a0% de chances de gagner en moins")
    sets = " · ".join("+".join(map(str, cards)) for cards in bad["best"]["sets"])
    assert line["best"].startswith(f"Ana coche {bad['best']['value']} ×") and sets in line["best"]


@pytest.mark.django_db
def test_the_admin_lists_reviews_read_only(inline, django_user_model):
    table, *_rest = finished_game()
    asked = review.ask(table, 0)
    review.compute(asked.pk)
    staff = Client()
    staff.force_login(django_user_model.objects.create_superuser("boss", password=None))
    listed = staff.get("/es/admin/games/review/")
    assert listed.status_code == 200 and table.code in listed.content.decode()
    shown = staff.get(f"/es/admin/games/review/{asked.pk}/change/")
    assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()
    assert staff.get("/es/admin/games/review/add/").status_code == 403


@pytest.mark.django_db
def test_a_review_whose_job_was_lost_is_queued_again_when_asked(
    monkeypatch, django_capture_on_commit_callbacks
):
    table, *_rest = finished_game()
    queued = []
    monkeypatch.setattr(review, "_queue", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        asked = review.ask(table, 0)
        review.ask(table, 0)
    assert queued == [asked.pk]
    Review.objects.filter(pk=asked.pk).update(
        status="running", done=4, updated=timezone.now() - review.STALLED - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        review.ask(table, 0)
    assert queued == [asked.pk, asked.pk]
    assert Review.objects.get().status == "waiting"


@pytest.mark.django_db
def test_a_second_run_of_the_job_leaves_a_review_being_judged(inline):
    table, *_rest = finished_game()
    asked = review.ask(table, 0)
    Review.objects.filter(pk=asked.pk).update(status="running", done=2, updated=timezone.now())
    review.compute(asked.pk)  # another run is judging it: nothing done twice
    assert inline == [] and Review.objects.get().done == 2
    # a run whose progress has not moved for long died: the next one takes over
    Review.objects.filter(pk=asked.pk).update(
        updated=timezone.now() - review.ALIVE - timedelta(seconds=1)
    )
    review.compute(asked.pk)
    done = Review.objects.get()
    assert done.status == "done" and done.done == done.total == len(inline) > 0


@pytest.mark.django_db
def test_a_database_busy_for_a_moment_does_not_leave_a_review_running(inline, monkeypatch):
    """A progress write refused is skipped; a job that fails on the database gives its
    claim back, so that its retry (games.tasks.review) judges the game, not 'another run'."""
    from django.db import OperationalError

    table, *_rest = finished_game()
    asked = review.ask(table, 0)
    real, refusals = review._write, []

    def busy(review_id, **fields):
        if fields.keys() == {"done"} and not refusals:  # the first progress write
            refusals.append(fields)
            raise OperationalError("database table is locked")
        return real(review_id, **fields)

    monkeypatch.setattr(review, "_write", busy)
    monkeypatch.setattr(review, "PROGRESS_EVERY", 1)
    review.compute(asked.pk)
    assert refusals and Review.objects.get().status == "done"

    again = review.ask(table, 1)
    monkeypatch.setattr(
        review, "_judge_all", lambda *args: (_ for _ in ()).throw(OperationalError("locked"))
    )
    with pytest.raises(OperationalError):
        review.compute(again.pk)
    assert Review.objects.get(pk=again.pk).status == "waiting"  # the retry may claim it
