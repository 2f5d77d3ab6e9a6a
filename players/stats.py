"""A player's statistics ("My games"): per game and mode, the games played and won, and
what that game counts in each finished game they sat at (its adapter's `facts`, put
in words by its `fact_lines`).

Played and won come from the final standings, as the league's do (players.league): a
game is won when the player's side has the best score. A table is counted once, from
the player's first seat there. Each table's facts are worked out once per version and
seat and kept in Django's cache: a finished game only changes with a correction, which
is a new version.
"""

import contextlib
from collections import defaultdict

from django.core.cache import cache
from django.utils.translation import gettext as _

from games import labels, ratelimit, replay
from games.models import Seat, Table
from games.registry import get_game
from games.templatetags.babel_tags import num, part_of
from players import history

KEPT = 24 * 3600  # seconds a table's facts stay in the cache


def facts(table: Table, seat: int) -> dict[str, int]:
    """What the game's adapter counts for `seat` in a finished game, kept in the cache
    (worked out afresh while the cache is away)."""
    key = f"player-facts:{table.pk}:{table.version}:{seat}"
    with contextlib.suppress(*ratelimit.CACHE_AWAY):
        found = cache.get(key)
        if found is not None:
            return found
    web = get_game(table.game).web
    found = web.facts(table.mode, table.state, seat, lambda: replay.last_game(table))
    with contextlib.suppress(*ratelimit.CACHE_AWAY):
        cache.set(key, found, KEPT)
    return found


def won(table: Table, seat: int) -> bool:
    standings = get_game(table.game).web.standings(table.mode, table.state)
    best = max(score for _side, score in standings)
    return any(seat in side and score == best for side, score in standings)


def summary(player) -> list[dict]:
    """Per game and mode the player finished a game of: its name and mode, and the lines
    of their statistics, (what, how much) in the active language."""
    seats = (
        Seat.objects.filter(player=player, table__state__isnull=False)
        .select_related("table")
        .order_by("table__game", "table__mode", "table__created", "index")
    )
    kept: dict[tuple[str, str], list] = defaultdict(list)
    counted = set()
    for seat in seats:
        table = seat.table
        if table.pk in counted or not history.over(table):
            continue
        counted.add(table.pk)
        outcome = won(table, seat.index)
        kept[table.game, table.mode].append((outcome, facts(table, seat.index)))
    against = _against_levels(player, counted)
    out = []
    for (slug, mode), games in kept.items():
        game = get_game(slug)
        played = len(games)
        won_count = sum(w for w, _f in games)
        lines = [
            (game.web.played_words, num(played)),
            (game.web.won_words, part_of(won_count, played)),
        ]
        lines += game.web.fact_lines(mode, [found for _w, found in games])
        levels = labels.bot_levels(game) if game.hidden_hands(mode) else ()
        for level, name, _note in levels:
            if games_won := against.get((slug, mode, level)):
                what = _("Won against the level “%(level)s”") % {"level": name}
                lines.append((what, part_of(sum(games_won), len(games_won))))
        out.append(
            {"game": game.name, "mode": Table.Mode(mode).label, "lines": lines, "levels": levels}
        )
    return out


def _against_levels(player, tables) -> dict[tuple[str, str, str], list[bool]]:
    """For each (game, mode, level), whether the player won each finished game of `tables`
    where a computer player of that level played on another side (a partner's level is
    not counted)."""
    seats = Seat.objects.filter(table__in=tables).select_related("table").order_by("index")
    by_table = defaultdict(list)
    for seat in seats:
        by_table[seat.table_id].append(seat)
    out = defaultdict(list)
    for table_seats in by_table.values():
        table = table_seats[0].table
        mine = next((s.index for s in table_seats if s.player_id == player.pk), None)
        if mine is None:
            continue
        sides = get_game(table.game).web.standings(table.mode, table.state)
        partners = next((side for side, _score in sides if mine in side), (mine,))
        levels = {
            s.bot_level for s in table_seats if s.kind == Seat.Kind.BOT and s.index not in partners
        }
        outcome = won(table, mine)
        for level in levels:
            out[table.game, table.mode, level].append(outcome)
    return out
