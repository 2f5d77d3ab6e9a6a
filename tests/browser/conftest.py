import os
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM_ARGS

# Playwright's sync API keeps an event loop in the test thread; the live server
# and the test database are still used synchronously, from that thread only.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def screenshots():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
