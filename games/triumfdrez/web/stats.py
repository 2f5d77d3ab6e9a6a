"""What TriumfDrez counts of a finished match (players.stats), its final standings (what a
league rates) and its progress chart (games.charts): read from the engines' states."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.charts import Tally
from games.templatetags.babel_tags import mean, num, part_of
from games.triumfdrez import companion, engine
from games.triumfdrez.engine import contract_made, team_of

# the tricks the declaring side took, under each mode's key of a finished hand
TAKEN = {"digital": "tricks_taken", "companion": "tricks_won"}
STATS = {
    "declared": _("Contracts you declared"),
    "made": _("Contracts made"),
    "margin": _("Tricks above (+) or below (-) your contract, on average"),
    "open": _("Open contracts made"),
    "points": _("Points per hand for your side"),
}

# the progress chart: each side's running score and the target (D-MATCH)
CHART_TITLE = pgettext_lazy("chart", "Score per side")
CHART_UNIT = pgettext_lazy("chart axis", "hands")


def side_names(names: dict, seats) -> list[str]:
    """The names of a side's seats (`names`: seat → name)."""
    return [names.get(s, "") for s in seats]


def standings(mode: str, state: dict) -> list[tuple[tuple[int, ...], int]]:
    """Once the match is over, each side's seats and final score; else []."""
    rules = companion if mode == "companion" else engine
    if not rules.is_over(state):
        return []
    return [(tuple(team), state["scores"][i]) for i, team in enumerate(state["teams"])]


def facts(mode: str, state: dict, seat: int) -> dict[str, int]:
    """What `seat` did in one finished match: hands, its side's points, the contracts it
    declared, made, by how many tricks, and open ones."""
    hands, taken = state["history"], TAKEN[mode]
    side = team_of(state["teams"], seat)
    declared = [hand for hand in hands if hand["contract"]["seat"] == seat]
    won = [contract_made(hand["contract"]["tricks"], hand[taken]) for hand in declared]
    opened = [hand["contract"]["open"] for hand in declared]
    return {
        "hands": len(hands),
        "points": sum(hand["points"][side] for hand in hands),
        "declared": len(declared),
        "made": sum(won),
        "margin": sum(hand[taken] - hand["contract"]["tricks"] for hand in declared),
        "open": sum(opened),
        "open_made": sum(o and w for o, w in zip(opened, won, strict=True)),
    }


def fact_lines(facts: list[dict]) -> list[tuple[str, str]]:
    """A player's statistics in words, (what, how much), from each match's `facts`."""
    total = {key: sum(game[key] for game in facts) for key in facts[0]}
    declared, opened = total["declared"], total["open"]
    lines = [(STATS["declared"], num(declared))]
    if declared:
        lines += [
            (STATS["made"], part_of(total["made"], declared)),
            (STATS["margin"], mean(total["margin"], declared, signed=True)),
        ]
    if opened:
        lines.append((STATS["open"], part_of(total["open_made"], opened)))
    if total["hands"]:
        lines.append((STATS["points"], mean(total["points"], total["hands"])))
    return lines


def tally(mode: str, state: dict, names: dict) -> Tally:
    """Each side's running score against the target."""
    scores, target = state["scores"], state["target"]
    return Tally(
        series=tuple(tuple(side_names(names, members)) for members in state["teams"]),
        values=tuple(scores),
        top=max(target, *scores),
        target=target,
        unit=CHART_UNIT,
        title=CHART_TITLE,
        # the companion can take a hand back (undo_hand): so does its chart
        rounds=len(state["history"]) if mode == "companion" else None,
    )
