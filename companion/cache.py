"""SharedRedisCache: Django's Redis cache with one client, and so one
connection pool, per process.

Django makes a cache object per thread and per async context, and each RedisCache makes
its own client with its own pool: under Channels nearly every socket's handshake made a
new Redis connection (a tenth of a handshake's CPU, profiled under bench/load.py
--reconnecters). Here every object of one configuration shares the first one's client.
"""

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property


class SharedRedisCache(RedisCache):
    _clients: dict = {}
    _lock = threading.Lock()

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with self._lock:
            if key not in self._clients:
                self._clients[key] = self._class(self._servers, **self._options)
            return self._clients[key]
