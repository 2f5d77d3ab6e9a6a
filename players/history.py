"""A player's games: the tables they sat at, as "My games" lists them: first those where it
is their turn (the least time left first), then the others, newest first."""

import time

from django.urls import reverse

from games import online
from games.labels import seat_name, time_left
from games.models import Seat, Table
from games.registry import get_game

SHOWN = 100  # the newest tables listed


def over(table: Table) -> bool:
    return table.state is not None and get_game(table.game).engine(table.mode).is_over(table.state)


def ranking(table: Table, seats) -> list[dict]:
    """The final ranking of a table whose game is over, else []."""
    if not over(table):
        return []
    game = get_game(table.game)
    names = {seat.index: seat_name(seat, game) for seat in seats}
    return game.web.ranking(table.mode, table.state, names)


def games(player) -> list[dict]:
    mine = (
        Seat.objects.filter(player=player)
        .select_related("table")
        .prefetch_related("table__seats")  # one query for every table's seats
        .order_by("-table__created", "index")[:SHOWN]
    )
    tables: dict[int, dict] = {}
    clocks: dict[str, dict] = {}
    for seat in mine:
        table = seat.table
        clocks[table.code] = table.clock
        if table.pk in tables:
            tables[table.pk]["seats"].append(seat.index)
            continue
        game = get_game(table.game)
        everyone = list(table.seats.all())
        tables[table.pk] = {
            "code": table.code,
            "game": game.name,
            "mode": table.get_mode_display(),
            "status": table.get_status_display(),
            "created": table.created,
            "names": [seat_name(s, game) for s in everyone],
            "seats": [seat.index],
            "winners": [entry["name"] for entry in ranking(table, everyone) if entry["place"] == 1],
            "started": table.state is not None,
            "open": table.status != Table.Status.CLOSED,
            "url": reverse("table", kwargs={"code": table.code}),
            "replay": reverse("replay", kwargs={"code": table.code}),
            "result": reverse("result", kwargs={"code": table.code}) if over(table) else None,
            "turn_based": online.turn_based(table.clock),
            "to_act": to_act(table),
        }
    entries = list(tables.values())
    now = time.time()
    for entry in entries:
        waited = entry.pop("to_act")
        mine = [seat for seat in entry["seats"] if seat in waited]
        entry["your_turn"] = bool(mine)
        entry["left"] = None
        if mine and (running := online.clock_deadline(clocks[entry["code"]])):
            entry["left"] = max(0.0, running[1] - now)
            entry["left_words"] = time_left(entry["left"])
    # where it is your turn first, the least time left first; then the rest as they were
    return sorted(
        entries,
        key=lambda e: (not e["your_turn"], e["left"] if e["left"] is not None else float("inf")),
    )


def to_act(table: Table) -> list[int]:
    """The seats the game in play waits for (none before the deal or after the end)."""
    if table.status != Table.Status.PLAYING or table.state is None or over(table):
        return []
    return list(get_game(table.game).engine(table.mode).to_act(table.state))
