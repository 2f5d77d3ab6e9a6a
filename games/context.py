"""What a table's regions are rendered from, for one phone: the table, its seats, who is
at it, the log and the clock, and the game's own part (its adapter's `panel`, built from
`engine.view(state, seat)` for the phone's active seat, and `board`, what every seat
sees alike). Plain data only: games.regions digests what each region reads.
"""

import functools

from django.utils import translation

from games import charts, labels, online, phrases, presence
from games.labels import DAYS_HOURS, HOURS_MINUTES, bot_level, seat_name, time_left
from games.live import Snapshot
from games.models import Table
from games.regions import ACT_URL, FIELDS, POST_FIELDS
from games.registry import get_game

# The context names that are the same for every phone at a table at one change
# (`shared_context`); their digests are shared by the phones too.
SHARED = (
    "table", "names", "log", "hidden_hands", "in_play", "clock", "chart", "phrases", "bot_levels", "board",
    "sides", "hints_used",
)  # fmt: skip


def act_for_choices(snap: Snapshot, phone_seats, active, host: bool, here: dict) -> list[int]:
    """The seats this phone may enter moves for (games.services.may_act_for): none where
    hands are hidden or the game has no such moves; the host any other person's seat; any
    seated phone an absent seat's (gone or away) when the table allows it."""
    table = snap.table
    game = get_game(table.game)
    if (
        active is None
        or table.status != Table.Status.PLAYING
        or game.hidden_hands(table.mode)
        or table.mode not in game.web.acts_for_modes
    ):
        return []
    anyone = table.act_for == Table.ActFor.ANY
    return [
        seat.index
        for seat in snap.seats
        if seat.taken
        and seat.kind != seat.Kind.BOT
        and seat.index not in phone_seats
        and (host or (anyone and here.get(seat.index) in presence.ABSENT))
    ]


def table_context(
    snap: Snapshot,
    phone_seats: list[int],
    active: int | None,
    host: bool,
    notes=None,
    lang=None,
    acting: int | None = None,
) -> dict:
    """What the regions are rendered from, for one phone, in the active language (`lang`
    when the caller knows it); `acting`: the seat the phone enters moves for, if it may
    (`act_for_choices`), whose panel it then shows."""
    table, seats = snap.table, snap.seats
    lang = lang or translation.get_language()
    wide = shared_context(snap, lang)
    here = presence.of_seats(seats, notes)
    web = get_game(table.game).web
    names = wide["names"]
    choices = act_for_choices(snap, phone_seats, active, host, here)
    if acting not in choices:
        acting = None
    partners = partners_of(web.sides(table.mode, len(seats)))
    panel = {}
    hint = {"hint": None, "can_hint": False, "hint_waiting": False}
    if table.state is not None:
        own = next((seat for seat in seats if seat.index == active), None)
        pending = own.pending_at(table.version) if own is not None else None
        if acting is not None:  # that seat's panel, saying whose it is
            panel = {**web.panel(table.mode, table.state, acting, names, None)}
            panel["for_name"] = names[acting]
        else:
            panel = {"for_name": None, **web.panel(table.mode, table.state, active, names, pending)}
            hint = hint_context(table, own, web)
            if hint["hint"] is not None:
                panel = web.hinted(table.mode, panel, hint["hint"]["action"])
    seat_rows = [
        {
            "index": seat.index,
            "name": names[seat.index],
            "bot": seat.kind == seat.Kind.BOT,
            "level": bot_level(seat, get_game(table.game)),  # a computer player's, as a badge
            "taken": seat.taken,
            "mine": seat.index in phone_seats,
            "active": seat.index == active,
            "presence": state,
            "presence_symbol": presence.SYMBOLS.get(state),
            "presence_label": str(presence.LABELS[state]) if state in presence.LABELS else None,
            "stand_in": seat.stand_in,
            # the seat numbers (from 1) of its partners (GameWeb.sides), if it has any
            "partners": partners.get(seat.index, ()),
        }
        for seat in seats
        for state in (here.get(seat.index),)
    ]
    mine = next((row for row in seat_rows if row["active"]), None)
    return {
        **wide,
        "seats": seat_rows,
        "absent": [s for s in seat_rows if s["presence"] in presence.ABSENT and not s["mine"]],
        # each seat's phone as every phone sees it alike ({% seat_state %}), so that a
        # region showing it is rendered once for the table, not once per phone
        "seat_states": {
            row["index"]: {
                "presence": row["presence"],
                "symbol": row["presence_symbol"],
                "label": row["presence_label"],
            }
            for row in seat_rows
            if row["presence"]
        },
        "presence_known": notes is not None,
        "active": active,
        # whether the phone plays a seat: what most regions ask, rather than which seat
        # (a region that reads `active` is rendered for each seat)
        "seated": active is not None,
        "phone_seats": phone_seats,
        "host": host,
        "view": panel.get("view"),
        "panel": panel,
        "mine": mine,
        "stood_in": [row for row in seat_rows if row["stand_in"]],
        "act_for": [{"index": i, "name": names[i]} for i in choices],
        "acting": None if acting is None else {"index": acting, "name": names[acting]},
        # who may act for an absent seat, where the game's moves may be so entered
        "act_for_rule": table.act_for if table.mode in web.acts_for_modes else "",
        # this seat's own hint (games.hints): never in another phone's context
        **hint,
        "fields": FIELDS,
        "post_fields": POST_FIELDS,
        "act_url": ACT_URL,
    }


