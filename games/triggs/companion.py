"""Triggs companion mode: the cards are on the table, each phone is its player's score sheet.

Rules used (ids from rules.md): T-SHEET, T-C-CAP, T-C-BONUS (with its ruling: the extra
crosses are placed by the player, mandatory while a box is open, no limit to the chain),
T-OBSOLETE-12, T-OBSOLETE-11 and T-WIN; T-SETUP-3 (seat order) for the optional turn marker.
There is no hidden information: hands and piles stay on the table.

Same surface as engine.py (`new_game`, `legal_actions`, `apply`, `view`, `IllegalAction`),
except that `legal_actions` takes an optional seat: with the turn marker off any seat may
cross, so the question "what can this phone do?" needs the seat.

State (plain JSON):
- game "triggs-companion", players, seed (unused: the table shuffles), turn_marker;
- turn: with the marker on, the seat whose turn it is; with it off, only a hint (the seat
  after the latest entry) that nothing enforces;
- phase "play" | "extra" | "over", winner;
- sheets (per seat: boxes crossed in rows 1..12), obsolete ([] | [12] | [12, 11]);
- pending_extra (extra crosses still to place) and extra_seat (who places them, or None);
- undo: None or {"seat": s, "state": the state before s's latest entry, without "undo"};
- correction: None or {"by": s, "seat": t, "value": v, "crosses": n}, a correction of
  seat t's row v to n crosses that s proposed and t has yet to confirm or reject;
- last: the latest entry for the game log: {"seat", "type": "cross", "value", "sets",
  "extras": [row, ...]} (extras grow as the chain is placed), {"seat", "type": "pass"},
  {"seat", "type": "undo", "undone": <the undone entry's "last">}, a correction's step
  {"seat", "type": "correct" | "confirm" | "reject", "by", "target", "value", "from",
  "to"} ("correct" with by == target is applied at once), or None.

Actions: {"type": "cross", "value": v, "sets": n} (n sets laid for v; n is a count here,
the cards stay on the table), {"type": "extra", "value": w}, {"type": "pass"} (a turn
without a cross; turn marker only) and {"type": "undo"}.

Corrections, for mistakes found later (a wrong row, a mistaken winning tap): any seat may
propose {"type": "correct", "seat": t, "value": v, "crosses": n} (row v of seat t's
sheet to n crosses), at any time but during a chain of extra crosses, the game over
included. A seat's own sheet is corrected at once; another's waits for that seat's
{"type": "confirm"}, or a {"type": "reject"} by it or by the proposer; one correction
waits at a time. A correction recomputes the obsolete rows (T-OBSOLETE-*) and the win
(T-WIN): a sheet made full wins, and a winner's sheet made short resumes the game with
the next seat's turn. legal_actions lists confirm and reject when they apply, not the
hundreds of possible corrections.
"""

import pickle

from . import errors
from .piles import next_obsolete
from .sheet import ROW_SIZES, TOTAL_BOXES, VALUES, open_boxes

__all__ = [
    "CODES",
    "IllegalAction",
    "correction_answers",
    "apply",
    "is_over",
    "legal_actions",
    "new_game",
    "to_act",
    "view",
]

GAME = "triggs-companion"

# The codes this engine raises; all of Triggs's codes live in errors.CODES.
CODES: dict[str, tuple[str, str]] = {
    code: errors.CODES[code]
    for code in (
        "bad_config",
        "bad_action",
        "unknown_action",
        "missing_field",
        "unexpected_field",
        "game_over",
        "bad_seat",
        "not_your_turn",
        "extra_pending",
        "no_extra_pending",
        "bad_value",
        "row_full",
        "too_many_sets",
        "bad_sets",
        "no_turns",
        "nothing_to_undo",
        "bad_crosses",
        "no_change",
        "correction_pending",
        "no_correction",
    )
}
IllegalAction = errors.IllegalAction


