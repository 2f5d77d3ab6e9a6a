"""The only code that changes a table: its seats, its status and its state.

Every change runs in one transaction with the table row locked; state changes
also append one Action row and bump the version. Only after commit is the
table's channel group told that something changed — never what.
"""

import asyncio
import contextvars
import logging
import secrets
from dataclasses import dataclass

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import draws, reads, render
from games.models import Action, Seat, Table, hash_token, new_code, new_token
from games.registry import get_game

NAME_MAX = 24
log = logging.getLogger(__name__)


class Refused(Exception):
    """A request the table refuses; `code` is translated by games.labels."""

    def __init__(self, code: str, rule: str | None = None):
        super().__init__(code)
        self.code = code
        self.rule = rule


@dataclass(frozen=True)
class Applied:
    version: int
    duplicate: bool = False


def group_name(code: str) -> str:
    return f"table-{code}"


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's event loop, when this thread runs sync code on its behalf."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def broadcast(code: str, version: int | None = None, snap=None) -> None:
    """Tell every phone at the table to render its own view afresh. The change id lets
    the phones on one process share one read of the table (games.consumers); `snap`,
    the table as the change left it, spares this process's phones that read.

    Run for an ASGI server (a consumer or a view), the message is handed to the server's
    event loop and this thread goes on at once: it is the one database thread, and
    waiting there for Redis held up every other move. The loop sends a process's
    messages one after another, in the order of their commits."""
    change = secrets.token_hex(8)
    if snap is not None:
        render.keep(snap.table.pk, change, snap)
    message = {"type": "table.changed", "version": version, "change": change}
    loop = server_loop()
    if loop is None:
        async_to_sync(get_channel_layer().group_send)(group_name(code), message)
    else:
        # a fresh context: this thread's would tell asgiref that it runs inside the
        # sync thread it would need
        loop.call_soon_threadsafe(
            _send_in_order, group_name(code), message, context=contextvars.Context()
        )


_last_send: asyncio.Task | None = None


def _send_in_order(group: str, message: dict) -> None:
    """On the server's event loop: send after the process's previous message."""
    global _last_send
    previous = _last_send

    loop = asyncio.get_running_loop()

    async def send():
        if previous is not None and not previous.done() and previous.get_loop() is loop:
            await asyncio.wait([previous])
        try:
            await get_channel_layer().group_send(group, message)
        except Exception:  # Redis away: the phones catch up on their next resync
            log.exception("could not tell %s of a change", group)

    _last_send = loop.create_task(send())


def _after_commit(table: Table, snap=None) -> None:
    code, version = table.code, table.version
    # robust: a change that is saved stays answered as saved even if the channel layer
    # is down; phones catch up on their next resync.
    transaction.on_commit(lambda: broadcast(code, version, snap), robust=True)
    if table.mode == Table.Mode.DIGITAL and table.status == Table.Status.PLAYING:
        # then a computer player moves if its seat is to act (games.autoplay)
        from games import autoplay

        table_id = table.pk
        transaction.on_commit(lambda: autoplay.after_change(table_id), robust=True)


def clean_name(name) -> str:
    if not isinstance(name, str):
        raise Refused("bad_name")
    name = " ".join(name.split())
    if not name or len(name) > NAME_MAX or any(ord(ch) < 32 for ch in name):
        raise Refused("bad_name")
    return name


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def create_table(
    game: str,
    mode: str,
    players: int,
    target: int | None,
    host_name: str,
    turn_marker: bool = True,
):
    """A new table in the lobby; the host sits at seat 0. Returns (table, host token, seat token)."""
    spec = get_game(game)
    if mode not in Table.Mode.values:
        raise Refused("bad_request")
    if not (spec.min_players <= players <= spec.max_players):
        raise Refused("bad_players")
    config = {"players": players}
    if game == "triumfdrez":
        if target is None or not 10 <= target <= 500:
            raise Refused("bad_target")
        config["target"] = target
    if (game, mode) == ("triggs", "companion"):
        config["turn_marker"] = bool(turn_marker)
    name = clean_name(host_name)
    host_token, seat_token = new_token(), new_token()
    with transaction.atomic():
        table = insert_table(
            game=game, mode=mode, config=config, host_token_hash=hash_token(host_token)
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                index=i,
                name=name if i == 0 else "",
                token_hash=hash_token(seat_token) if i == 0 else "",
                last_seen=timezone.now() if i == 0 else None,
            )
            for i in range(players)
        )
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


def claim_seat(table: Table, index: int, name: str) -> str:
    """Sit a player on a free seat; returns the seat's token for the phone's cookie."""
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
        if table.status != Table.Status.LOBBY and seat.name and seat.name != name:
            # A freed seat during a game keeps its player's name on the sheet.
            name = seat.name
        seat.name, seat.token_hash, seat.last_seen = name, hash_token(token), timezone.now()
        seat.save(update_fields=["name", "token_hash", "last_seen"])
        _after_commit(table)
    return token


def require_host(table: Table, host_token: str | None) -> None:
    if not table.is_host(host_token):
        raise Refused("not_host")


def free_seat(table: Table, host_token: str | None, index: int) -> None:
    require_host(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        updated = Seat.objects.filter(table=table, index=index).update(
            token_hash="", handover_hash="", kind=Seat.Kind.HUMAN, bot_level=""
        )
        if not updated:
            raise Refused("bad_seat")
        _after_commit(table)


def seat_bot(table: Table, host_token: str | None, index: int, level: str) -> None:
    """Before the game starts the host puts a computer player on a free seat, or changes
    a computer player's level; free_seat makes the seat free again."""
    from games import autoplay

    require_host(table, host_token)
    if table.mode != Table.Mode.DIGITAL:
        raise Refused("bots_digital_only")
    if level not in autoplay.levels(table.game):
        raise Refused("bad_request")
    with transaction.atomic():
        table = _locked(table.pk)
        if table.status != Table.Status.LOBBY:
            raise Refused("already_started")
        seat = Seat.objects.select_for_update().filter(table=table, index=index).first()
        if seat is None:
            raise Refused("bad_seat")
        if seat.kind != Seat.Kind.BOT and seat.taken:
            raise Refused("seat_taken")
        # A bot's name is worded at render time, in each phone's language.
        seat.kind, seat.bot_level, seat.name = Seat.Kind.BOT, level, ""
        seat.token_hash = seat.handover_hash = ""
        seat.save(update_fields=["kind", "bot_level", "name", "token_hash", "handover_hash"])
        _after_commit(table)


def close_table(table: Table, host_token: str | None) -> None:
    require_host(table, host_token)
    with transaction.atomic():
        table = _locked(table.pk)
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status", "updated"])
        _after_commit(table)


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
    seed = secrets.randbits(48)
    engine = get_game(table.game).engine(table.mode)
    table.state = engine.new_game(table.config, seed)
    table.status = Table.Status.PLAYING
    table.version += 1
    table.save(update_fields=["state", "status", "version", "updated"])
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


def apply_action(
    table: Table,
    seat: int,
    action: dict,
    expected_version: int,
    client_action_id: str,
    holder: set[str] | None = None,
) -> Applied:
    """Apply one seat's action: the data path of every move, in both modes. `holder`: the
    token hashes of the phone asking, when the seat is still to be checked as its own.

    Five statements: the locked row (with whether the action id was seen), the seats,
    the new state, the log row and the log's latest rows, which with the seats make the
    snapshot the phones of this process render (games.render)."""
    with transaction.atomic():
        table = reads.locked_table(table.pk, client_action_id)
        if table is None:
            raise Table.DoesNotExist
        seats = _seats(table, seat, holder)
        if not table.seen and expected_version != table.version:
            # `seen` was read as the log stood before the lock was ours: a twin of this
            # action (a second tab, the other process) may have been applied meanwhile
            table.seen = Action.objects.filter(
                table=table, client_action_id=client_action_id
            ).exists()
        if table.seen:
            # The process that applied it may have died before telling the table.
            _after_commit(table)
            return Applied(table.version, duplicate=True)
        if table.status == Table.Status.CLOSED:
            raise Refused("table_closed")
        if table.status not in (Table.Status.PLAYING, Table.Status.FINISHED):
            raise Refused("not_playing")
        if expected_version != table.version:
            raise Refused("stale")
        engine = get_game(table.game).engine(table.mode)
        drawing = _committed_draw(table, seats, seat)
        if drawing and not (
            action.get("type") == "draw"
            and type(action.get("from")) is list
            and action["from"][:1] == [drawing]
        ):
            raise Refused("draw_committed", "T-A")
        try:
            state = engine.apply(table.state, seat, action)
        except engine.IllegalAction as error:
            raise Refused(error.code, getattr(error, "rule", None)) from None
        own = next((row for row in seats if row.index == seat), None)
        if own is not None and own.pending_draw and (drawing or action.get("type") == "draw"):
            Seat.objects.filter(pk=own.pk).update(pending_draw="")
            own.pending_draw = ""
        table.state = state
        table.version += 1
        # A finished companion match can still take back its last hand.
        over = state.get("phase") in ("over", "match_over")
        table.status = Table.Status.FINISHED if over else Table.Status.PLAYING
        table.save(update_fields=["state", "status", "version", "updated"])
        Action.objects.create(
            table=table,
            version=table.version,
            seat=seat,
            action=action,
            client_action_id=client_action_id,
        )
        _after_commit(table, render.snapshot(table, seats))
    return Applied(table.version)


def _seats(table: Table, seat: int, holder: set[str] | None) -> list[Seat]:
    """The table's seats; refused unless `holder` (if given) holds `seat`."""
    seats = reads.seats(table.pk)
    if holder is not None and not any(
        row.index == seat and row.token_hash and row.token_hash in holder for row in seats
    ):
        raise Refused("seat_not_yours")
    return seats


def _committed_draw(table: Table, seats: list[Seat], seat: int) -> str | None:
    if (table.game, table.mode) != ("triggs", Table.Mode.DIGITAL):
        return None
    row = next((row for row in seats if row.index == seat), None)
    return draws.committed_pile(row, table.version) if row else None


def pick_first_draw(
    table: Table, seat: int, pile: str, expected_version: int, holder: set[str] | None = None
) -> None:
    """Digital Triggs: the seat takes its first card from `pile` and sees what it
    uncovered before choosing the second (games.draws); it is now committed to drawing."""
    with transaction.atomic():
        table = _locked(table.pk)
        seats = _seats(table, seat, holder)
        if (table.game, table.mode) != ("triggs", Table.Mode.DIGITAL) or pile not in draws.PILES:
            raise Refused("bad_request")
        if table.status != Table.Status.PLAYING:
            raise Refused("not_playing")
        if expected_version != table.version:
            raise Refused("stale")
        committed = _committed_draw(table, seats, seat)
        if committed and committed != pile:
            raise Refused("draw_committed", "T-A")
        error = draws.first_draw_refusal(table.state, seat, pile)
        if error is not None:
            raise Refused(error.code, getattr(error, "rule", None))
        Seat.objects.filter(table=table, index=seat).update(pending_draw=f"{table.version}:{pile}")
        code, version = table.code, table.version
        transaction.on_commit(lambda: broadcast(code, version), robust=True)


def seats_for_tokens(table: Table, tokens: list[str]) -> list[Seat]:
    """The seats a phone holds: those whose token is in its cookie."""
    hashes = [hash_token(t) for t in tokens if t]
    if not hashes:
        return []
    return list(table.seats.filter(token_hash__in=hashes).order_by("index"))


def create_handover(table: Table, seat: Seat) -> str:
    """A one-time token that moves `seat` to another phone (for a phone that died)."""
    token = new_token()
    Seat.objects.filter(pk=seat.pk).update(handover_hash=hash_token(token))
    return token


def claim_handover(table: Table, token: str) -> tuple[Seat, str]:
    with transaction.atomic():
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
