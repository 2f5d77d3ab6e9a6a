"""A saved session as one JSON document, and back as a new table (the staff admin).

The document holds what replays the session — game, mode, config, seed, seats and the
log — and the final state's version and SHA-256 (of games.replay.canonical_json), never
a token or a hash of one. Importing replays the log through the engine and accepts the
session only if it ends on that very state; the new table gets a new code and a host
token nobody holds, and its human seats are free for their players to claim again.
"""

import json
import re
from dataclasses import dataclass

from django.utils import timezone

from games import labels, replay, services
from games.models import Seat, Table
from games.registry import GAMES

FORMAT = "tabletop-companion-session"
FORMAT_VERSION = 1
MAX_BYTES = 2 * 1024 * 1024
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
BOT_LEVEL_MAX = 20


class ImportRejected(Exception):
    """A session file refused: `code` names the reason (labels.IMPORT_REASONS), `params`
    fill it in."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        """The reason in the active language."""
        return labels.reason(labels.IMPORT_REASONS, self.code, self.params)


# -- export ----------------------------------------------------------------------------


def export_session(table: Table) -> dict:
    """The document of a started table (see the module docstring)."""
    log = replay.table_log(table)
    seed = log[0].action.get("seed") if log and isinstance(log[0].action, dict) else None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported": timezone.now().isoformat(timespec="seconds"),
        "code": table.code,
        "game": table.game,
        "mode": table.mode,
        "config": table.config,
        "seed": seed,
        "seats": [
            {"index": s.index, "name": s.name, "kind": s.kind, "bot_level": s.bot_level}
            for s in table.seats.order_by("index")
        ],
        "actions": [{"version": e.version, "seat": e.seat, "action": e.action} for e in log],
        "final": {"version": table.version, "sha256": replay.state_hash(table.state)},
    }


def export_bytes(table: Table) -> bytes:
    return json.dumps(export_session(table), ensure_ascii=False, indent=1).encode()


def export_filename(table: Table) -> str:
    return f"session-{table.game}-{table.code}.json"


# -- import ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    game: str
    mode: str
    config: dict
    seats: list[dict]
    log: list[replay.Entry]
    state: dict


def read_upload(upload) -> bytes:
    """The bytes of an uploaded file, refusing a missing or too large one unread."""
    if upload is None:
        raise ImportRejected("no_file")
    if upload.size > MAX_BYTES:
        raise ImportRejected("too_large")
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImportRejected("too_large")
    return data


def _field(document: dict, key: str, kinds: tuple, where: str = ""):
    value = document.get(key)
    # bool is an int subclass, but never a valid number here.
    if type(value) not in kinds:
        raise ImportRejected("bad_field", field=f"{where}{key}")
    return value


def _seats(raw: list, players: int) -> list[dict]:
    seats = []
    for position, seat in enumerate(raw):
        where = f"seats[{position}]."
        if type(seat) is not dict:
            raise ImportRejected("bad_field", field=f"seats[{position}]")
        index = _field(seat, "index", (int,), where)
        name = _field(seat, "name", (str,), where)
        kind = _field(seat, "kind", (str,), where)
        level = _field(seat, "bot_level", (str,), where)
        if len(name) > services.NAME_MAX or any(ord(ch) < 32 for ch in name):
            raise ImportRejected("bad_field", field=f"{where}name")
        if kind not in Seat.Kind.values:
            raise ImportRejected("bad_field", field=f"{where}kind")
        if len(level) > BOT_LEVEL_MAX:
            raise ImportRejected("bad_field", field=f"{where}bot_level")
        seats.append({"index": index, "name": name, "kind": kind, "bot_level": level})
    if sorted(seat["index"] for seat in seats) != list(range(players)):
        raise ImportRejected("bad_seats", last=players - 1)
    return sorted(seats, key=lambda seat: seat["index"])


def _log(raw: list) -> list[replay.Entry]:
    log = []
    for position, entry in enumerate(raw):
        where = f"actions[{position}]."
        if type(entry) is not dict:
            raise ImportRejected("bad_field", field=f"actions[{position}]")
        version = _field(entry, "version", (int,), where)
        seat = _field(entry, "seat", (int, type(None)), where)
        action = _field(entry, "action", (dict,), where)
        log.append(replay.Entry(version, seat, action))
    return log


def parse(data: bytes) -> Session:
    """Check a session document and replay it; raises ImportRejected with the reason."""
    if len(data) > MAX_BYTES:
        raise ImportRejected("too_large")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportRejected("not_json") from None
    if type(document) is not dict or document.get("format") != FORMAT:
        raise ImportRejected("bad_format")
    found = document.get("format_version")
    if type(found) is not int or found != FORMAT_VERSION:
        raise ImportRejected("bad_format_version", found=found, expected=FORMAT_VERSION)
    game = _field(document, "game", (str,))
    if game not in GAMES:
        raise ImportRejected("unknown_game", game=game[:40])
    mode = _field(document, "mode", (str,))
    if mode not in GAMES[game].modes:
        raise ImportRejected("unknown_mode", mode=mode[:40])
    config = _field(document, "config", (dict,))
    players = config.get("players")
    spec = GAMES[game]
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        raise ImportRejected("bad_config")
    seats = _seats(_field(document, "seats", (list,)), players)
    log = _log(_field(document, "actions", (list,)))
    seed = document.get("seed")
    if not log:
        raise ImportRejected("not_started")
    if type(seed) is not int or log[0].action.get("seed") != seed:
        raise ImportRejected("bad_field", field="seed")
    final = _field(document, "final", (dict,))
    claimed = _field(final, "version", (int,), "final.")
    digest = _field(final, "sha256", (str,), "final.")
    if not SHA256_RE.match(digest):
        raise ImportRejected("bad_field", field="final.sha256")

    result = replay.run(game, mode, config, log)
    if result.divergence is not None:
        if result.divergence.code == "bad_config":
            raise ImportRejected("bad_config")
        raise ImportRejected(
            "diverges", step=result.divergence.step, reason=result.divergence.message
        )
    if claimed != len(log):
        raise ImportRejected("version_mismatch", claimed=claimed, logged=len(log))
    if replay.state_hash(result.final) != digest:
        raise ImportRejected("hash_mismatch")
    return Session(game, mode, config, seats, log, result.final)


def import_session(data: bytes) -> Table:
    """A new table from a session document, all or nothing; raises ImportRejected."""
    session = parse(data)
    try:
        return services.import_table(
            session.game, session.mode, session.config, session.state, session.seats, session.log
        )
    except services.Refused:
        raise ImportRejected("busy") from None
