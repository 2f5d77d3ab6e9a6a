"""Who a phone is at a table: the seats whose tokens its cookie holds, the seat it shows
(its active seat) and whether it holds the host's token. Views and consumers alike ask
here; only hashes of the tokens are stored.

A phone keeps one cookie for every table it has sat at or hosts (a "book"): a signed,
compact map {code: Entry(seat tokens, host token)}, oldest table first. It is bounded (at
most MAX_TABLES tables and MAX_COOKIE_CHARS characters, the oldest dropped first), and a
table that no longer exists or was closed or finished more than a day ago is dropped when
the cookie is written or the table is seen. A cookie whose signature does not verify is
ignored: the phone is a spectator. The per-table cookies of earlier versions
(seats_<CODE>, host_<CODE>) are still read, and folded into the new cookie (and deleted)
the next time the phone's cookie is written or it opens one of those tables."""

import re
from dataclasses import dataclass, field
from datetime import timedelta

from django.core import signing
from django.utils import timezone

from games.models import CODE_ALPHABET, CODE_LENGTH, Seat, Table, hash_token

MAX_SEATS_PER_PHONE = 4

COOKIE_NAME = "phone"
COOKIE_SALT = "games.phones"
COOKIE_AGE = 60 * 60 * 24 * 30  # seconds
MAX_TABLES = 40
# Browsers keep a cookie of at most 4,096 bytes (name, value and attributes); nginx takes
# request headers up to 8 KB.
MAX_COOKIE_CHARS = 3600
GONE_AFTER = timedelta(days=1)  # a closed or finished table is forgotten after this
LEGACY_SEATS, LEGACY_HOST = "seats_", "host_"

