"""Thinking off the server: the computer players that search (the hard levels, the hints
and the review after a game) run in a pool of worker processes, never on a server
process's event loop nor holding its interpreter while other tables wait.

Each process that asks (a server process, or a task queue worker: companion.queue) starts
its own pool on first use, `settings.THINKERS` processes, started by "spawn" (a clean
interpreter: forking a process that runs an event loop and threads is unsafe), at a
lower priority (`settings.THINK_NICE`, and Linux's idle scheduling class): when the
machine is busy, the tables' updates go first and the computer players take a moment
longer. What is
sent is a module-level function of a game's pure engine side (its `search.py`) and plain
data (a seat's view, the legal actions, a seeded `random.Random`), so a worker imports
no Django. `Thinker` wraps such a function as a computer player (GameWeb.bot_levels).
"""

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def pool() -> ProcessPoolExecutor:
    """This process's pool of thinking processes, started on first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=settings.THINKERS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
                initargs=(settings.THINK_NICE,),
            )
        return _pool


def _lower_priority(nice: int) -> None:
    """A thinking process's priority (run in it as it starts): `nice` lower, and on Linux
    the idle class too, which takes the processor only when nothing else wants it."""
    os.nice(nice)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _submit(fn, args, kwargs) -> Future:
    global _pool
    try:
        return pool().submit(fn, *args, **kwargs)
    except BrokenProcessPool:  # a worker was killed (out of memory, by hand): a new pool
        log.warning("the thinking pool broke; starting a new one")
        with _lock:
            _pool = None
        return pool().submit(fn, *args, **kwargs)


def run(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` in a thinking process; the calling thread waits for it."""
    return _submit(fn, args, kwargs).result(timeout=settings.THINK_TIMEOUT)


async def arun(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` in a thinking process, awaited (the event loop goes on)."""
    future = _submit(fn, args, kwargs)
    return await asyncio.wait_for(asyncio.wrap_future(future), settings.THINK_TIMEOUT)


def shutdown() -> None:
    """Stop this process's pool (tests; a process that ends stops it by itself)."""
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(cancel_futures=True)
            _pool = None


class Thinker:
    """A computer player (view, legal, rng) → action that thinks in the pool: `fn` is a
    module-level function of a game's engine side, called there with `options`."""

    def __init__(self, fn, **options):
        self.fn, self.options = fn, options

    def __call__(self, view: dict, legal: list[dict], rng=None) -> dict:
        return run(self.fn, view, legal, rng, **self.options)

    def __repr__(self) -> str:
        return f"Thinker({self.fn.__module__}.{self.fn.__qualname__})"
