"""The open tables (issue 19): digital tables their host opened to anyone, listed while
they wait for players, oldest first, on a page every phone sees updated live
(games.consumers.OpenTablesConsumer; games.live tells it when an open table changes).
"Play now" sits a player at the oldest of a game with a free seat, or opens one."""

import hashlib
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import get_language_info

from games import services
from games.models import Seat, Table
from games.registry import GAMES, get_game

SHOWN = 50  # tables listed at most
KEPT = timedelta(hours=24)  # an open table not started within this is no longer listed
# A table "Play now" opens: it waits this long for people before computer players fill
# it, and a phone gone this long on its turn hands its seat to a computer player
QUICK_FILL, QUICK_TAKEOVER = 120, 60


def waiting(game: str | None = None):
    """Open tables waiting for players, oldest first, each with `free` seats."""
    free = Count("seats", filter=Q(seats__token_hash="", seats__kind=Seat.Kind.HUMAN))
    tables = Table.objects.filter(
        open=True,
        status=Table.Status.LOBBY,
        created__gte=timezone.now() - KEPT,
    )
    # each game's online mode (services.Online opens only those tables; asked all the same)
    online = Q(pk__in=[])
    for spec in GAMES.values() if game is None else [get_game(game)]:
        if spec.online_mode is not None:
            online |= Q(game=spec.slug, mode=spec.online_mode)
    tables = tables.filter(online)
    return tables.annotate(free=free).filter(free__gt=0).order_by("created", "pk")


def rows(now=None) -> list[dict]:
    now = now or timezone.now()
    out = []
    for table in waiting()[:SHOWN]:
        info = get_language_info(table.lang) if table.lang else None
        out.append(
            {
                "code": table.code,
                "game": get_game(table.game).name,
                "players": table.players,
                "free": table.free,
                "lang": info["name_local"] if info else "",
                "lang_code": table.lang,
                "minutes": int((now - table.created).total_seconds() // 60),
                "clock": table.clock,
                "takeover": table.takeover,
            }
        )
    return out


def list_html(lang: str, oob: bool = False) -> str:
    """The list of open tables, in `lang`."""
    with translation.override(lang):
        return render_to_string("games/_open_list.html", {"tables": rows(), "oob": oob})


def play_now(game: str, name: str, lang: str, player=None) -> tuple[Table, int, str, tuple | None]:
    """Sit `name` (`player`, if known) at the oldest open table of `game` with a free
    seat, or open one with the game's default options (they host it). (table, seat, seat
    token, (host token,) when they host it).

    Presses for one game take turns (`_one_press_at_a_time`): each looks once the one
    before has sat down or opened its table, so presses at the same moment fill a table
    before another is opened. Called inside a transaction, the turn lasts until it ends."""
    with transaction.atomic():
        _one_press_at_a_time(game)
        for table in waiting(game)[:5]:
            free = table.seats.filter(token_hash="", kind=Seat.Kind.HUMAN).order_by("index")
            for seat in free:
                try:
                    token = services.claim_seat(table, seat.index, name, player)
                except services.Refused as refusal:
                    if refusal.code == "seat_taken":  # by the join page meanwhile
                        continue
                    if refusal.code in ("name_taken", "table_closed"):
                        break
                    raise
                return table, seat.index, token, None
        spec = get_game(game)
        defaults = {key: field.initial for key, field in spec.web.options().items()}
        mode = spec.online_mode
        if mode is None:
            raise services.Refused("bad_request")
        config = spec.web.config(mode, spec.max_players, defaults)
        plays = services.Online(
            open=True, fill_after=QUICK_FILL, takeover=QUICK_TAKEOVER, lang=lang
        )
        table, host, seat_token = services.create_table(game, mode, config, name, plays, player)
    return table, 0, seat_token, (host,)


def _one_press_at_a_time(game: str) -> None:
    """Wait for the transaction's turn to look for a seat at `game`'s open tables. On
    PostgreSQL, a transaction-level advisory lock keyed by the game, held until the
    transaction ends. SQLite's transactions start IMMEDIATE (companion.settings): each
    already holds the database's write lock from its start."""
    if connection.vendor == "postgresql":
        digest = hashlib.sha256(f"games.open_tables.play_now:{game}".encode()).digest()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)",
                [int.from_bytes(digest[:8], "big", signed=True)],
            )


def games() -> list:
    """The games a player may play now (those with a mode of hidden hands)."""
    return [game for game in GAMES.values() if game.online_mode is not None]
