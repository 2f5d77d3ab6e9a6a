"""The only code that changes a table: its seats, its status and its state — for the
phones (host and players), for staff (games.admin) and for import (games.transfer).

Every change runs in one transaction with the table row locked; state changes
also append one Action row and bump the version. Only after commit is `changed`
sent: games.live tells the table's phones (never what changed) and games.autoplay
lets a computer player move (both listen, from games.apps).
"""

import logging
import secrets
import time
from dataclasses import dataclass, replace
from datetime import timedelta

from django.core import signing
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone

from games import live, online, reads
from games.engine_errors import IllegalAction
from games.errors import Refused
from games.models import Action, Seat, Table, hash_token, new_code, new_token
from games.registry import get_game

NAME_MAX = 24
HANDOVER_MAX_AGE = 15 * 60  # seconds a handover link works
HANDOVER_SALT = "games.handover"
log = logging.getLogger(__name__)
DEFAULT_PURGE_DAYS = 30
# The most days the purge takes (the action and manage.py purge_tables): a hundred years,
# well before the date arithmetic of games.services.abandoned overflows (about 739,000
# days back is the year 1).
MAX_PURGE_DAYS = 36_500
# A finished game is a record; only these are abandoned once nobody has acted for a while.
ABANDONED_STATUSES = (Table.Status.LOBBY, Table.Status.PLAYING, Table.Status.CLOSED)

# Sent after each committed change of a table, with `change` (a Change).
changed = Signal()


@dataclass(frozen=True)
class Applied:
    version: int
    duplicate: bool = False


@dataclass(frozen=True)
class Change:
    """What `changed` tells its listeners: the table as the change left it."""

    table_id: int
    code: str
    version: int
    mode: str
    status: str
    snap: live.Snapshot | None = None
    open: bool = False  # listed among the open tables (games.views.open_tables)
    game: str = ""  # the registry's slug

    @property
    def hidden_hands(self) -> bool:
        """The table deals hands nobody else may see (the registry's Game.hidden_hands)."""
        return get_game(self.game).hidden_hands(self.mode)


def _after_commit(table: Table, snap=None) -> None:
    """After the commit: the game's chart if it ended (games.charts, a replay of its log,
    not under the table's lock), then `changed` to each listener."""

    def tell():
        change = Change(
            table.pk,
            table.code,
            table.version,
            table.mode,
            table.status,
            snap and live.charted(snap),
            table.open,
            table.game,
        )
        # each listener on its own: a change that is saved stays answered as saved even
        # if the channel layer is down; phones catch up on their next resync
        for receiver, result in changed.send_robust(Table, change=change):
            if isinstance(result, Exception):
                log.error("%s failed after a change of %s: %r", receiver, change.code, result)

    transaction.on_commit(tell)


def clean_name(name) -> str:
    """A player's name as stored: NFC, without control or format characters (right-to-left
    overrides, zero-width spaces and joiners, BOM), white space collapsed; refused
    (bad_name) when nothing visible is left or it is longer than NAME_MAX."""
    import unicodedata

    if not isinstance(name, str):
        raise Refused("bad_name")
    # Hangul fillers and the blank Braille pattern are letters or symbols that draw nothing
    blank = "\u115f\u1160\u3164\uffa0\u2800"
    name = unicodedata.normalize("NFC", name)
    name = "".join(
        " " if ch in blank else ch
        for ch in name
        if unicodedata.category(ch) not in ("Cc", "Cf", "Cs")
    )
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    visible = any(unicodedata.category(ch)[0] in "LNPS" for ch in name)
    if not visible or len(name) > NAME_MAX:
        raise Refused("bad_name")
    return name


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


