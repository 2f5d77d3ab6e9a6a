"""Triggs in numbers: a player's statistics of a finished game (players.stats), the
standings a league rates (players.league), the progress chart (games.charts) and the
final ranking."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.adapter import ranking as ranked
from games.charts import Tally
from games.templatetags.babel_tags import mean, num, part_of
from games.triggs import companion, engine

# What one turn is, by mode (T-A, T-B, T-C; a companion turn is an entry, a pass too, and
# is only counted with the turn marker on)
TURNS = {"digital": ("draw", "discard", "cross"), "companion": ("cross", "pass")}
STATS = {
    "turns": _("Turns to finish a game you won, on average"),
    "chain": _("Longest chain of extra crosses"),
    "forced": _("Discards forced by a full row"),
}

# the progress chart: each player's crosses (T-SHEET, T-WIN)
CHART_TITLE = pgettext_lazy("chart", "Crosses per player")
CHART_UNIT = pgettext_lazy("chart axis", "turns with a cross")


def rules(mode: str):
    """The engine of `mode`."""
    return companion if mode == "companion" else engine


def ranking(view: dict, names: dict) -> list[dict]:
    """Once a sheet is full (T-WIN): every player, most boxes crossed first."""
    return ranked(
        [
            {
                "name": names.get(seat, ""),
                "score": sum(sheet),
                "words": f"{sum(sheet)}/{engine.TOTAL_BOXES}",
            }
            for seat, sheet in enumerate(view["sheets"])
        ]
    )


def final_ranking(mode: str, state: dict, names: dict) -> list[dict]:
    game = rules(mode)
    return ranking(game.view(state, None), names) if game.is_over(state) else []


def standings(mode: str, state: dict) -> list[tuple[tuple[int, ...], int]]:
    """Each seat with its boxes crossed, once the game is over."""
    game = rules(mode)
    if not game.is_over(state):
        return []
    return [((seat,), sum(sheet)) for seat, sheet in enumerate(game.view(state, None)["sheets"])]


def facts(mode: str, state: dict, seat: int, steps) -> dict[str, int]:
    """What `seat` did in one finished game: its turns if it won, its longest chain of
    extra crosses (T-C-BONUS), its discards and those forced by a full row (T-B)."""
    turns = chain = longest = discards = forced = 0
    for step in steps():
        action = step.entry.action
        if step.entry.seat != seat:
            continue
        kind = action["type"]
        turns += kind in TURNS[mode]
        if kind == "undo":  # a companion entry taken back (its "last" says which)
            undone = (step.after.get("last") or {}).get("undone") or {}
            turns -= undone.get("type") in TURNS[mode]
        elif kind == "cross":
            chain = 0
        elif kind == "extra":  # each extra cross of one cross's chain
            chain += 1
            longest = max(longest, chain)
        elif kind == "discard":  # digital: a value whose row is full is dead
            discards += 1
            forced += engine.open_boxes(step.before["sheets"][seat], action["value"]) == 0
    # turns are only all in the log with a turn to take (digital, or the marker on)
    finished = state["winner"] == seat and (mode == "digital" or state["turn_marker"])
    return {
        "finished": int(finished),
        "turns": turns if finished else 0,
        "chain": longest,
        "discards": discards,
        "forced": forced,
    }


def fact_lines(mode: str, facts: list[dict]) -> list[tuple[str, str]]:
    """A player's statistics of this mode in words, from each finished game's facts."""

    def total(key):
        return sum(game[key] for game in facts)

    lines = []
    if total("finished"):
        lines.append((STATS["turns"], mean(total("turns"), total("finished"))))
    lines.append((STATS["chain"], num(max(game["chain"] for game in facts))))
    if mode == "digital":
        discards = total("discards")
        lines.append((STATS["forced"], part_of(total("forced"), discards) if discards else num(0)))
    return lines


def tally(state: dict, names: dict) -> Tally | None:
    """Each player's crosses, out of every box; none while a chain of extra crosses
    (T-C-BONUS) is under way: it belongs to the turn of its cross."""
    if state["pending_extra"]:
        return None
    return Tally(
        series=tuple((names.get(seat, ""),) for seat in range(state["players"])),
        values=tuple(map(sum, state["sheets"])),
        top=engine.TOTAL_BOXES,
        target=None,
        unit=CHART_UNIT,
        title=CHART_TITLE,
    )
