"""A group's league: the members of a group ranked per game by a multiplayer rating
(openskill's Plackett-Luce model: a game of each against all is a free-for-all of 2-4, a
game of partners one side against the other), its last games and its members' head-to-head records.

Everything is computed from the group's finished tables in the order they were created,
each rated once, from its final state (the replay of its log: games.replay): nothing is
stored, so the league is always what the games say. Who won and by how much comes from
each game's adapter (`standings`); seats without a player (computer players, people who
deleted their data) are rated as newcomers, each time.
"""

from collections import defaultdict
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.registry import get_game
from players import history

LAST_GAMES = 10
# The rating shown: openskill's ordinal (mu - 3 sigma, sure to 99.7 %), scaled so that a
# newcomer starts at 1000 and one game moves it by tens, not by fractions
SCALE, START = 10.0, 1000.0


@dataclass
class Row:
    player_id: int
    name: str
    rating: int  # the rating shown (SCALE, START)
    mu: float
    sigma: float
    played: int
    won: int


def finished(group):
    tables = group.tables.filter(state__isnull=False).order_by("created", "pk")
    return [table for table in tables.prefetch_related("seats") if history.over(table)]


def _sides(table, state):
    """(sides as player ids or a stand-in per seat, scores), or None if a player is on
    two sides (then the table is not rated)."""
    standings = get_game(table.game).web.standings(table.mode, state)
    holder = {seat.index: seat.player_id for seat in table.seats.all()}
    sides = [[holder.get(i) or f"t{table.pk}s{i}" for i in side] for side, _score in standings]
    people = [p for side in sides for p in side]
    if len(people) != len(set(people)):
        return None
    return sides, [score for _side, score in standings]


def ratings(group, state_of=lambda table: table.state) -> dict[str, dict]:
    """Per game slug, each rated player's (mu, sigma, played, won); `state_of` gives a
    table's final state (the saved one; a test passes the replayed one)."""
    model = PlackettLuce()
    kept: dict[str, dict] = defaultdict(dict)
    for table in finished(group):
        sides = _sides(table, state_of(table))
        if not sides:
            continue
        teams, scores = sides
        known = kept[table.game]
        rated = model.rate(
            [[known.get(p, {}).get("rating") or model.rating() for p in team] for team in teams],
            scores=scores,
        )
        best = max(scores)
        for team, score, new in zip(teams, scores, rated, strict=True):
            for person, rating in zip(team, new, strict=True):
                entry = known.setdefault(person, {"played": 0, "won": 0})
                entry["rating"] = rating
                entry["played"] += 1
                entry["won"] += score == best
    return kept


def standings(group, state_of=lambda table: table.state) -> list[dict]:
    """Per game with rated games: its name and the members, best rating first."""
    members = {player.pk: player for player in group.members.all()}
    out = []
    for slug, rated in ratings(group, state_of).items():
        rows = [
            Row(pk, str(members[pk]), round(entry["rating"].ordinal(3.0, SCALE, START)), entry["rating"].mu,
                entry["rating"].sigma, entry["played"], entry["won"])
            for pk, entry in rated.items()
            if pk in members
        ]  # fmt: skip
        rows.sort(key=lambda row: (-row.rating, row.name))
        if rows:
            out.append({"game": get_game(slug).name, "rows": rows})
    return out


def head_to_head(group) -> list[dict]:
    """Per game, each pair of members who met on opposite sides: how often each won."""
    members = {player.pk: player for player in group.members.all()}
    records: dict[tuple[str, int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for table in finished(group):
        sides = _sides(table, table.state)
        if not sides:
            continue
        teams, scores = sides
        for i, team in enumerate(teams):
            for j in range(i + 1, len(teams)):
                for a in team:
                    for b in teams[j]:
                        if a not in members or b not in members:
                            continue
                        first, second, a_score, b_score = a, b, scores[i], scores[j]
                        if first > second:
                            first, second, a_score, b_score = b, a, b_score, a_score
                        record = records[(table.game, first, second)]
                        record[0 if a_score > b_score else 1 if b_score > a_score else 2] += 1
    return [
        {
            "game": get_game(slug).name,
            "a": str(members[a]),
            "b": str(members[b]),
            "wins": won,
            "losses": lost,
            "draws": drawn,
        }
        for (slug, a, b), (won, lost, drawn) in sorted(
            records.items(), key=lambda item: (item[0][0], -sum(item[1]))
        )
    ]


def last_games(group) -> list[dict]:
    tables = group.tables.order_by("-created").prefetch_related("seats")[:LAST_GAMES]
    out = []
    for table in tables:
        game = get_game(table.game)
        seats = list(table.seats.all())
        winners = [e["name"] for e in history.ranking(table, seats) if e["place"] == 1]
        out.append({"table": table, "game": game.name, "winners": winners,
                    "over": history.over(table)})  # fmt: skip
    return out