@dataclass(frozen=True)
class Online:
    """How a digital table plays online (games.online): open to anyone (and after how many
    seconds its free seats get computer players), what happens to a seat whose phone is
    gone on its turn, and its turn clock (minutes, increment in seconds), or, turn-based,
    the seconds each move may take (`per_move`): such a table lives for days, its phones
    mostly closed, so it takes no seat over; its clock's end is a computer move."""

    open: bool = False
    fill_after: int | None = None
    takeover: int | None = None
    takeover_level: str = ""
    clock: tuple[int, int] | None = None
    per_move: int | None = None
    lang: str = ""
    act_for: str = Table.ActFor.HOST  # companion mode: who may act for an absent seat
    hints: bool = False  # a seated player may ask what the computer would play (games.hints)

    def fields(self, spec, mode: str) -> dict:
        """The table's fields; refused (bad_config) when out of range or the mode's hands
        are not hidden (its players sit at one real table)."""
        wanted = self.open or self.takeover or self.clock or self.per_move or self.hints
        if wanted and not spec.hidden_hands(mode):
            raise Refused("bad_config")
        if self.per_move is not None and (
            self.clock is not None or self.per_move not in online.PER_MOVE_CHOICES
        ):
            raise Refused("bad_config")
        low, high = 1, online.TAKEOVER_SECONDS[1]  # tests use seconds the form refuses
        if self.takeover is not None and not low <= self.takeover <= high:
            raise Refused("bad_config")
        if self.fill_after is not None and not low <= self.fill_after <= 3600:
            raise Refused("bad_config")
        if self.takeover_level and self.takeover_level not in spec.web.bot_levels:
            raise Refused("bad_config")
        clock = {}
        if self.clock is not None:
            minutes, increment = self.clock
            if not (0 < minutes <= online.CLOCK_MINUTES[1]) or not (
                online.CLOCK_INCREMENT[0] <= increment <= online.CLOCK_INCREMENT[1]
            ):
                raise Refused("bad_config")
            clock = online.clock_new(minutes, increment)
        if self.per_move is not None:
            clock = online.clock_per_move(self.per_move)
        return {
            "open": self.open,
            "fill_after": self.fill_after if self.open else None,
            "takeover": None if self.per_move else self.takeover,
            "takeover_level": self.takeover_level,
            "clock": clock,
            "lang": self.lang[:8],
            "act_for": self._act_for(),
            "hints": self.hints,
        }

    def _act_for(self) -> str:
        if self.act_for not in Table.ActFor.values:
            raise Refused("bad_config")
        return self.act_for


def create_table(
    game: str, mode: str, config: dict, host_name: str, plays: Online = Online(), player=None
):
    """A new table in the lobby; the host (`player`, if known) sits at seat 0. `config` is
    the engine's (the lobby's form builds it with the game's adapter), `plays` how it plays
    online. Returns (table, host token, seat token)."""
    spec = get_game(game)
    if mode not in spec.modes:
        raise Refused("bad_request")
    extra = plays.fields(spec, mode)
    players = config.get("players")
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        raise Refused("bad_players")
    try:  # the engine judges the rest of the settings
        spec.engine(mode).new_game(config, 0)
    except IllegalAction:
        raise Refused("bad_config") from None
    name = clean_name(host_name)
    host_token, seat_token = new_token(), new_token()
    with transaction.atomic():
        table = insert_table(
            game=game,
            mode=mode,
            config=config,
            host_token_hash=hash_token(host_token),
            **extra,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                index=i,
                name=name if i == 0 else "",
                token_hash=hash_token(seat_token) if i == 0 else "",
                last_seen=timezone.now() if i == 0 else None,
                player=player if i == 0 else None,
            )
            for i in range(players)
        )
        if table.open:  # the open tables' list shows it
            _after_commit(table)
    return table, host_token, seat_token


def insert_table(**fields) -> Table:
    """A new Table row under a fresh code (codes are random: retry on the rare clash)."""
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return Table.objects.create(code=new_code(), **fields)
        except IntegrityError:
            continue
    raise Refused("busy")


