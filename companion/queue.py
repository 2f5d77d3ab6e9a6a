"""The task queue: Procrastinate (procrastinate.contrib.django).

On PostgreSQL its jobs are rows of the database, taken by `manage.py procrastinate
worker` processes started beside the server processes (README): a job scheduled by any
process runs once, on one worker, at its time; a worker killed mid-job leaves it to be
run again by another (`retry_stalled`, games.tasks). On SQLite (`make run`, most tests)
the queue is Procrastinate's in-memory one and its worker runs inside the process: on the
ASGI server's event loop when there is one, else on a thread of its own.

`defer` is the one way in: a job with a lock is scheduled once however many times it is
deferred before it runs.
"""

import asyncio
import contextlib
import contextvars
import datetime
import functools
import logging
import os
import threading

from django.conf import settings
from procrastinate import exceptions, testing
from procrastinate.contrib.django import app

from games import live

log = logging.getLogger(__name__)
# The in-process worker: as the settings say (PROCRASTINATE_WORKER_DEFAULTS), in a loop
# that is not its own.
WORKER = {"install_signal_handlers": False}
_in_process: dict = {}  # "loop": the loop the in-process worker runs on
_lock = threading.Lock()


def on_app_ready(ready_app) -> None:
    """PROCRASTINATE_ON_APP_READY: the in-memory queue where the database is not
    PostgreSQL (whose schema Procrastinate needs)."""
    from django.db import connections

    if connections["default"].vendor != "postgresql":
        ready_app.connector = ready_app.job_manager.connector = testing.InMemoryConnector()
    ready_app.worker_defaults["worker_middleware"] = [behind_people]


async def behind_people(call_next, context, worker):
    """Procrastinate's worker middleware: a worker process of its own (`manage.py
    procrastinate worker`) runs its jobs (the computer players' moves, the clocks, pushes,
    reviews) `settings.WORKER_NICE` lower in priority, from its first job on, so that on
    a busy machine the server processes serve people's moves first. The in-process worker
    shares the server's process and is left as it is."""
    if not in_process():
        lower_priority()
    return await call_next()


@functools.cache
def lower_priority() -> int:
    """This process's priority, lowered by `settings.WORKER_NICE` the first time only."""
    return os.nice(settings.WORKER_NICE)


class QueueRouter:
    """Procrastinate's migrations (its schema, in PostgreSQL's SQL) run on PostgreSQL only."""

    def allow_migrate(self, db, app_label, **hints):
        if app_label != "procrastinate":
            return None
        from django.db import connections

        return connections[db].vendor == "postgresql"


def in_process() -> bool:
    return isinstance(app.connector, testing.InMemoryConnector)


def defer(task, at: float, lock: str | None = None, **kwargs) -> None:
    """Schedule `task(**kwargs)` at `at` (a time.time()), once per `lock` while it waits.
    From sync code (a service's after-commit listener, a job)."""
    when = datetime.datetime.fromtimestamp(at, datetime.UTC)
    job = task.configure(schedule_at=when, queueing_lock=lock)
    if not in_process():
        with contextlib.suppress(exceptions.AlreadyEnqueued):
            job.defer(**kwargs)
        return
    loop = _worker_loop()
    future = asyncio.run_coroutine_threadsafe(_defer_async(job, kwargs), loop)
    future.add_done_callback(_logged)


async def adefer(task, at: float, lock: str, **kwargs) -> None:
    """`defer` from async code (a consumer)."""
    if not in_process():
        from asgiref.sync import sync_to_async

        await sync_to_async(defer)(task, at, lock, **kwargs)
        return
    when = datetime.datetime.fromtimestamp(at, datetime.UTC)
    job = task.configure(schedule_at=when, queueing_lock=lock)
    loop = _worker_loop(asyncio.get_running_loop())
    if loop is asyncio.get_running_loop():
        await _defer_async(job, kwargs)
    else:
        asyncio.run_coroutine_threadsafe(_defer_async(job, kwargs), loop).add_done_callback(_logged)


async def _defer_async(job, kwargs) -> None:
    if in_process() and _in_process.get("opened") is not asyncio.get_running_loop():
        # the in-memory queue wakes its worker on the loop it was opened on: this one,
        # maybe before the worker has opened it
        await app.connector.open_async()
        _in_process["opened"] = asyncio.get_running_loop()
    with contextlib.suppress(exceptions.AlreadyEnqueued):
        await job.defer_async(**kwargs)


def _logged(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("deferring a job failed", exc_info=future.exception())


def _worker_loop(running: asyncio.AbstractEventLoop | None = None) -> asyncio.AbstractEventLoop:
    """The loop of the in-process worker, started at the first job: the ASGI server's
    (so that a job's broadcast goes out on it), else a thread's of its own."""
    with _lock:
        loop = _in_process.get("loop")
        if loop is not None and loop.is_running():
            return loop
        server = running or live.server_loop()
        if server is not None:
            # a fresh context: the caller's would give the worker's jobs the executor of
            # the request that started it (asgiref), gone with the request
            server.call_soon_threadsafe(_start_worker, context=contextvars.Context())
            _in_process["loop"] = server
            return server
        ready = threading.Event()
        threading.Thread(target=_worker_thread, args=(ready,), daemon=True, name="queue").start()
        ready.wait(5)
        return _in_process["loop"]


def _start_worker() -> None:
    task = asyncio.get_running_loop().create_task(app.run_worker_async(**WORKER))
    _in_process["task"] = task


def _worker_thread(ready: threading.Event) -> None:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    _in_process["loop"] = loop
    loop.call_soon(ready.set)
    loop.run_until_complete(app.run_worker_async(**WORKER))
