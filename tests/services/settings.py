"""The project's settings for the daphne processes the services tests start: as
companion.settings, with the per-client limits (games.ratelimit.RATE_LIMITS, and the
sockets per address and per table of games.consumers) raised, since every phone of a run
comes from 127.0.0.1."""

from companion.settings import *  # noqa: F403

RATE_LIMITS = {"unknown_code": (10**9, 60), "create_table": (10**9, 600)}
# every phone of a run comes from 127.0.0.1, and the tests reconnect phones on purpose
WS_HANDSHAKES_PER_ADDRESS = WS_HANDSHAKES_PER_PHONE = (10**6, 10**6)
WS_SOCKETS_PER_ADDRESS = WS_SOCKETS_PER_TABLE = WS_SOCKETS_PER_PHONE = 10**6
# who is at the table (games.presence): a note each second, stale after four
PRESENCE_SECONDS = (1.0, 4.0)