def claim_seat(table: Table, index: int, name: str, player=None, holder=frozenset()) -> str:
    """Sit a player (`player`, if known) on a free seat; returns the seat's token for the
    phone's cookie. `holder`: the token hashes of the phone asking. While a digital game is
    played (a free seat in play comes only from an imported session), a phone that holds a
    hand at the table already may not take another."""
    name = clean_name(name)
    token = new_token()
    with transaction.atomic():
        table = _locked(table.pk)
        if table.status == Table.Status.CLOSED:
            raise Refused("table_closed")
        seat = Seat.objects.select_for_update().filter(table=table, index=index).first()
        if seat is None:
            raise Refused("bad_seat")
        if seat.taken:
            raise Refused("seat_taken")
        if _hidden_hands_in_play(table) and table.seats.filter(token_hash__in=holder).exists():
            raise Refused("one_hand")
        if table.status != Table.Status.LOBBY and seat.name:
            # A freed seat during a game keeps its player's name on the sheet.
            name = seat.name
        else:  # one name per person at a table, whatever its case (a bot's seat has none)
            others = Seat.objects.filter(table=table).exclude(index=index).exclude(name="")
            if name.casefold() in {n.casefold() for n in others.values_list("name", flat=True)}:
                raise Refused("name_taken")
        seat.name, seat.token_hash, seat.last_seen = name, hash_token(token), timezone.now()
        seat.player = player
        seat.save(update_fields=["name", "token_hash", "last_seen", "player"])
        everyone = not table.seats.filter(token_hash="", kind=Seat.Kind.HUMAN).exists()
        if table.open and table.status == Table.Status.LOBBY and everyone:
            _deal(table, "auto:start")  # strangers need no host to start: full, it starts
        else:
            _after_commit(table)
    return token


def require_host(table: Table, host_token: str | None) -> None:
    if not table.is_host(host_token):
        raise Refused("not_host")


# Staff (games.admin) act on any table without its host's token.
STAFF = object()


def _authorize(table: Table, host_token) -> bool:
    """True for staff; refused unless `host_token` is the table's host's."""
    if host_token is STAFF:
        return True
    require_host(table, host_token)
    return False


