"""Who a phone is at a table: the seats whose tokens its cookie holds, the seat it shows
(its active seat) and whether it holds the host's token. Views and consumers alike ask
here; only hashes of the tokens are stored."""

from dataclasses import dataclass

from games.models import Seat, Table, hash_token

MAX_SEATS_PER_PHONE = 4


@dataclass(frozen=True)
class Phone:
    seats: list[int]  # the seat indices it holds, ascending
    active: int | None  # the seat it shows; None: a spectator
    host: bool


def seat_cookie_name(code: str) -> str:
    return f"seats_{code}"


def host_cookie_name(code: str) -> str:
    return f"host_{code}"


def cookie_tokens(cookies, code: str) -> list[str]:
    raw = cookies.get(seat_cookie_name(code), "")
    return [t for t in raw.split(".") if t][:MAX_SEATS_PER_PHONE]


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


def identify(table: Table, cookies, wanted_seat) -> Phone:
    """The phone with these cookies at `table`, showing `wanted_seat` if it holds it."""
    seats = seats_for_tokens(table, cookie_tokens(cookies, table.code))
    indices = [seat.index for seat in seats]
    host = table.is_host(cookies.get(host_cookie_name(table.code)))
    return Phone(indices, pick_active(indices, wanted_seat), host)
