"""Pictures of a game's progress: one line per player or side, from the start to now.

`progress(table)` replays the table's log once (games.replay's entries and engines) and
asks the game's web adapter for a `Tally` of each state (GameWeb.tally): the numbers a
line follows (each player's crosses, or each side's running score and the match target)
come from the engine's state keys, read by the game's own adapter.
No rule is re-derived here, and no game or phase is named: a point is kept wherever the
tally changes, the adapter saying which states are between two moves (None) and, for a
game that can take a round back, how many rounds are finished.

`svg(points)` renders them as inline SVG in the active language, readable at 360 px: each
line has its own dash pattern, marker shape and name with its final value at its end,
so that colour (CSS classes chart-s0 … chart-s3, static/css/site.css) is never the only
cue; `<title>` and `<desc>` say in words what it shows and who ended where.
"""

import threading
from dataclasses import dataclass

from cachetools import LRUCache
from django.utils.functional import lazy
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext_lazy

from games import replay
from games.labels import seat_name
from games.registry import get_game
from games.templatetags.babel_tags import as_list


@dataclass(frozen=True)
class Tally:
    """One point of a progress chart: the value of each line at one state of a game."""

    # one line per player or side: its players' names, joined in the reader's language
    # when rendered (a snapshot's tallies serve phones in every language)
    series: tuple[tuple[str, ...], ...]
    values: tuple[int, ...]  # one value per line
    top: int  # the y axis's maximum
    target: int | None  # a value to reach, drawn as a horizontal line
    unit: str  # what the x axis counts, in words (translated)
    title: str  # what the chart shows (translated)
    # The rounds finished at this state, for a game that counts them and can take one
    # back: a point goes back over the later points it finds (their round was undone).
    rounds: int | None = None


# What the chart says besides the game's words.
RESULT = pgettext_lazy("chart", "%(name)s: %(value)s")
TARGET = pgettext_lazy("chart", "target %(target)s")
RESULTS_AND_TARGET = pgettext_lazy("chart description", "%(results)s. The target is %(target)s.")

# Layout, in user units of a viewBox WIDTH wide (readable at 360 CSS pixels).
WIDTH, HEIGHT = 360, 224
LEFT, RIGHT = 34, 220  # the plot's x extent; the lines' labels sit right of it
TOP, BOTTOM = 34, 182  # the plot's y extent
FONT, SMALL = 12, 11
LABEL_GAP = 13  # between the baselines of two lines' labels
NAME_LENGTH = 14  # a longer name is cut, with "…", to keep its label inside the box
MARKS = 12  # at most about this many markers along a line
DASHES = ("none", "7 4", "2 3", "10 3 2 3")
SHAPES = ("circle", "square", "triangle", "diamond")


named = lazy(seat_name, str)


# The progress of the latest versions of finished games: worked out once per version in a
# process, after the change's commit (games.services), not under the table's lock
_kept: LRUCache = LRUCache(256)
_kept_lock = threading.Lock()


def progress_at(table) -> list[Tally]:
    """`progress(table)`, kept by table and version."""
    key = (table.pk, table.version)
    with _kept_lock:
        points = _kept.get(key)
    if points is None:
        points = progress(table)
        with _kept_lock:
            _kept[key] = points
    return points


def progress(table) -> list[Tally]:
    """The tally at the start of the table's latest game, then after each step where it
    changed: one replay of the saved log, stopping where the engine refuses a step."""
    game = get_game(table.game)
    web, mode = game.web, table.mode
    # a computer player's name is worded when drawn, in the reader's language
    names = {seat.index: named(seat, game) for seat in table.seats.all()}
    points: list[Tally] = []
    for step in replay.walk(table):
        if step.before is None:  # a later start is a rematch: a new chart
            points = []
        tally = web.tally(mode, step.after, names)
        if tally is not None:
            _add(points, tally)
    return points


def _add(points: list[Tally], tally: Tally) -> None:
    """Keep `tally` if it says something new: at most one point per round."""
    if tally.rounds is not None:
        while len(points) > 1 and (points[-1].rounds or 0) > tally.rounds:
            points.pop()
    if not points:
        points.append(tally)
    elif points[-1].values != tally.values:
        same_round = tally.rounds is not None and points[-1].rounds == tally.rounds
        if same_round and len(points) > 1:
            points[-1] = tally
        else:
            points.append(tally)


def _n(number: float) -> str:
    return f"{number:.1f}".removesuffix(".0")


def _cut(name: str) -> str:
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1].rstrip() + "…"


def _marker(shape: str, x: float, y: float, css: str) -> str:
    common = f'class="chart-mark {css}" fill="currentColor"'
    if shape == "circle":
        return f'<circle {common} cx="{_n(x)}" cy="{_n(y)}" r="4"/>'
    if shape == "square":
        return f'<rect {common} x="{_n(x - 3.5)}" y="{_n(y - 3.5)}" width="7" height="7"/>'
    if shape == "triangle":
        corners = ((x, y - 5), (x + 4.5, y + 3.5), (x - 4.5, y + 3.5))
    else:
        corners = ((x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y))
    return f'<polygon {common} points="{" ".join(f"{_n(a)},{_n(b)}" for a, b in corners)}"/>'