CODE_RE = re.compile(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The cookie's text, before signing: CODE~host~seat.seat|CODE~~seat|… (none of ~ | . occurs
# in a code or a token, and all are legal in a cookie without quoting).
TABLES, PARTS, SEATS = "|", "~", "."


@dataclass
class Entry:
    seats: list[str] = field(default_factory=list)  # seat tokens, oldest first
    host: str = ""  # the host's token, if this phone created the table


Book = dict[str, Entry]  # by table code, oldest table first


@dataclass(frozen=True)
class Phone:
    seats: list[int]  # the seat indices it holds, ascending
    active: int | None  # the seat it shows; None: a spectator
    host: bool


def _signer():
    # as request.get_signed_cookie(COOKIE_NAME, salt=COOKIE_SALT) verifies
    return signing.get_cookie_signer(salt=COOKIE_NAME + COOKIE_SALT)


def _parse(text: str) -> Book:
    book: Book = {}
    for item in text.split(TABLES):
        parts = item.split(PARTS)
        if len(parts) != 3 or not CODE_RE.fullmatch(parts[0]):
            continue
        code, host, seats = parts
        tokens = [t for t in seats.split(SEATS) if TOKEN_RE.fullmatch(t)]
        book.pop(code, None)
        book[code] = Entry(tokens[-MAX_SEATS_PER_PHONE:], host if TOKEN_RE.fullmatch(host) else "")
    return book


def _text(book: Book) -> str:
    return TABLES.join(
        PARTS.join((code, entry.host, SEATS.join(entry.seats))) for code, entry in book.items()
    )


def _legacy(cookies) -> Book:
    """The per-table cookies of earlier versions, as a book."""
    book: Book = {}
    for name, value in cookies.items():
        for prefix in (LEGACY_SEATS, LEGACY_HOST):
            code = name[len(prefix) :]
            if name.startswith(prefix) and CODE_RE.fullmatch(code):
                entry = book.setdefault(code, Entry())
                tokens = [t for t in str(value).split(".") if TOKEN_RE.fullmatch(t)]
                if prefix == LEGACY_SEATS:
                    entry.seats = tokens[:MAX_SEATS_PER_PHONE]
                elif tokens:
                    entry.host = tokens[0]
    return book


def legacy_names(cookies) -> list[str]:
    """The names of the earlier versions' cookies this phone sends (to delete them)."""
    return [
        name
        for name in cookies
        for prefix in (LEGACY_SEATS, LEGACY_HOST)
        if name.startswith(prefix) and CODE_RE.fullmatch(name[len(prefix) :])
    ]


def read(cookies) -> Book:
    """The phone's book from its cookies (a request's COOKIES or a socket's
    scope["cookies"]): the signed cookie if it verifies, after the earlier versions'
    per-table cookies (older)."""
    book = _legacy(cookies)
    raw = cookies.get(COOKIE_NAME)
    if raw:
        try:
            text = _signer().unsign(raw, max_age=COOKIE_AGE)
        except signing.BadSignature:  # forged, altered or expired: ignored
            text = ""
        for code, entry in _parse(text).items():
            old = book.pop(code, Entry())
            seats = [t for t in old.seats if t not in entry.seats] + entry.seats
            book[code] = Entry(seats[-MAX_SEATS_PER_PHONE:], entry.host or old.host)
    return book


def cookie_value(book: Book) -> str:
    """The signed value of the phone's cookie holding `book` (bounded first)."""
    return _signer().sign(_text(bounded(book)))


def cookie_pair(code: str, seats=(), host: str = "") -> str:
    """'phone=<value>': a Cookie header's part for a phone holding `seats` (tokens) and
    perhaps the host's token at one table (for clients that write their headers by hand:
    tests, benchmarks)."""
    return f"{COOKIE_NAME}={cookie_value({code: Entry(list(seats), host)})}"


def bounded(book: Book) -> Book:
    """`book` without its oldest tables beyond MAX_TABLES or MAX_COOKIE_CHARS."""
    items = list(book.items())[-MAX_TABLES:]
    room = MAX_COOKIE_CHARS - len(_signer().sign(""))
    while items and len(_text(dict(items))) > room:
        items.pop(0)
    return dict(items)


def with_seat(book: Book, code: str, token: str) -> Book:
    """`book` holding one more seat token at `code`, now its newest table."""
    entry = book.get(code, Entry())
    seats = [t for t in entry.seats if t != token][-(MAX_SEATS_PER_PHONE - 1) :] + [token]
    return {**without(book, [code]), code: Entry(seats, entry.host)}


def with_host(book: Book, code: str, token: str) -> Book:
    """`book` holding the host's token of `code`, now its newest table."""
    entry = book.get(code, Entry())
    return {**without(book, [code]), code: Entry(entry.seats, token)}


def without(book: Book, codes) -> Book:
    codes = set(codes)
    return {code: entry for code, entry in book.items() if code not in codes}


def is_gone(table: Table) -> bool:
    """A table a phone forgets: closed or finished more than GONE_AFTER ago."""
    ended = table.status in (Table.Status.CLOSED, Table.Status.FINISHED)
    return ended and table.updated < timezone.now() - GONE_AFTER


def live_codes(codes) -> set[str]:
    """Those of `codes` whose tables a phone keeps: they exist and are not gone."""
    ended = (Table.Status.CLOSED, Table.Status.FINISHED)
    cutoff = timezone.now() - GONE_AFTER
    tables = Table.objects.filter(code__in=list(codes)).exclude(
        status__in=ended, updated__lt=cutoff
    )
    return set(tables.values_list("code", flat=True))


def cookie_tokens(cookies, code: str) -> list[str]:
    entry = read(cookies).get(code)
    return entry.seats[:MAX_SEATS_PER_PHONE] if entry else []


def host_token(cookies, code: str) -> str | None:
    entry = read(cookies).get(code)
    return (entry.host or None) if entry else None


def token_hashes(cookies, code: str) -> set[str]:
    return {hash_token(t) for t in cookie_tokens(cookies, code)}


def pick_active(indices: list[int], wanted) -> int | None:
    try:
        wanted = int(wanted)
    except (TypeError, ValueError, OverflowError):
        wanted = None
    if wanted in indices:
        return wanted
    return indices[0] if indices else None


def seats_held(seats: list[Seat], hashes) -> list[int]:
    """The seats a phone holds now: those whose token is in its cookie (hashed)."""
    return [seat.index for seat in seats if seat.token_hash and seat.token_hash in hashes]


def seats_for_tokens(table: Table, tokens: list[str]) -> list[Seat]:
    """The seats a phone holds: those whose token is in its cookie."""
    hashes = [hash_token(t) for t in tokens if t]
    if not hashes:
        return []
    return list(table.seats.filter(token_hash__in=hashes).order_by("index"))


def identify(table: Table, cookies, wanted_seat, seats: list[Seat] | None = None) -> Phone:
    """The phone with these cookies at `table`, showing `wanted_seat` if it holds it
    (`seats`: the table's seats, when the caller has read them)."""
    entry = read(cookies).get(table.code) or Entry()
    tokens = entry.seats[:MAX_SEATS_PER_PHONE]
    if seats is None:
        indices = [seat.index for seat in seats_for_tokens(table, tokens)]
    else:
        indices = seats_held(seats, {hash_token(t) for t in tokens if t})
    host = table.is_host(entry.host or None)
    return Phone(indices, pick_active(indices, wanted_seat), host)
