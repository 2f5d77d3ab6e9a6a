"""Playing with people who are not in the room (issue 19): what a digital table does
when a phone is gone on its turn (takeover), its turn clock, and open tables that fill
with computer players. Pure: the table's rows and the time in, decisions out; the
writes are games.services' and games.autoplay's, the timers games.consumers'.

Every rule of the game stays in its engine: a seat's turn is `engine.to_act`, and a
computer player moves for a seat exactly as for its own (games.autoplay).
"""

from dataclasses import dataclass

from games.models import Table
from games.registry import get_game

# Seconds a human's phone may be gone on its turn before a computer player takes over
# (a table's choice; None: the table waits)
TAKEOVER_SECONDS = (30, 300)
TAKEOVER_CHOICES = (30, 60, 120, 300)  # what the lobby offers
# A turn clock: minutes in each player's bank, seconds added after each move
CLOCK_MINUTES = (1, 60)
CLOCK_INCREMENT = (0, 60)
CLOCK_CHOICES = ((2, 10), (5, 15), (10, 30))  # what the lobby offers
# A turn-based table: the time each move may take, in seconds (the lobby's choices: an
# hour, 12 hours, a day, 3 days); when it runs out a computer player moves for the seat
PER_MOVE_CHOICES = (3600, 12 * 3600, 24 * 3600, 72 * 3600)
# Seconds an open table waits for players before its free seats get computer players
FILL_CHOICES = (60, 120, 300, 600)

GONE, CLOCK, FILL = "gone", "clock", "fill"  # what a deadline is for


def seat_to_act(table, seats) -> int | None:
    """The one human seat the game waits for (None when it waits for several seats, for a
    computer player, or for nobody)."""
    if not isinstance(table.state, dict) or table.status != Table.Status.PLAYING:
        return None
    to_act = get_game(table.game).engine(table.mode).to_act(table.state)
    if len(to_act) != 1:
        return None
    seat = next((s for s in seats if s.index == to_act[0]), None)
    if seat is None or seat.kind == seat.Kind.BOT:
        return None
    return seat.index


def clock_new(minutes: int, increment: int) -> dict:
    """A table's turn clock, before the deal."""
    return {"bank": minutes * 60, "increment": increment, "banks": {}, "seat": None, "since": None}


def clock_per_move(seconds: int) -> dict:
    """A turn-based table's clock, before the deal: each turn has `seconds`, whatever the
    seat had left of its last one."""
    return {**clock_new(0, 0), "bank": seconds, "per_move": seconds}


def turn_based(clock: dict) -> bool:
    return bool(clock and clock.get("per_move"))


def clock_dealt(clock: dict, players: int, to_act: int | None, now: float) -> dict:
    """The clock when cards are dealt: every bank full, running for the seat to act."""
    if not clock:
        return clock
    banks = {str(i): float(clock["bank"]) for i in range(players)}
    return {**clock, "banks": banks, "seat": to_act, "since": now if to_act is not None else None}


def clock_moved(clock: dict, mover: int | None, to_act: int | None, now: float) -> dict:
    """The clock after a change: the seat it ran for is charged the time it took (and gets
    the increment if it was the one that moved); it then runs for `to_act`."""
    if not clock or not clock.get("banks"):
        return clock
    banks = dict(clock["banks"])
    running, since = clock.get("seat"), clock.get("since")
    if running is not None and since is not None and str(running) in banks:
        left = max(0.0, banks[str(running)] - max(0.0, now - since))
        if mover == running:
            left += clock["increment"]
        banks[str(running)] = round(left, 3)
    if turn_based(clock) and to_act is not None and (mover is not None or running != to_act):
        banks[str(to_act)] = float(clock["per_move"])  # a move's whole time, each turn
    if running == to_act and mover != running:
        return {**clock, "banks": banks, "since": now if to_act is not None else None}
    return {**clock, "banks": banks, "seat": to_act, "since": now if to_act is not None else None}


def clock_left(clock: dict, seat: int, now: float) -> float | None:
    """Seconds left in `seat`'s bank now (None without a clock)."""
    if not clock or str(seat) not in clock.get("banks", {}):
        return None
    left = clock["banks"][str(seat)]
    if clock.get("seat") == seat and clock.get("since") is not None:
        left -= max(0.0, now - clock["since"])
    return max(0.0, left)


def clock_deadline(clock: dict) -> tuple[int, float] | None:
    """(seat, the time its bank runs out) while the clock runs, else None."""
    if not clock or clock.get("seat") is None or clock.get("since") is None:
        return None
    seat = clock["seat"]
    return seat, clock["since"] + clock["banks"].get(str(seat), 0.0)


@dataclass(frozen=True)
class Deadline:
    at: float  # the time (time.time()) it falls due
    kind: str  # GONE, CLOCK or FILL
    seat: int | None
    version: int


def deadlines(table, seats, presence_notes, gone_since) -> list[Deadline]:
    """What will need doing at this table, and when, as its phones see it now:
    `presence_notes` (seat → state; a seat not named is gone) and `gone_since(seat)` (the
    time the seat's phone was last seen)."""
    out = []
    if table.status == Table.Status.LOBBY and table.open and table.fill_after:
        out.append(
            Deadline(table.created.timestamp() + table.fill_after, FILL, None, table.version)
        )
    seat = seat_to_act(table, seats)
    if seat is None:
        return out
    row = next(s for s in seats if s.index == seat)
    watched = table.takeover and not row.stand_in and row.taken and presence_notes is not None
    if watched and seat not in presence_notes:
        out.append(Deadline(gone_since(seat) + table.takeover, GONE, seat, table.version))
    running = clock_deadline(table.clock)
    if running is not None and running[0] == seat:
        out.append(Deadline(running[1], CLOCK, seat, table.version))
    return out
