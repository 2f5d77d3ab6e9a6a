"""The review after a game: the moves of a person's seat that cost most.

For a finished game whose adapter can judge a decision (GameWeb.judge), each decision
of the seat with a choice (more than one legal action), made by its person (not by a
computer player for it) and of a kind the game reviews (GameWeb.judged), is judged from
the seat's view at that moment by the game's own `judge`: the value of the move played
against the alternatives its strongest computer level weighs, on the same sampled deals.
The costliest few are kept (`Review.moments`), as actions: a page words them in its
reader's language (GameWeb.review_words, GameWeb.cost_words).

A review is asked for by the person holding the seat (`ask`), computed once per table,
seat and game by a job of the task queue (games.tasks.review → `compute`), its searches
in games.thinking's pool, and shown with its progress until it is done. Who may see it
is `visible_seats`: only a phone that holds the seat now, since its alternatives tell the
seat's hand. Only this module and its job write a Review.
"""

import contextlib
import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games import autoplay, replay, thinking
from games.models import Review, Seat, Table
from games.registry import get_game

log = logging.getLogger(__name__)
MOMENTS = 5  # the most moments a review lists
PROGRESS_EVERY = 1  # decisions judged between two writes of the progress
# a review not done whose row has not moved for this long lost its job: asked again, queued
STALLED = timedelta(minutes=10)
# a run whose progress moved within this long is alive: another run of its job leaves it
# (a decision takes at most settings.THINK_TIMEOUT)
ALIVE = timedelta(minutes=2)


def judge_of(table: Table):
    """The game's judge for the table's mode, or None when it has no review."""
    game = get_game(table.game)
    if not game.hidden_hands(table.mode):
        return None
    return game.web.judge(table.mode)


def reviewable(table: Table) -> bool:
    """A finished game of a mode the game reviews."""
    if table.state is None or judge_of(table) is None:
        return False
    return get_game(table.game).engine(table.mode).is_over(table.state)


def visible_seats(table: Table, seats: list[Seat], hashes) -> list[int]:
    """The seats whose review this phone may see and ask for: the persons' seats it holds
    now (a review's alternatives tell the seat's hand, games.phones)."""
    if not reviewable(table):
        return []
    return [
        seat.index
        for seat in seats
        if seat.kind == Seat.Kind.HUMAN and seat.token_hash and seat.token_hash in hashes
    ]


def current(table: Table, seat: int) -> Review | None:
    """The review of the table's latest game for `seat`, if asked for."""
    return Review.objects.filter(table=table, seat=seat, version=table.version).first()


def ask(table: Table, seat: int) -> Review:
    """The review of `seat` in the table's latest game: the one asked for before, else a
    new one whose job is queued once (a unique row, and the job's queueing lock); one whose
    job was lost (STALLED) is queued again."""
    try:
        with transaction.atomic():
            review, created = Review.objects.get_or_create(
                table=table, seat=seat, version=table.version
            )
    except IntegrityError:  # asked twice at once: the other request made it
        return Review.objects.get(table=table, seat=seat, version=table.version)
    stalled = review.status in (Review.Status.WAITING, Review.Status.RUNNING) and (
        review.updated < timezone.now() - STALLED
    )
    if stalled:  # its job was lost (a queue kept in memory, restarted): queued again
        _write(review.pk, status=Review.Status.WAITING, done=0)
    if created or stalled:
        transaction.on_commit(lambda: _queue(review.pk))
    return review


def _queue(review_id: int) -> None:
    from companion import queue
    from games import tasks

    queue.defer(tasks.review, time.time(), lock=f"review:{review_id}", review_id=review_id)


@dataclass(frozen=True)
class Decision:
    step: int  # the table's version once the move applied (the replay's step)
    view: dict
    legal: list
    played: dict
    seed: str  # of the judge's random draws


def _game(table: Table, version: int) -> list[replay.Step]:
    """The steps of the game that ended at `version` (a rematch may have followed)."""
    log = [entry for entry in replay.table_log(table) if entry.version <= version]
    steps: list[replay.Step] = []
    for step in replay.walk(table, log):
        if step.before is None:
            steps = []
        steps.append(step)
    return steps