def _spread(ys: list[float], low: float, high: float) -> list[float]:
    """The labels' heights: each near its line's end, LABEL_GAP apart, within low..high."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = list(ys)
    previous = low - LABEL_GAP
    for i in order:
        placed[i] = previous = max(ys[i], previous + LABEL_GAP)
    following = high + LABEL_GAP
    for i in reversed(order):
        placed[i] = following = min(placed[i], following - LABEL_GAP)
    return placed


def _text(x: float, y: float, words, css: str, size: int = SMALL, anchor: str = "start") -> str:
    return (
        f'<text class="{css}" x="{_n(x)}" y="{_n(y)}" font-size="{size}" '
        f'text-anchor="{anchor}">{escape(str(words))}</text>'
    )


def svg(points: list[Tally]) -> str:
    """The chart of `points` (progress's) as an inline SVG element, in the active
    language; "" when there is nothing to draw."""
    if not points:
        return ""
    last = points[-1]
    steps = len(points) - 1
    top = max(1, max(point.top for point in points), *(max(p.values, default=0) for p in points))

    def x_at(step: int) -> float:
        return LEFT + (RIGHT - LEFT) * step / max(steps, 1)

    def y_at(value: int) -> float:
        return BOTTOM - (BOTTOM - TOP) * min(max(value, 0), top) / top

    names = [as_list(people) for people in last.series]
    results = as_list(
        [
            RESULT % {"name": name, "value": value}
            for name, value in zip(names, last.values, strict=True)
        ]
    )
    target = TARGET % {"target": last.target} if last.target is not None else None
    desc = RESULTS_AND_TARGET % {"results": results, "target": last.target} if target else results
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="100%" role="img" font-family="system-ui, sans-serif">',
        f"<title>{escape(str(last.title))}</title>",
        f"<desc>{escape(desc)}</desc>",
        _text(2, 16, last.title, "chart-title", FONT),
        # the axes, with 0 and the top on the y axis, 0 and the last step on the x axis
        f'<path class="chart-axis" stroke="currentColor" fill="none" '
        f'd="M{LEFT} {TOP}V{BOTTOM}H{RIGHT}"/>',
        f'<path class="chart-grid" stroke="currentColor" stroke-opacity=".3" fill="none" '
        f'd="M{LEFT - 3} {TOP}H{RIGHT}M{LEFT - 3} {BOTTOM}H{LEFT}"/>',
        _text(LEFT - 5, TOP + 4, top, "chart-tick", SMALL, "end"),
        _text(LEFT - 5, BOTTOM + 4, 0, "chart-tick", SMALL, "end"),
        _text(LEFT, BOTTOM + 15, 0, "chart-tick", SMALL, "middle"),
        _text(RIGHT, BOTTOM + 15, steps, "chart-tick", SMALL, "middle") if steps else "",
        _text((LEFT + RIGHT) / 2, BOTTOM + 32, last.unit, "chart-unit", FONT, "middle"),
    ]
    if target is not None:
        y = y_at(last.target)
        parts += [
            f'<path class="chart-target" stroke="currentColor" stroke-dasharray="4 4" '
            f'fill="none" d="M{LEFT} {_n(y)}H{RIGHT}"/>',
            _text(LEFT + 4, y + 13, target, "chart-target-label"),
        ]
    ends = [y_at(value) for value in last.values]
    label_ys = _spread(ends, TOP, BOTTOM)
    every = -(-steps // MARKS) or 1
    for i, name in enumerate(names):
        css = f"chart-s{i % len(SHAPES)}"
        shape, dash = SHAPES[i % len(SHAPES)], DASHES[i % len(DASHES)]
        line = [(x_at(step), y_at(point.values[i])) for step, point in enumerate(points)]
        corners = " ".join(f"{_n(x)},{_n(y)}" for x, y in line)
        marked = [xy for step, xy in enumerate(line) if step % every == 0 or step == steps]
        label = RESULT % {"name": _cut(name), "value": last.values[i]}
        parts += [
            f'<g class="chart-series {css}">',
            f"<title>{escape(RESULT % {'name': name, 'value': last.values[i]})}</title>",
            f'<polyline class="chart-line {css}" stroke="currentColor" fill="none" '
            f'stroke-width="2.5" stroke-dasharray="{dash}" stroke-linejoin="round" '
            f'points="{corners}"/>',
            *(_marker(shape, x, y, css) for x, y in marked),
            _marker(shape, RIGHT + 10, label_ys[i], css),
            _text(RIGHT + 18, label_ys[i] + 4, label, "chart-label"),
            "</g>",
        ]
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped
