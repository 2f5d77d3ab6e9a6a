"""Computer players at digital tables: when a bot's seat is to act, it plays — and so
does a computer player standing in for a person (Seat.stand_in: asked for, or the phone
gone on its turn), or moving for a person whose turn clock ran out (`clock_ran_out`).

After every committed change of a digital table in play, a bot's move is a job of the
task queue due `settings.BOT_DELAY` seconds later, so that people can follow
(games.deadlines); with BOT_DELAY 0 the bots play at once, in the writer's thread, until
a person is to act or the game is over (tests). A bot gets exactly what a phone would:
`engine.view(state, seat)` and `engine.legal_actions(state)` (the seat to act's
choices), and its move goes through `services.apply_action` like any other, with the
client action id `bot:<version>` (no phone can send a ":"): the same move twice is
harmless, the second one is a duplicate or a stale version.
"""

import logging
import random
import threading

from games import services
from games.models import Seat, Table
from games.registry import get_game

log = logging.getLogger(__name__)

_local = threading.local()


def play_now(table_id: int) -> int:
    """Play bot moves until a person is to act or the game is over; how many were played
    (none when called from a bot's own move: the loop goes on)."""
    if getattr(_local, "playing", False):
        return 0
    _local.playing = True
    try:
        moves = 0
        while play_once(table_id):
            moves += 1
        return moves
    finally:
        _local.playing = False


# the client action ids of the moves a computer player makes (play_for's callers)
COMPUTER_IDS = ("bot:", "clock:")


def by_computer(client_action_id: str) -> bool:
    """Whether a logged move was a computer player's (its own seat's, or standing in)."""
    return client_action_id.startswith(COMPUTER_IDS)


def play_once(table_id: int) -> bool:
    """One move of the bot whose seat is to act, if any; True if it played."""
    table = Table.objects.filter(pk=table_id).first()
    return table is not None and get_game(table.game).hidden_hands(table.mode) and move(table)


def move(table: Table) -> bool:
    """The move of the bot to act at `table` as loaded; False if there is none or the
    table has changed since (a second scheduling of the same move)."""
    if table.status != Table.Status.PLAYING or not table.state:
        return False
    engine = get_game(table.game).engine(table.mode)
    bot = _bot_to_act(table.pk, engine.to_act(table.state))
    if bot is None:
        return False  # a person's turn, and nobody asked a computer player to play for them
    level = bot.bot_level if bot.kind == Seat.Kind.BOT else table.takeover_level
    return play_for(table, bot.index, level, f"bot:{table.version}")


def play_for(table: Table, seat: int, level: str, client_action_id: str) -> bool:
    """The move of a computer player of `level` (else the game's first) for `seat` of the
    table as loaded, from that seat's view only; False if the table changed meanwhile."""
    game = get_game(table.game)
    engine = game.engine(table.mode)
    state = table.state
    levels = game.web.bot_levels
    player, _label = levels.get(level) or next(iter(levels.values()))
    # Ties are broken reproducibly, from nothing a phone could not know.
    rng = random.Random(f"{table.code}:{table.version}")
    action = player(engine.view(state, seat), engine.legal_actions(state), rng)
    try:
        applied = services.apply_action(table, seat, action, table.version, client_action_id)
    except services.Refused as refusal:
        if refusal.code != "stale":  # someone else changed the table first
            log.error("bot at %s seat %s was refused: %s", table.code, seat, refusal.code)
        return False
    return not applied.duplicate


def clock_ran_out(table_id: int, version: int) -> bool:
    """The turn clock of the seat to act ran out at this version (games.deadlines): its
    bank is emptied (games.services.run_out_clock) and a computer player of the table's
    takeover level moves for it, once (the id `clock:<version>`). False if the table
    moved on or the time is not up."""
    seat = services.run_out_clock(table_id, version)
    if seat is None:
        return False
    table = Table.objects.filter(pk=table_id, version=version).first()
    return table is not None and play_for(table, seat, table.takeover_level, f"clock:{version}")


def _bot_to_act(table_id: int, to_act: list[int]) -> Seat | None:
    """The computer player whose move the game waits for, if it waits for that one seat
    and a bot sits there or stands in for its person (when several may act, the people
    at the table do)."""
    if len(to_act) != 1:
        return None
    seats = Seat.objects.filter(table_id=table_id, index=to_act[0])
    return (seats.filter(kind=Seat.Kind.BOT) | seats.exclude(stand_in="")).first()


def waits_for_bot(table: Table, seats) -> bool:
    """Whether the digital table in play waits for one computer player's move (its own
    seat's, or standing in for a person's)."""
    if table.status != Table.Status.PLAYING or not table.state:
        return False
    game = get_game(table.game)
    to_act = game.engine(table.mode).to_act(table.state)
    if not game.hidden_hands(table.mode) or len(to_act) != 1:
        return False
    seat = next((s for s in seats if s.index == to_act[0]), None)
    return seat is not None and (seat.kind == Seat.Kind.BOT or bool(seat.stand_in))


def play_at(table_id: int, version: int) -> bool:
    """The computer player's move that was due at `version` (games.deadlines); nothing if
    the table moved on."""
    table = Table.objects.filter(pk=table_id, version=version).first()
    return table is not None and move(table)