def decisions(table: Table, seat: int, version: int | None = None) -> list[Decision]:
    """The seat's decisions that the review judges in the game that ended at `version`
    (by default the table's latest)."""
    game = get_game(table.game)
    engine, web = game.engine(table.mode), game.web
    rows = table.actions.filter(seat=seat).values_list("version", "client_action_id")
    by_computer = {logged for logged, action_id in rows if autoplay.by_computer(action_id)}
    found = []
    steps = _game(table, table.version if version is None else version)
    # the decisions' own randomness, from the game's deal: a review is the same every time
    seed = steps[0].entry.action.get("seed") if steps else 0
    for step in steps:
        entry = step.entry
        if (
            entry.seat != seat
            or step.before is None
            or entry.acted_by is not None
            or entry.version in by_computer
            or engine.to_act(step.before) != [seat]
            or not web.judged(table.mode, entry.action)
        ):
            continue
        legal = engine.legal_actions(step.before)
        if len(legal) < 2:
            continue
        view = engine.view(step.before, seat)
        found.append(Decision(entry.version, view, legal, entry.action, f"{seed}:{entry.version}"))
    return found


def _write(review_id: int, **fields) -> int:
    """Update a review's row (its `updated` too: a queryset's update leaves auto_now)."""
    return Review.objects.filter(pk=review_id).update(updated=timezone.now(), **fields)


def compute(review_id: int) -> None:
    """Judge the decisions of a review's seat, writing its progress as it goes, then its
    costliest moments (the job of games.tasks.review; again from the start if run again,
    unless another run is judging it now: its progress moved within ALIVE)."""
    review = Review.objects.select_related("table").filter(pk=review_id).first()
    if review is None or review.status == Review.Status.DONE:
        return
    table = review.table
    judge = judge_of(table)
    web = get_game(table.game).web
    if judge is None:
        _write(review_id, status=Review.Status.FAILED)
        return
    budget = web.review_budget.get(table.mode, {})
    found = decisions(table, review.seat, review.version)
    free = Q(status=Review.Status.WAITING) | Q(updated__lt=timezone.now() - ALIVE)
    claimed = Review.objects.filter(free, pk=review_id).exclude(status=Review.Status.DONE)
    if not claimed.update(
        status=Review.Status.RUNNING, done=0, total=len(found), updated=timezone.now()
    ):
        log.warning("review %s is judged by another run already", review_id)
        return
    try:
        _judge_all(review_id, found, judge, budget, web.least_cost)
    except DatabaseError:  # the job is tried again (games.tasks.review): let it claim this
        with contextlib.suppress(DatabaseError):
            _write(review_id, status=Review.Status.WAITING)
        raise


def _judge_all(review_id: int, found: list, judge, budget: dict, least: float) -> None:
    costly = []
    for done, decision in enumerate(found, start=1):
        rng = random.Random(decision.seed)
        try:
            judged = thinking.run(
                judge, decision.view, decision.legal, decision.played, rng, **budget
            )
        except Exception:
            log.exception("review %s: judging step %s failed", review_id, decision.step)
            _write(review_id, status=Review.Status.FAILED)
            return
        moment = _moment(decision, judged, least)
        if moment is not None:
            costly.append(moment)
        if done % PROGRESS_EVERY == 0:
            with contextlib.suppress(DatabaseError):  # a busy database skips one: no harm
                _write(review_id, done=done)
    costly.sort(key=lambda moment: (-moment["cost"], moment["step"]))
    for attempt in range(5):  # a database busy for a moment: not the whole review again
        try:
            _write(review_id, status=Review.Status.DONE, done=len(found), moments=costly[:MOMENTS])
            return
        except DatabaseError:
            if attempt == 4:
                raise
            time.sleep(0.1 * 2**attempt)


def _moment(decision: Decision, judged: list, least: float) -> dict | None:
    """The decision as a costly moment if its best alternative beats the move played by
    more than `least`, else None."""
    key = replay.canonical_json(decision.played)
    played = [value for action, value in judged if replay.canonical_json(action) == key]
    if not played:
        return None
    best, value = max(judged, key=lambda pair: pair[1])
    cost = value - played[0]
    if cost <= least or replay.canonical_json(best) == key:
        return None
    return {"step": decision.step, "played": decision.played, "best": best, "cost": cost}


def lines(table: Table, review: Review, name: str) -> list[dict]:
    """A finished review's moments in words, in the active language (`name`: the seat's
    name, as the log words its moves)."""
    web = get_game(table.game).web
    return [
        {
            "step": moment["step"],
            "played": web.review_words(table.mode, moment["played"], name),
            "best": web.review_words(table.mode, moment["best"], name),
            "cost": web.cost_words(table.mode, moment["cost"]),
        }
        for moment in review.moments
    ]
