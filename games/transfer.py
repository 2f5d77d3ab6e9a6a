"""A saved session as one JSON document, and back as a new table (the staff admin).

The document holds what replays the session — game, mode, config, seed, seats and the
log — and the final state's version and SHA-256 (of games.replay.canonical_json), never
a token or a hash of one. A logged action entered by another seat's phone for its seat
(issue 36) carries that seat too ("acted_by"; absent otherwise, as in earlier files).
Importing replays the log through the engine and accepts the session only if it ends on
that very state; the new table gets a new code and a host token nobody holds, and its
human seats are free for their players to claim again.

Several tables export as a zip of such documents, and that zip imports too: each
session in it is checked and replayed alone, and the tables are created only if every
one is accepted (a refusal names the file it is about).
"""

import io
import json
import lzma
import re
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games import labels, replay, services
from games.models import Seat, Table
from games.registry import GAMES, Game

FORMAT = "tabletop-companion-session"
FORMAT_VERSION = 1
MAX_BYTES = 2 * 1024 * 1024
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
BOT_LEVEL_MAX = 20
# A zip of sessions: how many it may hold and how much it may unpack to (each of its
# files is also at most MAX_BYTES).
MAX_SESSIONS = 200
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
# How much of a value read from a file a refusal repeats.
ECHO_MAX = 40


class ImportRejected(Exception):
    """A session file refused: `code` names the reason (labels.IMPORT_REASONS), `params`
    fill it in."""

    def __init__(self, code: str, inner: "ImportRejected | None" = None, **params):
        super().__init__(code)
        self.code = code
        self.params = params
        self.inner = inner  # "in_archive": the refusal of one file of a zip

    @property
    def message(self) -> str:
        """The reason in the active language."""
        params = self.params
        if self.inner is not None:
            params = {**params, "reason": self.inner.message}
        return labels.reason(labels.IMPORT_REASONS, self.code, params)


def echo(value) -> str:
    """A value read from a file, short enough to repeat in a refusal: a string or a
    number cut to ECHO_MAX characters, a list or an object only as its brackets. Control
    and format characters (a right-to-left override, a zero-width space) are shown as
    their escapes (\\u202e), so that the refusal reads as written and shows them."""
    if type(value) in (str, int, float):
        text = str(value)
        cut = text if len(text) <= ECHO_MAX else text[:ECHO_MAX] + "…"
        return "".join(
            ch.encode("unicode_escape").decode("ascii") if _unseen(ch) else ch for ch in cut
        )
    if type(value) is list:
        return "[…]"
    if type(value) is dict:
        return "{…}"
    return json.dumps(value)  # true, false, null


def _unseen(ch: str) -> bool:
    """A character that draws nothing, or changes how the text around it is drawn."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


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
        "actions": [
            {"version": e.version, "seat": e.seat, "action": e.action}
            | ({} if e.acted_by is None else {"acted_by": e.acted_by})
            for e in log
        ],
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


def _seats(raw: list, players: int, spec: Game) -> list[dict]:
    """The seats of a session: each name one a player could have chosen (stored as
    games.services.clean_name stores it, or empty), each computer player of one of the
    game's levels."""
    seats = []
    for position, seat in enumerate(raw):
        where = f"seats[{position}]."
        if type(seat) is not dict:
            raise ImportRejected("bad_field", field=f"seats[{position}]")
        index = _field(seat, "index", (int,), where)
        name = _field(seat, "name", (str,), where)
        kind = _field(seat, "kind", (str,), where)
        level = _field(seat, "bot_level", (str,), where)
        if name and not _as_stored(name):
            raise ImportRejected(
                "bad_name", field=f"{where}name", name=echo(name), max=services.NAME_MAX
            )
        if kind not in Seat.Kind.values:
            raise ImportRejected("bad_field", field=f"{where}kind")
        if len(level) > BOT_LEVEL_MAX:
            raise ImportRejected("bad_field", field=f"{where}bot_level")
        if kind == Seat.Kind.BOT and level not in spec.web.bot_levels:
            raise ImportRejected(
                "unknown_level",
                field=f"{where}bot_level",
                level=echo(level),
                game=spec.name,
                levels=", ".join(spec.web.bot_levels),
            )
        seats.append({"index": index, "name": name, "kind": kind, "bot_level": level})
    if sorted(seat["index"] for seat in seats) != list(range(players)):
        raise ImportRejected("bad_seats", last=players - 1)
    return sorted(seats, key=lambda seat: seat["index"])


