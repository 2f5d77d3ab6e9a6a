"""Two cache backends. SharedRedisCache: Django's Redis cache with one client, and so one
connection pool, per process.

Django makes a cache object per thread and per async context, and each RedisCache makes
its own client with its own pool: under Channels nearly every socket's handshake made a
new Redis connection (a tenth of a handshake's CPU, profiled under bench/load.py
--reconnecters). Here every object of one configuration shares the first one's client.
"""

import threading

from cachetools import LRUCache
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
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


class RenderedFragments(BaseCache):
    """Rendered template fragments ({% cache %}) in a least-recently-used store of this
    process, shared by its threads, kept as they are: they are immutable strings, so not
    pickled as LocMemCache pickles every value, and their keys are those Django's tag
    makes (a fixed prefix and an MD5), not checked again at every lookup. Nothing expires:
    a fragment's key holds all it shows, and the store keeps MAX_ENTRIES of them."""

    _stores: dict = {}
    _lock = threading.Lock()

    def __init__(self, location, params):
        super().__init__(params)
        with self._lock:
            self._store = self._stores.setdefault(location, LRUCache(self._max_entries))

    def get(self, key, default=None, version=None):
        key = self.make_key(key, version)
        with self._lock:
            return self._store.get(key, default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_key(key, version)
        with self._lock:
            self._store[key] = value

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_key(key, version)
        with self._lock:
            if key in self._store:
                return False
            self._store[key] = value
            return True

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self.has_key(key, version)

    def has_key(self, key, version=None):
        key = self.make_key(key, version)
        with self._lock:
            return key in self._store

    def delete(self, key, version=None):
        key = self.make_key(key, version)
        with self._lock:
            return self._store.pop(key, None) is not None

    def clear(self):
        with self._lock:
            self._store.clear()