def free_seat(table: Table, host_token, index: int) -> None:
    """The phone holding the seat (or the computer player on it) leaves it; a player may
    claim it again. At a digital table in play a hand is never left to whoever claims the
    seat next: a computer player (of the table's takeover level) takes it over
    (games.autoplay), and the game goes on."""
    _authorize(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        if _hidden_hands_in_play(table):
            fields = {"kind": Seat.Kind.BOT, "bot_level": _takeover_level(table), "name": ""}
        else:
            fields = {"kind": Seat.Kind.HUMAN, "bot_level": ""}
        updated = Seat.objects.filter(table=table, index=index).update(
            token_hash="", handover_hash="", pending="", stand_in="", **fields
        )
        if not updated:
            raise Refused("bad_seat")
        _after_commit(table)


def _hidden_hands_in_play(table: Table) -> bool:
    """A game of hidden hands is being played: its seats hold cards nobody else may see."""
    return get_game(table.game).hidden_hands(table.mode) and table.status == Table.Status.PLAYING


def seat_bot(table: Table, host_token, index: int, level: str | None = None) -> None:
    """A computer player (of `level`, else the game's first) takes a seat of a digital
    table that is not closed: a free seat, or a computer player's, whose level changes.
    The host may do it; staff may also take the seat from a person (their phone loses
    it). In play, the computer player moves at once if it is its turn."""
    staff = _authorize(table, host_token)
    if not get_game(table.game).hidden_hands(table.mode):
        raise Refused("bots_digital_only")
    levels = get_game(table.game).web.bot_levels
    level = level or next(iter(levels))
    if level not in levels:
        raise Refused("bad_request")
    with transaction.atomic():
        table = _locked(table.pk)
        if table.status == Table.Status.CLOSED:
            raise Refused("table_closed")
        seat = Seat.objects.select_for_update().filter(table=table, index=index).first()
        if seat is None:
            raise Refused("bad_seat")
        if seat.kind != Seat.Kind.BOT and seat.taken and not staff:
            raise Refused("seat_taken")
        # A bot's name is worded at render time, in each phone's language.
        seat.kind, seat.bot_level, seat.name = Seat.Kind.BOT, level, ""
        seat.token_hash = seat.handover_hash = seat.pending = seat.stand_in = ""
        seat.save(
            update_fields=[
                *("kind", "bot_level", "name", "token_hash", "handover_hash", "pending"),
                "stand_in",
            ]
        )
        _after_commit(table)


def close_table(table: Table, host_token) -> bool:
    """Close the table; False if it was closed already."""
    _authorize(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        if table.status == Table.Status.CLOSED:
            return False
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status", "updated"])
        Seat.objects.filter(table=table).update(handover_hash="")  # no link works on
        _after_commit(table)
    return True


def set_phrases(table: Table, host_token, on: bool) -> bool:
    """Let the players say the table phrases, or not; False if it was so already."""
    _authorize(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        if table.phrases == on:
            return False
        table.phrases = on
        table.save(update_fields=["phrases", "updated"])
        _after_commit(table)
    return True


def set_act_for(table: Table, host_token, rule: str) -> bool:
    """Who may enter moves for an absent seat (Table.ActFor); False if it was so already."""
    _authorize(table, host_token)
    if rule not in Table.ActFor.values:
        raise Refused("bad_request")
    with transaction.atomic():
        table = _locked(table.pk)
        if table.act_for == rule:
            return False
        table.act_for = rule
        table.save(update_fields=["act_for", "updated"])
        _after_commit(table)
    return True


def is_finished(table: Table) -> bool:
    """The game at the table is over (games.registry's engine says so)."""
    if table.status == Table.Status.FINISHED:
        return True
    if not isinstance(table.state, dict):
        return False
    try:
        return get_game(table.game).engine(table.mode).is_over(table.state)
    except Exception:  # a state edited by hand is not a finished game
        return False


def archive_table(table: Table) -> bool:
    """Staff keep a finished session as a record: closed to further entries and never
    purged. False if the game is not over or the table is archived already."""
    with transaction.atomic():
        table = _locked(table.pk)
        if table.archived or not is_finished(table):
            return False
        table.status, table.archived = Table.Status.CLOSED, True
        table.save(update_fields=["status", "archived", "updated"])
        _after_commit(table)
    return True


def abandoned(days: int, now=None):
    """Tables nobody has touched for `days` days: in the lobby, playing or closed, never
    archived, with no action, status change or phone joining since."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return Table.objects.filter(
        status__in=ABANDONED_STATUSES, archived=False, updated__lt=cutoff
    ).exclude(seats__last_seen__gte=cutoff)


def purge(queryset) -> int:
    """Delete these tables with their seats and logs; returns how many tables went."""
    with transaction.atomic():
        _total, deleted = Table.objects.filter(pk__in=queryset.values("pk")).delete()
    return deleted.get(Table._meta.label, 0)


def import_table(game: str, mode: str, config: dict, state: dict, seats: list, log) -> Table:
    """A new table from a replayed session (games.transfer): its seats free for their
    players to claim again, its log as it was, a host token nobody holds (staff manage
    it from the admin)."""
    over = get_game(game).engine(mode).is_over(state)
    with transaction.atomic():
        table = insert_table(
            game=game,
            mode=mode,
            config=config,
            state=state,
            version=len(log),
            status=Table.Status.FINISHED if over else Table.Status.PLAYING,
            host_token_hash=hash_token(new_token()),
        )
        Seat.objects.bulk_create(Seat(table=table, **seat) for seat in seats)
        Action.objects.bulk_create(
            Action(
                table=table,
                version=entry.version,
                seat=entry.seat,
                action=entry.action,
                client_action_id=f"import:{entry.version}",
                acted_by=entry.acted_by,
            )
            for entry in log
        )
    return table


def start_table(table: Table, host_token: str | None, client_action_id: str) -> Applied:
    """Deal: the engine's new game from a fresh seed, logged as the first action."""
    require_host(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        if Action.objects.filter(table=table, client_action_id=client_action_id).exists():
            return Applied(table.version, duplicate=True)
        if table.status != Table.Status.LOBBY:
            raise Refused("already_started")
        if table.seats.filter(token_hash="", kind=Seat.Kind.HUMAN).exists():
            raise Refused("seats_missing")
        _deal(table, client_action_id)
    return Applied(table.version)


def _deal(table: Table, client_action_id: str) -> None:
    """The engine's new game from a fresh seed, logged as a start action (locked table)."""
    seed = secrets.randbits(128)
    engine = get_game(table.game).engine(table.mode)
    table.state = engine.new_game(table.config, seed)
    table.status = Table.Status.PLAYING
    # a new game: no hint given yet (games.hints)
    Seat.objects.filter(table=table).update(hint=None, hint_version=None, hints=0)
    table.version += 1
    to_act = online.seat_to_act(table, list(table.seats.all()))
    table.clock = online.clock_dealt(table.clock, table.players, to_act, time.time())
    table.save(update_fields=["state", "status", "version", "clock", "updated"])
    Action.objects.create(
        table=table,
        version=table.version,
        seat=None,
        action={"type": "start", "seed": seed},
        client_action_id=client_action_id,
    )
    _after_commit(table)


def rematch(table: Table, host_token: str | None, client_action_id: str) -> Applied:
    """A finished game is dealt again at the same table, seats unchanged: a new seed,
    logged like the first deal."""
    require_host(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        if Action.objects.filter(table=table, client_action_id=client_action_id).exists():
            return Applied(table.version, duplicate=True)
        if table.status != Table.Status.FINISHED:
            raise Refused("game_not_over")
        _deal(table, client_action_id)
    return Applied(table.version)


@dataclass(frozen=True)
class Proxy:
    """A phone entering a move for another seat than its own (companion mode): its own
    seat, whether it is the host's, the seats whose phones are absent (gone or away:
    games.presence) and those gone for GONE_FOR_ANSWER seconds or more."""

    seat: int
    host: bool = False
    absent: frozenset = frozenset()
    long_gone: frozenset = frozenset()


# seconds a seat's phone is gone before the host may answer a correction for it
GONE_FOR_ANSWER = 60


def may_act_for(table: Table, seats, proxy: Proxy, target: int, kind: str | None) -> None:
    """Refused (a code) unless `proxy` may enter a move of `kind` (GameWeb.act_for_kind:
    "entry", "answer" or None) for seat `target`: never where hands are hidden; the host
    for any other person's seat, or any seated phone for an absent seat when the table
    allows it; an answer to a correction (for its owner) by the host only, once that seat
    has been gone for a while."""
    if get_game(table.game).hidden_hands(table.mode):
        raise Refused("act_for_hidden")
    row = next((s for s in seats if s.index == target), None)
    if row is None or not row.taken or row.kind == Seat.Kind.BOT or target == proxy.seat:
        raise Refused("bad_seat")
    if kind is None:
        raise Refused("act_for_not_this")
    if kind == "answer":
        if not proxy.host:
            raise Refused("not_host")
        if target not in proxy.long_gone:
            raise Refused("act_for_not_gone")
        return
    if proxy.host:
        return
    if table.act_for != Table.ActFor.ANY:
        raise Refused("act_for_host_only")
    if target not in proxy.absent:
        raise Refused("act_for_present")


def apply_action(
    table: Table,
    seat: int,
    action: dict,
    expected_version: int,
    client_action_id: str,
    holder: set[str] | None = None,
    proxy: Proxy | None = None,
) -> Applied:
    """Apply one seat's action: the data path of every move, in both modes. `holder`: the
    token hashes of the phone asking, when the seat is still to be checked as its own.
    `proxy`: the phone enters it for `seat`, another seat than its own (`may_act_for`);
    `holder` is then checked against the proxy's seat, and the log row says who entered
    it (Action.acted_by).

    Five statements: the locked row (with whether the action id was seen), the seats,
    the new state, the log row and the log's latest rows, which with the seats make the
    snapshot the phones of this process render (games.live)."""
    with transaction.atomic():
        table = reads.locked_table(table.pk, client_action_id)
        if table is None:
            raise Table.DoesNotExist
        if proxy is not None and (
            proxy.seat == seat or get_game(table.game).web.act_for_kind(table.mode, action) == "own"
        ):  # the phone's own move, whichever seat it shows: its own seat's
            seat, proxy = proxy.seat, None
        seats = _seats(table, seat if proxy is None else proxy.seat, holder)
        if not table.seen and expected_version != table.version:
            # `seen` was read as the log stood before the lock was ours: a twin of this
            # action (a second tab, the other process) may have been applied meanwhile
            table.seen = Action.objects.filter(
                table=table, client_action_id=client_action_id
            ).exists()
        if table.seen:
            # the same id must be the same request: a phone may not claim another's
            logged = Action.objects.filter(table=table, client_action_id=client_action_id)
            was = logged.values_list("seat", "acted_by", "action").first()
            if was is None or was[2] != action or seat not in was[:2]:
                raise Refused("bad_request")
            # The process that applied it may have died before telling the table.
            _after_commit(table)
            return Applied(table.version, duplicate=True)
        if table.status == Table.Status.CLOSED:
            raise Refused("table_closed")
        if table.status not in (Table.Status.PLAYING, Table.Status.FINISHED):
            raise Refused("not_playing")
        if expected_version != table.version:
            raise Refused("stale")
        game = get_game(table.game)
        engine = game.engine(table.mode)
        if proxy is not None:
            kind = game.web.act_for_kind(table.mode, action)
            may_act_for(table, seats, proxy, seat, kind)
        own = next((row for row in seats if row.index == seat), None)
        pending = own.pending_at(table.version) if own is not None else None
        game.web.check_move(table.mode, pending, action)
        # who the move is for, and which phone entered it for them (None: their own)
        logged_seat, acted_by = seat, None if proxy is None else proxy.seat
        if proxy is None:
            entered_for = game.web.entered_for(table.mode, table.state, seat, action)
            if entered_for is not None and entered_for != seat:
                logged_seat, acted_by = entered_for, seat
        try:
            state = engine.apply(table.state, seat, action)
        except IllegalAction as error:
            raise Refused(error.code, error.rule) from None
        if own is not None and own.pending:  # a first step is finished, or stale now
            Seat.objects.filter(pk=own.pk).update(pending="")
            own.pending = ""
        table.state = state
        table.version += 1
        # A finished companion match can still take back its last hand.
        over = engine.is_over(state)
        table.status = Table.Status.FINISHED if over else Table.Status.PLAYING
        saved = ["state", "status", "version", "updated"]
        if table.clock:
            to_act = online.seat_to_act(table, seats)
            table.clock = online.clock_moved(table.clock, seat, to_act, time.time())
            saved.append("clock")
        table.save(update_fields=saved)
        Action.objects.create(
            table=table,
            version=table.version,
            seat=logged_seat,
            action=action,
            client_action_id=client_action_id,
            acted_by=acted_by,
        )
        _after_commit(table, live.snapshot(table, seats, chart=False))
    return Applied(table.version)


def _seats(table: Table, seat: int, holder: set[str] | None) -> list[Seat]:
    """The table's seats; refused unless `holder` (if given) holds `seat`."""
    seats = reads.seats(table.pk)
    if holder is not None and not any(
        row.index == seat and row.token_hash and row.token_hash in holder for row in seats
    ):
        raise Refused("seat_not_yours")
    return seats


def take_step(
    table: Table, seat: int, fields, expected_version: int, holder: set[str] | None = None
) -> None:
    """The first step of a two-step move (games.adapter.GameWeb.step), kept on the seat
    until its move at this version."""
    web = get_game(table.game).web
    with transaction.atomic():
        table = _locked(table.pk)
        _seats(table, seat, holder)
        if table.status != Table.Status.PLAYING:
            raise Refused("not_playing")
        if expected_version != table.version:
            raise Refused("stale")
        own = Seat.objects.get(table=table, index=seat)
        committed = own.pending_at(table.version)
        value = web.step(table.mode, table.state, seat, fields)
        if committed and committed != value:
            # another first step does not finish the one taken
            web.check_move(table.mode, committed, {})
        own.pending = f"{table.version}:{value}"
        own.save(update_fields=["pending"])
        code, version = table.code, table.version
        transaction.on_commit(lambda: live.broadcast(code, version))


def create_handover(table: Table, seat: Seat) -> str:
    """A one-time link's token that moves `seat` to another phone (for a phone that died),
    signed with its time: it works once, for HANDOVER_MAX_AGE seconds, while the table is
    open."""
    if table.status == Table.Status.CLOSED:
        raise Refused("table_closed")
    token = new_token()
    Seat.objects.filter(pk=seat.pk).update(handover_hash=hash_token(token))
    return signing.TimestampSigner(salt=HANDOVER_SALT).sign(token)


def claim_handover(table: Table, signed: str) -> tuple[Seat, str]:
    try:
        token = signing.TimestampSigner(salt=HANDOVER_SALT).unsign(signed, max_age=HANDOVER_MAX_AGE)
    except signing.BadSignature:  # expired, altered or made up
        raise Refused("bad_handover") from None
    with transaction.atomic():
        if _locked(table.pk).status == Table.Status.CLOSED:
            raise Refused("table_closed")
        seat = (
            Seat.objects.select_for_update()
            .filter(table=table, handover_hash=hash_token(token))
            .exclude(handover_hash="")
            .first()
        )
        if seat is None:
            raise Refused("bad_handover")
        seat_token = new_token()
        seat.token_hash, seat.handover_hash = hash_token(seat_token), ""
        seat.last_seen = timezone.now()
        seat.save(update_fields=["token_hash", "handover_hash", "last_seen"])
        _after_commit(table)
    return seat, seat_token


def _seat_held(table: Table, index, holder: set[str] | None) -> Seat:
    """The seat `index` of the locked table, refused unless the phone (`holder`) holds it."""
    seat = Seat.objects.select_for_update().filter(table=table, index=index).first()
    if seat is None:
        raise Refused("bad_seat")
    if holder is not None and not (seat.token_hash and seat.token_hash in holder):
        raise Refused("seat_not_yours")
    return seat


def stand_in(table: Table, index: int, holder: set[str] | None, on: bool) -> bool:
    """A player asks a computer player to play for them ("play for me", `on`) or takes
    their seat back (from either kind of stand-in); False if it was so already."""
    with transaction.atomic():
        table = _locked(table.pk)
        seat = _seat_held(table, index, holder)
        if on and not _hidden_hands_in_play(table):
            raise Refused("not_in_play")
        wanted = Seat.StandIn.ASKED if on else Seat.StandIn.NONE
        if seat.stand_in == wanted:
            return False
        seat.stand_in = wanted
        seat.save(update_fields=["stand_in"])
        _after_commit(table)
    return True


def take_over(table_id: int, index: int, version: int) -> bool:
    """A computer player takes over a person's seat whose phone is gone on its turn
    (games.online: the table's takeover rule, its time checked by the caller). Nothing
    if the table has moved on since `version` or the seat is not to act any more."""
    with transaction.atomic():
        table = _locked(table_id)
        seats = list(Seat.objects.select_for_update().filter(table=table))
        if not table.takeover or table.version != version:
            return False
        if online.seat_to_act(table, seats) != index:
            return False
        seat = next(s for s in seats if s.index == index)
        if seat.stand_in or not seat.taken:
            return False
        seat.stand_in = Seat.StandIn.GONE
        seat.save(update_fields=["stand_in"])
        _after_commit(table)
    return True


def run_out_clock(table_id: int, version: int) -> int | None:
    """The turn clock of the seat to act has run out at `version`: its bank is emptied
    (its next turn has the increment alone) and the seat returned, for a computer player
    to move for it (games.autoplay.clock_ran_out). None if the table moved on, or the
    clock runs for nobody to act or has time left."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.version != version:
            return None
        running = online.clock_deadline(table.clock)
        seats = list(Seat.objects.filter(table=table))
        if running is None or running[0] != online.seat_to_act(table, seats):
            return None
        seat, at = running
        now = time.time()
        if now < at:
            return None
        table.clock = {**table.clock, "banks": {**table.clock["banks"], str(seat): 0.0}}
        table.clock["since"] = now
        table.save(update_fields=["clock"])
    return seat


def hand_back(table_id: int, indexes) -> bool:
    """The seats a computer player took over while their phone was gone, back to the
    phone now that it has returned; False if none was."""
    with transaction.atomic():
        table = _locked(table_id)
        back = Seat.objects.filter(table=table, index__in=list(indexes), stand_in=Seat.StandIn.GONE)
        if not back.update(stand_in=Seat.StandIn.NONE):
            return False
        _after_commit(table)
    return True


def leave_seat(table: Table, index: int, holder: set[str] | None) -> None:
    """A player leaves the table. Before the start the seat is free again. A digital game
    under way goes on with a computer player in the seat (of the table's takeover level),
    whatever the table's takeover rule: "wait" waits for a phone that is gone, not for one
    that left, and a free seat would hand its cards to whoever claimed it next."""
    with transaction.atomic():
        table = _locked(table.pk)
        seat = _seat_held(table, index, holder)
        seat.token_hash = seat.handover_hash = seat.pending = ""
        seat.stand_in = Seat.StandIn.NONE
        if table.status == Table.Status.LOBBY:
            seat.name = ""
        elif _hidden_hands_in_play(table):
            seat.kind, seat.name = Seat.Kind.BOT, ""
            seat.bot_level = _takeover_level(table)
        seat.save()
        _after_commit(table)


def _takeover_level(table: Table) -> str:
    levels = get_game(table.game).web.bot_levels
    return table.takeover_level if table.takeover_level in levels else next(iter(levels))


def fill_open_table(table_id: int) -> bool:
    """An open table that has waited its time (Table.fill_after) gets computer players on
    its free seats and starts; False if it is not due or not waiting any more."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.Status.LOBBY or not table.open or not table.fill_after:
            return False
        if timezone.now() < table.created + timedelta(seconds=table.fill_after):
            return False
        level = _takeover_level(table)
        Seat.objects.filter(table=table, token_hash="", kind=Seat.Kind.HUMAN).update(
            kind=Seat.Kind.BOT, bot_level=level, name=""
        )
        _deal(table, "auto:start")
    return True


# -- hints (games.hints) ---------------------------------------------------------------------


@dataclass(frozen=True)
class HintAsked:
    """What a seat's question "what would the computer play?" needs: the table as it
    stood (code, version) and, unless the hint is given or being worked out already
    (`known`), the seat's view and legal actions to think over."""

    code: str
    version: int
    game: str
    mode: str
    view: dict | None = None
    legal: list | None = None
    known: bool = False


def ask_hint(table: Table, seat: int, expected_version: int, holder: set[str] | None) -> HintAsked:
    """A seat asks for a hint at `expected_version`: refused unless the host allows hints,
    the phone (`holder`) holds the seat, the game is in play at that version and the seat is
    to act. The seat is marked as being given a hint at this version (its hint
    {"thinking": time} until it is worked out: `give_hint`), so that asking again, on any
    phone or process, thinks once (unless the thinking was lost)."""
    with transaction.atomic():
        table = _locked(table.pk)
        seats = _seats(table, seat, holder)
        if table.status == Table.Status.CLOSED:
            raise Refused("table_closed")
        if table.status == Table.Status.FINISHED:
            raise Refused("game_over")
        if table.status != Table.Status.PLAYING or not table.state:
            raise Refused("not_playing")
        game = get_game(table.game)
        if not table.hints or game.web.hint_player is None or not game.hidden_hands(table.mode):
            raise Refused("hints_off")
        if expected_version != table.version:
            raise Refused("stale")
        engine = game.engine(table.mode)
        if engine.is_over(table.state):
            raise Refused("game_over")
        if engine.to_act(table.state) != [seat]:
            raise Refused("not_your_turn")
        own = next(row for row in seats if row.index == seat)
        asked = HintAsked(table.code, table.version, table.game, table.mode)
        if own.hint_at(table.version) is not None or own.hint_thinking(table.version):
            return replace(asked, known=True)
        Seat.objects.filter(pk=own.pk).update(
            hint={"thinking": time.time()}, hint_version=table.version
        )
        view = engine.view(table.state, seat)
        legal = engine.legal_actions(table.state)
        pending = own.pending_at(table.version)
        if pending:  # a first step taken: only the moves that finish it
            legal = [action for action in legal if _finishes(game.web, table.mode, pending, action)]
        code, version = table.code, table.version
        # its phones show that the computer is thinking (no new version)
        transaction.on_commit(lambda: live.broadcast(code, version))
    return replace(asked, view=view, legal=legal)


def _finishes(web, mode: str, pending: str, action: dict) -> bool:
    try:
        web.check_move(mode, pending, action)
    except Refused:
        return False
    return True


def give_hint(table_id: int, seat: int, version: int, action: dict | None) -> bool:
    """The hint worked out for `seat` at `version` (None: it could not be: the seat may ask
    again), kept on the seat, counted, and sent to the table's phones (its seat's alone
    show it): False if the table moved on meanwhile."""
    with transaction.atomic():
        table = _locked(table_id)
        own = Seat.objects.select_for_update().filter(table=table, index=seat).first()
        if own is None or table.version != version or own.hint_version != version:
            return False
        if own.hint_at(version) is not None:
            return False  # given already
        code = table.code
        # its phones show the hint, or the button again
        transaction.on_commit(lambda: live.broadcast(code, version))
        if action is None:
            own.hint, own.hint_version = None, None
            own.save(update_fields=["hint", "hint_version"])
            return False
        own.hint, own.hints = action, own.hints + 1
        own.save(update_fields=["hint", "hints"])
    return True