# Never shown: the seed, and the undo snapshot (it holds the whole previous state).
HIDDEN = ("seed", "undo")
FIELDS = {
    "cross": frozenset(("type", "value", "sets")),
    "extra": frozenset(("type", "value")),
    "pass": frozenset(("type",)),
    "undo": frozenset(("type",)),
    "correct": frozenset(("type", "seat", "value", "crosses")),
    "confirm": frozenset(("type",)),
    "reject": frozenset(("type",)),
}
CORRECTIONS = ("correct", "confirm", "reject")


def new_game(config: dict, seed: int) -> dict:
    """A blank sheet per seat. config: players 2-4, turn_marker (default True), first (0)."""
    if type(config) is not dict or type(seed) is not int:
        raise IllegalAction("bad_config")
    players = config.get("players")
    marker = config.get("turn_marker", True)
    first = config.get("first", 0)
    if (
        type(players) is not int
        or not 2 <= players <= 4
        or type(marker) is not bool
        or type(first) is not int
        or not 0 <= first < players
    ):
        raise IllegalAction("bad_config")
    return {
        "game": GAME,
        "players": players,
        "seed": seed,
        "turn_marker": marker,
        "turn": first,
        "phase": "play",
        "winner": None,
        "sheets": [[0] * 12 for _ in range(players)],
        "obsolete": [],
        "pending_extra": 0,
        "extra_seat": None,
        "undo": None,
        "correction": None,
        "last": None,
    }


def _check_seat(state: dict, seat: object) -> int:
    if type(seat) is not int or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat", repr(seat))
    return seat


def _undo_seat(state: dict) -> int | None:
    undo = state["undo"]
    return None if undo is None else undo["seat"]


def is_over(state: dict) -> bool:
    """T-WIN: a player has crossed every box."""
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    """The seats whose entry the sheet waits for: the one placing extra crosses, else the
    turn's seat, or every seat when the turn marker is off; [] once over."""
    if state["phase"] == "over":
        return []
    if state["extra_seat"] is not None:
        return [state["extra_seat"]]
    return [state["turn"]] if state["turn_marker"] else list(range(state["players"]))


# -- legal actions ---------------------------------------------------------------------


def legal_actions(state: dict, seat: int | None = None) -> list[dict]:
    """Everything `seat` may enter now (None: the seat to act, i.e. the one placing extra
    crosses, else `turn`): every (value, sets) cross, extras, pass, undo, and the answers
    it may give to a correction (confirm, reject). Only those answers once over."""
    if seat is None:
        seat = state["turn"] if state["extra_seat"] is None else state["extra_seat"]
    seat = _check_seat(state, seat)
    answers = correction_answers(state, seat)
    if state["phase"] == "over":
        return answers
    sheet = state["sheets"][seat]
    actions: list[dict] = []
    if state["phase"] == "extra":
        if seat == state["extra_seat"]:
            actions = [{"type": "extra", "value": v} for v in VALUES if open_boxes(sheet, v) > 0]
    elif not state["turn_marker"] or seat == state["turn"]:
        actions = [
            {"type": "cross", "value": v, "sets": n}
            for v in VALUES
            for n in range(1, open_boxes(sheet, v) + 1)
        ]
        if state["turn_marker"]:
            actions.append({"type": "pass"})
    if _undo_seat(state) == seat:
        actions.append({"type": "undo"})
    return actions + answers


def correction_answers(state: dict, seat: int) -> list[dict]:
    """The answers `seat` may give to the correction waiting (confirm, reject), if any."""
    correction = state.get("correction")
    if correction is None or state["phase"] == "extra":
        return []
    answers = [{"type": "confirm"}] if seat == correction["seat"] else []
    if seat in (correction["seat"], correction["by"]):
        answers.append({"type": "reject"})
    return answers


