import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM_ARGS

# Playwright's sync API keeps an event loop in the test thread; the live server
# and the test database are still used synchronously, from that thread only.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# The site's Content-Security-Policy allows no eval, which Playwright's string predicates
# (wait_for_function) need: the tests' own scripts bypass it, the site's do not.
CONTEXT = {"bypass_csp": True}


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    page = context.new_page()
    yield page
    context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    """The real ASGI stack (companion.serve: daphne, Channels, WebSockets) on a throwaway
    SQLite file."""
    yield from serve(tmp_path_factory, "companion.settings")


def serve(tmp_path_factory, settings: str, bot_delay: float = 0.05, db=None):
    """Run the site with `settings` until the generator is closed; yields its address.
    Computer players answer after `bot_delay` seconds, from the server's loop; `db`, the
    SQLite file (a new one by default)."""
    db = db or tmp_path_factory.mktemp("db") / "browser.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": settings,
        "BOT_DELAY": str(bot_delay),
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = _free_port()
    log = db.parent / "server.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.serve", "--port", str(port)],  # as deployed
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        # a file, not a pipe nobody reads: a pipe full of log lines would stop the server
        stderr=log.open("ab"),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        pytest.fail("daphne did not start: " + log.read_text(errors="replace")[-2000:])
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:  # not gone in time: a test's result stands
        server.kill()
        server.wait(5)
