"""Rate limits per client address, for what a prober or a flood would repeat: lookups of
a table by a code that does not exist (pages and WebSocket handshakes alike), lookups of
a group that fail (players.views), WebSocket handshakes, table creation, sign-ups and
failed sign-ins (players.throttle). A fixed-window counter in Django's cache: shared by
every process when it is Redis (REDIS_URL), per process otherwise. settings.RATE_LIMITS
may override each. (WebSocket handshakes are counted by the server itself, before the
application sees them: companion.serve.)

What a phone does at a table in the ordinary way (creating tables: PHONE_KINDS) is counted
per phone instead (`phone_key`: the signed-in account, else the phone's CSRF cookie, else
its address), within a much larger envelope for the address (ADDRESS_ENVELOPE times a
phone's limit): every phone at a café or a club shares one public address, and one
phone's limit for all of them refused a club night of ten tables. A client that changes
its cookie at every request is still held by its address's envelope."""

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
CACHE_AWAY = (RedisError, OSError)  # the shared cache is Redis when REDIS_URL is set

# kind → (at most this many, per this many seconds)
RATE_LIMITS = {
    "unknown_code": (10, 60),  # lookups of a table by a code that does not exist
    # lookups of a group that show nothing: an unknown code, a wrong invite link and a
    # non-member's request alike (a prober cannot tell them apart)
    "group_lookup": (10, 600),
    # tables created by one phone (the address: ADDRESS_ENVELOPE times as many)
    "create_table": (10, 600),
    # attempts to create an account, refused ones included: without e-mail this is the
    # bound on how many usernames an address can find taken
    "sign_up": (10, 3600),
    # failed sign-ins, whatever the username (players.throttle: one password tried on many
    # accounts); the players' sign-in page and the admin's login alike
    "login_failed": (20, 3600),
}


# counted per phone (`phone_key`), the address allowed ADDRESS_ENVELOPE phones' worth
PHONE_KINDS = {"create_table"}
ADDRESS_ENVELOPE = 6


def _window(address: str | None, kind: str):
    limits = {**RATE_LIMITS, **getattr(settings, "RATE_LIMITS", {})}
    if kind.endswith("@address"):  # a phone's kind, for all the phones of one address
        limit, seconds = limits[kind.removesuffix("@address")]
        limit, seconds = limits.get(kind, (limit * ADDRESS_ENVELOPE, seconds))
    else:
        limit, seconds = limits[kind]
    return f"rate:{kind}:{address or '-'}:{int(time.time() // seconds)}", limit, seconds


def phone_key(address: str | None, cookies, account_id=None) -> str:
    """Who a phone is, for its limits: its signed-in account, else its CSRF cookie (every
    page with a form gives one; only its hash is kept), else its address."""
    if account_id is not None:
        return f"account:{account_id}"
    token = cookies.get(settings.CSRF_COOKIE_NAME) if cookies else None
    if token:
        return "phone:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"address:{address or '-'}"


def request_phone(request) -> str:
    """`phone_key` of a request (its address: REMOTE_ADDR, which daphne --proxy-headers
    sets from X-Forwarded-For)."""
    user = getattr(request, "user", None)
    account = user.pk if user is not None and user.is_authenticated else None
    return phone_key(request.META.get("REMOTE_ADDR"), request.COOKIES, account)


def count_phone(request, kind: str) -> bool:
    """Counts one more `kind` (one of PHONE_KINDS) for the request's phone and, if the
    phone is within its limit, for its address's envelope; True if either is over. A phone
    over its own limit is refused without using up its neighbours' envelope."""
    if count(request_phone(request), kind):
        return True
    return count(request.META.get("REMOTE_ADDR"), f"{kind}@address")


def over(address: str | None, kind: str) -> bool:
    """True if the client has used up `kind` in this window."""
    key, limit, _seconds = _window(address, kind)
    try:
        return cache.get(key, 0) >= limit
    except CACHE_AWAY as error:
        return _let_through(kind, error)


def count(address: str | None, kind: str) -> bool:
    """Counts one more `kind` for the client; True if that goes over its limit."""
    key, limit, seconds = _window(address, kind)
    try:
        cache.add(key, 0, timeout=seconds)
        try:
            total = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=seconds)
            total = 1
    except CACHE_AWAY as error:
        return _let_through(kind, error)
    return total > limit


def _let_through(kind: str, error: Exception) -> bool:
    """While the shared cache (Redis) is away nothing is counted and nobody is held back:
    a move saved by a plain form post must still be answered (games.consumers says what
    the sockets do meanwhile)."""
    log.warning("rate limit %s not counted: the cache is away (%r)", kind, error)
    return False