def _as_stored(name: str) -> bool:
    """games.services.clean_name would store `name` unchanged."""
    try:
        return services.clean_name(name) == name
    except services.Refused:
        return False


def _log(raw: list) -> list[replay.Entry]:
    log = []
    for position, entry in enumerate(raw):
        where = f"actions[{position}]."
        if type(entry) is not dict:
            raise ImportRejected("bad_field", field=f"actions[{position}]")
        version = _field(entry, "version", (int,), where)
        seat = _field(entry, "seat", (int, type(None)), where)
        action = _field(entry, "action", (dict,), where)
        # who entered it for its seat (issue 36), when another seat's phone did
        acted_by = entry.get("acted_by")
        if acted_by is not None and (type(acted_by) is not int or not 0 <= acted_by < 64):
            raise ImportRejected("bad_field", field=f"{where}acted_by")
        log.append(replay.Entry(version, seat, action, acted_by))
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
        raise ImportRejected("bad_format_version", found=echo(found), expected=FORMAT_VERSION)
    game = _field(document, "game", (str,))
    if game not in GAMES:
        raise ImportRejected("unknown_game", game=echo(game))
    mode = _field(document, "mode", (str,))
    if mode not in GAMES[game].modes:
        raise ImportRejected("unknown_mode", mode=echo(mode))
    config = _field(document, "config", (dict,))
    players = config.get("players")
    spec = GAMES[game]
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        raise ImportRejected("bad_config")
    seats = _seats(_field(document, "seats", (list,)), players, spec)
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


# What reading a damaged zip may raise: a bad structure or checksum, truncated or corrupt
# compressed data, an unsupported compression method (NotImplementedError), an
# encrypted file (RuntimeError).
UNREADABLE_ZIP = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
)


def is_zip(data: bytes) -> bool:
    """A zip starts with "PK" (a JSON document never does)."""
    return data[:2] == b"PK"


def _archive(data: bytes) -> list[tuple[str, bytes]]:
    """The files of a zip of sessions, (name, bytes) in the zip's order; folders are
    skipped. Sizes are checked before anything is unpacked, and again while unpacking."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if not members:
                raise ImportRejected("empty_archive")
            if len(members) > MAX_SESSIONS:
                raise ImportRejected("too_many_sessions", max=MAX_SESSIONS)
            files, total = [], 0
            for info in members:
                name = echo(info.filename)
                if info.file_size > MAX_BYTES:
                    raise ImportRejected("in_archive", ImportRejected("too_large"), file=name)
                with archive.open(info) as member:
                    content = member.read(MAX_BYTES + 1)
                if len(content) > MAX_BYTES:
                    raise ImportRejected("in_archive", ImportRejected("too_large"), file=name)
                total += len(content)
                if total > MAX_ARCHIVE_BYTES:
                    raise ImportRejected(
                        "archive_too_large", max=MAX_ARCHIVE_BYTES // (1024 * 1024)
                    )
                files.append((name, content))
            return files
    except UNREADABLE_ZIP:
        raise ImportRejected("bad_archive") from None


def parse_upload(data: bytes) -> list[Session]:
    """The sessions of an uploaded file: one JSON document, or a zip of them (the export
    of several tables), each checked and replayed alone. Raises ImportRejected: for a
    file of a zip, "in_archive" with the file's name and its own refusal (`inner`)."""
    if not is_zip(data):
        return [parse(data)]
    sessions = []
    for name, content in _archive(data):
        try:
            sessions.append(parse(content))
        except ImportRejected as refused:
            raise ImportRejected("in_archive", refused, file=name) from None
    return sessions


def import_sessions(data: bytes) -> list[Table]:
    """New tables from an uploaded file (see parse_upload), all or nothing: if any
    session is refused, or a table cannot be created, no table is. Raises
    ImportRejected."""
    sessions = parse_upload(data)
    try:
        with transaction.atomic():
            return [
                services.import_table(s.game, s.mode, s.config, s.state, s.seats, s.log)
                for s in sessions
            ]
    except services.Refused:
        raise ImportRejected("busy") from None
