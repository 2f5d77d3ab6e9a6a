"""A table stepped through move by move by its players (games.replay), and the public
result page of a finished game with its chart (games.charts).

While the game runs, a phone sees only the view of a seat it holds now (games.phones
decides, for every page and socket alike), as that seat saw it then: a seat left, freed,
handed over or given to a computer player is no longer the phone's, whoever sat there
before. Once the game is over, any seat's view (every hand) or a spectator's. Nothing
here writes.
"""

import copy

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from games import charts, labels, phones, replay
from games.context import table_summary
from games.labels import seat_name
from games.live import Snapshot
from games.models import Table
from games.registry import get_game
from games.render import HEAD, TAIL, screen
from games.views import reviews
from games.views.tables import _limited, _table
from players import history

NOT_YOURS = _("Only the players of this table can replay it while the game is on.")
NOT_OVER = _("This game is not over yet: its result is shown once it ends.")
EVERY = "all"  # the view of every hand at once
# the regions of the table screen a replay shows (the rest is the live table's)
PANES = ("play", "players")


def _number(value, low: int, high: int, default):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if low <= number <= high else default


def _log_rows(log, step: int, length: int) -> list[dict]:
    rows = [
        {"version": e.version, "seat": e.seat, "action": e.action, "acted_by": e.acted_by}
        for e in log[:step]
    ]
    return rows[::-1][:length]


@require_GET
@_limited
def replay_page(request, code):
    table = _table(request, code)
    seats = list(table.seats.all())
    game = get_game(table.game)
    mine = phones.seats_held(seats, phones.token_hashes(request.COOKIES, table.code))
    over = history.over(table)
    if not mine and not over:
        return render(request, "games/replay.html", {"refused": NOT_YOURS}, status=403)
    log = replay.table_log(table)
    total = len(log)
    step = _number(request.GET.get("step"), 1, max(total, 1), total)
    # running: one's own seats; over: any seat, a spectator's view ("seat=") or every
    # hand at once ("seat=all", if the game renders a hand record)
    allowed = [*(seat.index for seat in seats), None] if over else mine
    wanted = request.GET.get("seat")
    record = over and wanted == EVERY and bool(game.web.record_regions.get(table.mode))
    seat = None if wanted in ("", EVERY) else _number(wanted, 0, len(seats) - 1, -1)
    if seat not in allowed:
        seat = mine[0] if mine else None
    result = replay.run(table.game, table.mode, table.config, log, keep=step)
    if result.state is None:
        raise Http404(code)
    step = result.step
    shown = copy.copy(table)
    shown.state, shown.version, shown.status = result.state, step, Table.Status.PLAYING
    snap = Snapshot(shown, seats, _log_rows(log, step, game.web.log_rows(table.mode)))
    now = screen(snap, [] if seat is None else [seat], seat, False, get_language())
    names = {s.index: seat_name(s, game) for s in seats}
    board = [
        (name, html) for name, html, pane in now.regions[len(HEAD) : -len(TAIL)] if pane in PANES
    ]
    hands = _record(snap, game, table.mode, names) if record else []
    entry = log[step - 1]
    context = {
        "table": table_summary(table),
        "board": board,
        "step": step,
        "total": total,
        "seat": EVERY if record else seat,
        # the seat the board is seen from, for its style (games.render.Screen.me)
        "me": None if record else now.me,
        "hands": hands,
        "record": bool(game.web.record_regions.get(table.mode)),
        "move": game.web.describe(
            table.mode,
            entry.action,
            labels.who({"seat": entry.seat, "acted_by": entry.acted_by}, names),
        ),
        "views": [(i, names[i]) for i in allowed if i is not None],
        "spectator": over,
        "over": over,
        # the review of the seat shown, if this phone holds it (games.views.reviews)
        "reviews": reviews.blocks(request, table, seats, only=seat) if seat is not None else [],
        "steps": {
            "first": 1,
            "back": max(1, step - 1),
            "next": min(total, step + 1),
            "last": total,
        },
    }
    return render(request, "games/replay.html", context)


def _record(snap, game, mode: str, names: dict) -> list[tuple[str, list]]:
    """Each seat's name and its record regions, rendered from its own view."""
    shown = game.web.record_regions.get(mode, ())
    out = []
    for index, name in names.items():
        now = screen(snap, [index], index, False, get_language())
        out.append((name, [(n, html) for n, html, _pane in now.regions if n in shown]))
    return out


@require_GET
@_limited
def result_page(request, code):
    """A finished game for anyone with the link, in the reader's language."""
    table = _table(request, code)
    if not history.over(table):
        return render(request, "games/result.html", {"refused": NOT_OVER}, status=404)
    seats = list(table.seats.all())
    context = {
        "table": table_summary(table),
        "created": table.created,
        "ranking": history.ranking(table, seats),
        "names": [seat_name(s, get_game(table.game)) for s in seats],
        "chart": charts.svg(charts.progress(table)),
        # the review of each seat this phone holds (games.views.reviews)
        "reviews": reviews.blocks(request, table, seats),
        # the hints each player was given (games.hints), for those who asked any
        "hints": [
            {"name": seat_name(s, get_game(table.game)), "hints": s.hints} for s in seats if s.hints
        ],
    }
    return render(request, "games/result.html", context)
