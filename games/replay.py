"""Replaying a saved session from its seed and log, step by step (the staff admin).

A table's log (games.models.Action) holds at version 1 `{"type": "start", "seed": S}`
with no seat, then each engine action with its seat; step N is the state once version N
applied. Replaying the log through the table's engine (new_game, then apply) must give
the saved state exactly: where it does not, the replay says at which step it diverged
and why. `walk` takes the same steps for what a saved state does not keep (a chart's
course, a player's statistics). Nothing here writes to the database.
"""

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games import labels
from games.registry import GAMES


@dataclass(frozen=True)
class Entry:
    """One logged action: the table's version once it applied, its seat, the action, and
    the seat of the phone that entered it for that seat (None: the seat's own)."""

    version: Any
    seat: Any
    action: Any
    acted_by: Any = None


@dataclass(frozen=True)
class Divergence:
    step: int
    code: str
    params: dict

    @property
    def message(self) -> str:
        """The reason in the active language."""
        return labels.reason(labels.REPLAY_REASONS, self.code, self.params)


@dataclass(frozen=True)
class Replay:
    steps: int  # the steps reproduced: a state exists for each of 1..steps
    step: int  # the step whose state was kept (0 if none was reproduced)
    state: dict | None  # the state at `step`
    final: dict | None  # the state after the last reproduced step
    divergence: Divergence | None

    @property
    def faithful(self) -> bool:
        return self.divergence is None


def canonical_json(value) -> bytes:
    """One byte string per JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def state_hash(state) -> str:
    return hashlib.sha256(canonical_json(state)).hexdigest()


def engine_for(game: str, mode: str):
    return GAMES[game].engine(mode)


def _is_start(entry: Entry) -> bool:
    action = entry.action
    return (
        entry.seat is None
        and type(action) is dict
        and action.keys() == {"type", "seed"}
        and action["type"] == "start"
        and type(action["seed"]) is int
    )


def run(game: str, mode: str, config, log: Sequence[Entry], keep: int | None = None) -> Replay:
    """Replay `log` from the start and stop at the first step the engine cannot take.

    `keep` names the step whose state to keep (default and beyond the end: the last one).
    """
    engine = engine_for(game, mode)
    state = kept = None
    kept_step = steps = 0
    divergence = None
    for position, entry in enumerate(log):
        expected = position + 1
        if type(entry.version) is not int or entry.version != expected:
            divergence = Divergence(
                expected, "bad_version", {"expected": expected, "found": entry.version}
            )
            break
        if expected == 1 and not _is_start(entry):
            divergence = Divergence(1, "no_start", {})
            break
        if _is_start(entry):
            # Version 1 deals the first game; a later start is a rematch at the same table.
            try:
                state = engine.new_game(config, entry.action["seed"])
            except Exception:  # an untrusted log or config must not become a server error
                divergence = Divergence(expected, "bad_config", {})
                break
        else:
            try:
                state = engine.apply(state, entry.seat, entry.action)
            except Exception as error:  # the engines raise IllegalAction; anything else too
                code = getattr(error, "code", "bad_action")
                reason = labels.sentence(code, GAMES[game].web)
                divergence = Divergence(expected, "refused", {"code": code, "reason": reason})
                break
        steps = expected
        if keep == expected:
            kept, kept_step = state, expected
    if kept_step == 0 and steps:
        kept, kept_step = state, steps
    return Replay(steps, kept_step, kept, state, divergence)


def compare(replay: Replay, saved_state, saved_version: int, count: int) -> Replay:
    """The replay, with a divergence if it does not end where the saved session does."""
    if replay.divergence is not None:
        return replay
    divergence = None
    if saved_state is not None and count == 0:
        divergence = Divergence(1, "no_log", {})
    elif saved_state is None and count:
        divergence = Divergence(count, "no_saved_state", {"count": count})
    elif saved_version != count:
        divergence = Divergence(count, "version_differs", {"saved": saved_version, "logged": count})
    elif canonical_json(replay.final) != canonical_json(saved_state):
        divergence = Divergence(
            count, "state_differs", {"keys": ", ".join(differing_keys(replay.final, saved_state))}
        )
    if divergence is None:
        return replay
    return Replay(replay.steps, replay.step, replay.state, replay.final, divergence)


def differing_keys(replayed, saved) -> list[str]:
    if type(replayed) is not dict or type(saved) is not dict:
        return ["—"]
    keys = sorted(set(replayed) | set(saved))
    return [key for key in keys if replayed.get(key, ...) != saved.get(key, ...)] or ["—"]


def table_log(table) -> list[Entry]:
    rows = table.actions.order_by("version").values_list("version", "seat", "action", "acted_by")
    return [Entry(*row) for row in rows]


@dataclass(frozen=True)
class Step:
    """One step of a table's log as its engine took it."""

    entry: Entry
    before: Any  # the state it applied to; None at a start (a later start is a rematch)
    after: Any


def walk(table, log: Sequence[Entry] | None = None) -> Iterator[Step]:
    """The table's log through its engine, one step at a time, for what a saved state
    does not keep (a chart's course, a player's statistics). It stops quietly at a step
    the engine refuses: the staff's replay (replay_table) says which and why."""
    engine = engine_for(table.game, table.mode)
    state = None
    for entry in table_log(table) if log is None else log:
        try:
            if _is_start(entry):
                before, after = None, engine.new_game(table.config, entry.action["seed"])
            else:
                before, after = state, engine.apply(state, entry.seat, entry.action)
        except Exception:  # an untrusted log must not become a server error
            return
        yield Step(entry, before, after)
        state = after


def last_game(table) -> list[Step]:
    """The steps of the table's latest game: from its latest start on."""
    steps: list[Step] = []
    for step in walk(table):
        if step.before is None:
            steps = []
        steps.append(step)
    return steps


def replay_table(table, keep: int | None = None, log: list[Entry] | None = None) -> Replay:
    """Replay a saved table and check the result against its saved state and version."""
    log = table_log(table) if log is None else log
    replay = run(table.game, table.mode, table.config, log, keep)
    return compare(replay, table.state, table.version, len(log))


def views(game: str, mode: str, state: dict, players: int) -> list[tuple[int | None, dict]]:
    """What each seat sees at this state, then a spectator (seat None)."""
    engine = engine_for(game, mode)
    seats: list[int | None] = [*range(players), None]
    return [(seat, engine.view(state, seat)) for seat in seats]