# -- apply -----------------------------------------------------------------------------


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after `seat` enters `action`; raises IllegalAction and changes nothing.

    Checks, in this order: the action's shape, the game is not over, the seat exists,
    then undo rights, field values, whose turn it is and the rules of the sheet.
    """
    kind = errors.check_shape(action, FIELDS)
    if kind in CORRECTIONS:
        return _correction(state, _check_seat(state, seat), kind, action)
    if state["phase"] == "over":
        raise IllegalAction("game_over")
    seat = _check_seat(state, seat)
    if kind == "undo":
        return _undo(state, seat)
    if kind != "pass":
        value = action["value"]
        if type(value) is not int or not 1 <= value <= 12:
            raise IllegalAction("bad_value", repr(value))
    if kind == "cross" and (type(action["sets"]) is not int or action["sets"] < 1):
        raise IllegalAction("bad_sets", repr(action["sets"]))
    extra_seat = state["extra_seat"]
    if extra_seat is not None:  # a chain of extra crosses is being placed
        if seat != extra_seat:
            raise IllegalAction("not_your_turn" if state["turn_marker"] else "extra_pending")
        if kind != "extra":
            raise IllegalAction("extra_pending")
        return _extra(state, seat, action["value"])
    if kind == "extra":
        raise IllegalAction("no_extra_pending")
    if state["turn_marker"]:
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn")
    elif kind == "pass":
        raise IllegalAction("no_turns")
    if kind == "pass":
        new = _entry(state, seat)
        new["last"] = {"seat": seat, "type": "pass"}
        return _next_turn(new, seat)
    return _cross(state, seat, action["value"], action["sets"])


def _entry(state: dict, seat: int) -> dict:
    """A copy of `state` that `seat` may undo back to (the start of a new entry)."""
    new = dict(state)
    new["undo"] = {"seat": seat, "state": {k: v for k, v in state.items() if k != "undo"}}
    return new


def _next_turn(new: dict, seat: int) -> dict:
    """The entry is complete: the turn passes to the next seat (T-SETUP-3 order)."""
    new["turn"] = (seat + 1) % new["players"]
    return new


def _mark(new: dict, seat: int, value: int, count: int) -> bool:
    """Cross `count` boxes of row `value` on `seat`'s sheet in `new`; then T-OBSOLETE-*
    and T-WIN. True when the row became full and the game goes on (T-C-BONUS)."""
    sheets = new["sheets"] = new["sheets"][:]
    sheet = sheets[seat] = sheets[seat][:]
    sheet[value - 1] += count
    new["obsolete"] = next_obsolete(sheets, new["obsolete"])
    if sum(sheet) == TOTAL_BOXES:
        new.update(phase="over", winner=seat, pending_extra=0, extra_seat=None, undo=None)
        return False
    return sheet[value - 1] == ROW_SIZES[value]


def _cross(state: dict, seat: int, value: int, count: int) -> dict:
    """T-C-CAP: 1 <= sets <= open boxes of the row; a full row starts a chain (T-C-BONUS)."""
    room = open_boxes(state["sheets"][seat], value)
    if room <= 0:
        raise IllegalAction("row_full", str(value))
    if count > room:
        raise IllegalAction("too_many_sets", f"{count} > {room}")
    new = _entry(state, seat)
    new["last"] = {"seat": seat, "type": "cross", "value": value, "sets": count, "extras": []}
    if _mark(new, seat, value, count):
        new.update(phase="extra", pending_extra=1, extra_seat=seat)
        return new
    return new if new["phase"] == "over" else _next_turn(new, seat)


def _extra(state: dict, seat: int, value: int) -> dict:
    """T-C-BONUS: one extra cross in an open row; filling it chains another one."""
    if open_boxes(state["sheets"][seat], value) <= 0:
        raise IllegalAction("row_full", str(value))
    new = dict(state)
    last = state["last"]
    if last is not None and last.get("seat") == seat and last.get("type") == "cross":
        new["last"] = {**last, "extras": [*last.get("extras", ()), value]}
    filled = _mark(new, seat, value, 1)
    if new["phase"] == "over":
        return new
    pending = state["pending_extra"] - 1 + filled
    new["pending_extra"] = pending
    if pending:
        return new
    new.update(phase="play", extra_seat=None)
    return _next_turn(new, seat)


def _undo(state: dict, seat: int) -> dict:
    """Undo `seat`'s latest entry (a cross with its extra crosses, or a pass), as long as
    no other seat has entered anything since."""
    if _undo_seat(state) != seat:
        raise IllegalAction("nothing_to_undo")
    new = dict(state["undo"]["state"])
    new["undo"] = None
    new["last"] = {"seat": seat, "type": "undo", "undone": state["last"]}
    return new


# -- corrections -----------------------------------------------------------------------


def _correction(state: dict, seat: int, kind: str, action: dict) -> dict:
    """Propose, confirm or reject the correction of a row (see the module's docstring)."""
    if state["phase"] == "extra":
        raise IllegalAction("extra_pending")
    pending = state.get("correction")
    if kind == "correct":
        target = _check_seat(state, action["seat"])
        value = action["value"]
        if type(value) is not int or not 1 <= value <= 12:
            raise IllegalAction("bad_value", repr(value))
        crosses = action["crosses"]
        if type(crosses) is not int or not 0 <= crosses <= ROW_SIZES[value]:
            raise IllegalAction("bad_crosses", repr(crosses))
        if pending is not None:
            raise IllegalAction("correction_pending")
        before = state["sheets"][target][value - 1]
        if crosses == before:
            raise IllegalAction("no_change")
        step = {"by": seat, "target": target, "value": value, "from": before, "to": crosses}
        if target == seat:  # one's own sheet: nobody else to ask
            return _set_row(state, {"seat": seat, "type": "correct", **step})
        new = dict(state)
        new["correction"] = {"by": seat, "seat": target, "value": value, "crosses": crosses}
        new["last"] = {"seat": seat, "type": "correct", **step}
        return new
    if pending is None or kind not in {a["type"] for a in correction_answers(state, seat)}:
        raise IllegalAction("no_correction")
    target, value = pending["seat"], pending["value"]
    step = {
        "seat": seat,
        "type": kind,
        "by": pending["by"],
        "target": target,
        "value": value,
        "from": state["sheets"][target][value - 1],
        "to": pending["crosses"],
    }
    if kind == "confirm":
        return _set_row(state, step)
    new = dict(state)
    new.update(correction=None, last=step)
    return new


def _set_row(state: dict, step: dict) -> dict:
    """Row step["value"] of seat step["target"] set to step["to"] crosses; the obsolete
    rows and the win worked out again; nothing left to undo."""
    target, value = step["target"], step["value"]
    new = dict(state)
    sheets = new["sheets"] = [row[:] for row in state["sheets"]]
    sheets[target][value - 1] = step["to"]
    new.update(obsolete=next_obsolete(sheets, []), correction=None, undo=None, last=step)
    if state["phase"] != "over" and sum(sheets[target]) == TOTAL_BOXES:
        new.update(phase="over", winner=target)
    elif state["phase"] == "over" and sum(sheets[state["winner"]]) < TOTAL_BOXES:
        new.update(phase="play", winner=None, turn=(state["winner"] + 1) % state["players"])
    return new


# -- view ------------------------------------------------------------------------------


def _copied(data):
    """A deep copy of plain data (a state is JSON): a pickle's round trip, four times as
    fast as copy.deepcopy (a view is drawn for every phone after every move)."""
    return pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))


def view(state: dict, seat: int | None) -> dict:
    """Everything but the seed and the undo snapshot, plus `seat` and `can_undo` (the seat
    that may undo its latest entry, or None). Nothing here is hidden from anyone."""
    if seat is not None:
        _check_seat(state, seat)
    seen = _copied({key: value for key, value in state.items() if key not in HIDDEN})
    seen["seat"] = seat
    seen["can_undo"] = _undo_seat(state)
    return seen
