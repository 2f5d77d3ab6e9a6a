"""The servers' settings for bench/load.py: the project's own, but for the limit on
table creation, raised (the bench creates every table from one address). The limits on
WebSocket handshakes and sockets per address stay the site's: each table's phones come
from a loopback address of their own, the flooders from another."""

from companion.settings import *  # noqa: F403
from games.ratelimit import RATE_LIMITS as SITE_LIMITS

RATE_LIMITS = {**SITE_LIMITS, "create_table": (10**9, 600), "unknown_code": (10**9, 60)}