def hint_context(table: Table, own, web) -> dict:
    """The phone's own seat's hint (games.hints), as its screen shows it: the action the
    computer would play and its words (`hint`), given at this version only; whether it may
    ask for one now (`can_hint`: hints allowed, in play, its turn) or is waiting for one
    (`hint_waiting`)."""
    out = {"hint": None, "can_hint": False, "hint_waiting": False}
    if (
        own is None
        or own.stand_in  # a computer player plays for the seat
        or not table.hints
        or web.hint_player is None
        or table.status != Table.Status.PLAYING
    ):
        return out
    engine = get_game(table.game).engine(table.mode)
    if engine.to_act(table.state) != [own.index]:
        return out
    given = own.hint_at(table.version)
    if given is not None:
        out["hint"] = {"action": given, "words": str(web.hint_words(table.mode, given))}
    elif own.hint_thinking(table.version):
        out["hint_waiting"] = True
    else:
        out["can_hint"] = True
    return out


def shared_context(snap: Snapshot, lang: str) -> dict:
    """What the regions are rendered from that is the same for every phone at the table,
    in `lang` (the active language): built by the first phone of a change and shared with
    the others in its snapshot, as are the digests of its paths (`screen`)."""
    wide = snap.shared.get(("context", lang))
    if wide is None:
        table = snap.table
        game = get_game(table.game)
        names = {seat.index: seat_name(seat, game) for seat in snap.seats}
        hidden = game.hidden_hands(table.mode)  # computer players may sit
        wide = {
            "table": table_summary(table),
            "names": names,
            "log": game.web.log_lines(table.mode, snap.log_rows, names),
            "hidden_hands": hidden,
            "in_play": hidden and table.status == Table.Status.PLAYING,
            "clock": clock_context(table, names),
            "chart": charts.svg(snap.progress) if snap.progress else "",
            "phrases": _translated_phrases(table.game, lang) if table.phrases else None,
            "bot_levels": _translated_bot_levels(table.game, lang),
            "board": {}
            if table.state is None
            else game.web.log_board(table.mode, table.state, names, snap.log_rows, table.config),
            "sides": sides_context(game.web.sides(table.mode, len(snap.seats)), names),
            # once the game is over: the hints each player was given (games.hints)
            "hints_used": [
                {"name": names[seat.index], "hints": seat.hints}
                for seat in snap.seats
                if seat.hints
            ]
            if snap.progress
            else [],
        }
        wide = snap.shared.setdefault(("context", lang), wide)
    return wide


def partners_of(sides) -> dict[int, tuple[int, ...]]:
    """Seat → the seat numbers (from 1) of its partners, for the seats that have any."""
    return {
        seat: tuple(other + 1 for other in side if other != seat)
        for side in sides
        if len(side) > 1
        for seat in side
    }


def sides_context(sides, names: dict) -> list[dict]:
    """The sides of partners, each its seat numbers (from 1) and names; [] when every seat
    plays alone (GameWeb.sides)."""
    if all(len(side) < 2 for side in sides):
        return []
    return [
        {
            "seats": [seat + 1 for seat in side],
            "names": [n for seat in side if (n := names.get(seat))],
        }
        for side in sides
    ]


@functools.lru_cache(maxsize=64)
def _translated_bot_levels(game: str, lang: str) -> tuple[tuple[str, str, str], ...]:
    """The computer players' levels of `game` (GameWeb.bot_levels), each (level, name,
    what it is in one line), translated into `lang`."""
    return labels.bot_levels(get_game(game))


@functools.lru_cache(maxsize=64)
def _translated_phrases(game: str, lang: str) -> tuple[tuple[str, str], ...]:
    """What a seat may say at a table of `game`, translated into `lang` once per process."""
    return tuple((key, str(text)) for key, text in phrases.offered(get_game(game)).items())


def clock_context(table: Table, names: dict) -> dict | None:
    """The turn clock as the screen shows it while it runs: whose it is, the seconds left
    in their bank when their turn began, and when it runs out (the page's script counts
    down to that, in the server's time: meta_html)."""
    running = online.clock_deadline(table.clock)
    if running is None or table.status != Table.Status.PLAYING:
        return None
    seat, at = running
    left = table.clock["banks"].get(str(seat), 0)
    return {
        "seat": seat,
        "name": names.get(seat, ""),
        "left": time_left(left),
        "hm": str(HOURS_MINUTES),
        "dh": str(DAYS_HOURS),
        "deadline": int(at * 1000),
    }


def table_summary(table: Table) -> dict:
    """What the page and the live partial say about the table itself."""
    return {
        "code": table.code,
        "game": table.game,
        "game_name": get_game(table.game).name,
        "mode": table.mode,
        "status": table.status,
        "version": table.version,
        "players": table.players,
        "target": table.config.get("target"),
        "lobby": table.status == Table.Status.LOBBY,
        "phrases": table.phrases,
        "closed": table.status == Table.Status.CLOSED,
    }
