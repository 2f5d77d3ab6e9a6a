import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--no-first-run",
]


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=1):
            return True
    except OSError:
        return False


def require(what: str, available: bool, how: str) -> None:
    """Skip a test whose outside part is missing — unless CI requires it."""
    if available:
        return
    message = f"{what} is not available ({how})"
    if REQUIRED:
        pytest.fail(f"{message}, and REQUIRE_SERVICES=1 requires it")
    pytest.skip(f"{message}; set REQUIRE_SERVICES=1 to make this a failure")


@pytest.fixture
def postgres_url():
    require("PostgreSQL", _reachable(POSTGRES_URL), f"nothing answers at {POSTGRES_URL}")
    return POSTGRES_URL


@pytest.fixture
def redis_url():
    require("Redis", _reachable(REDIS_URL), f"nothing answers at {REDIS_URL}")
    return REDIS_URL


@pytest.fixture(scope="session")
def chromium_path():
    require("Chromium", os.access(CHROMIUM, os.X_OK), f"no executable at {CHROMIUM}")
    return CHROMIUM


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright's sync API holds an event loop in the main
    thread while it runs, which the async tests must not meet."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _rate_limits_out_of_the_way(request):
    """Tests create many tables from one address (127.0.0.1): the per-client rate limits
    (games.ratelimit.RATE_LIMITS) are raised for them and the cache that counts is
    cleared; tests of the limits set them low again (the `settings` fixture)."""
    from django.conf import settings
    from django.core.cache import cache

    saved = getattr(settings, "RATE_LIMITS", None)
    settings.RATE_LIMITS = {
        "unknown_code": (10**9, 60),
        "create_table": (10**9, 600),
    }
    cache.clear()
    yield
    if saved is None:
        del settings.RATE_LIMITS
    else:
        settings.RATE_LIMITS = saved


ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def screenshots():
    """Where browser tests leave their screenshots, to be looked at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _queue_quiet_after_each_test(request):
    """The in-process task queue (companion.queue, a site on SQLite) keeps its worker for
    the whole run: after each test its waiting jobs are cancelled and those running are
    let finish, so that none writes into the next test's database. Set up after the
    test's database, so that this is done before the database is flushed."""
    marker = request.node.get_closest_marker("django_db")
    if marker is not None:
        transaction = marker.kwargs.get("transaction", False)
        request.getfixturevalue("transactional_db" if transaction else "db")
    yield
    from companion import queue

    loop = queue._in_process.get("loop")
    if loop is None or not loop.is_running() or not queue.in_process():
        return
    import asyncio
    import time

    manager = queue.app.job_manager

    async def quiet() -> int:
        for job in await manager.list_jobs_async(status="todo"):
            await manager.cancel_job_by_id_async(job.id, delete_job=True)
        return len(list(await manager.list_jobs_async(status="doing")))

    end = time.monotonic() + 10
    while asyncio.run_coroutine_threadsafe(quiet(), loop).result(5) and time.monotonic() < end:
        time.sleep(0.02)


@pytest.fixture
def in_process(monkeypatch):
    """The hint player (games.thinking.arun) run in this process, each call's arguments
    counted (the pool itself is tested in tests/web/test_hints.py)."""
    from games import thinking

    calls = []

    async def arun(fn, *args, **kwargs):
        calls.append(args)
        return fn(*args, **kwargs)

    monkeypatch.setattr(thinking, "arun", arun)
    return calls
