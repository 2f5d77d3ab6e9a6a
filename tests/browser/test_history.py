"""Players who come back, in the browser (issue 20), a phone at 360×740: My games, the
group's league, a replay stepped with the arrow keys and a swipe, and the result page's
chart in every language, readable without sideways scrolling. Screenshots are saved."""

import json
import os
import subprocess
import sys

import pytest
from django.utils import translation

from tests.browser.conftest import CONTEXT, PHONE, ROOT, serve

pytestmark = pytest.mark.browser
LANGS = ("es", "el", "ru", "fr")


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    db = tmp_path_factory.mktemp("history") / "history.sqlite3"
    for url in serve(tmp_path_factory, "companion.settings", db=db):
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "1",
               "DJANGO_SETTINGS_MODULE": "companion.settings"}  # fmt: skip
        env.pop("REDIS_URL", None)
        made = subprocess.run(
            [sys.executable, "-c", "from tests.browser.history_setup import main; main()"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        yield url, json.loads(made.stdout.strip().splitlines()[-1])


@pytest.fixture
def ana(browser, site):
    url, made = site
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    context.add_cookies([{"name": "player", "value": made["cookie"], "url": url}])
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield page, url, made, errors
    context.close()


def in_lang(lang, context, text):
    with translation.override(lang):
        return str(translation.pgettext(context, text))


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", LANGS)
def test_the_charts_and_my_pages_read_at_360_px_in_every_language(ana, lang, screenshots):
    page, url, made, errors = ana
    titles = {"triggs": "Crosses per player", "triumfdrez": "Score per side"}
    for game, code in made["codes"].items():
        page.goto(f"{url}/{lang}/r/{code}/")
        chart = page.locator("svg.chart")
        assert chart.is_visible()
        box = chart.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        words = chart.evaluate("svg => svg.textContent")
        assert in_lang(lang, "chart", titles[game]) in words, (lang, game)
        assert no_sideways_scroll(page), (lang, game)
        page.screenshot(path=str(screenshots / f"result-{game}-{lang}.png"))
    for name, path in (("my-games", "/me/"), ("group", f"/g/{made['group']}/")):
        page.goto(f"{url}/{lang}{path}")
        assert no_sideways_scroll(page), (lang, name)
        if name == "my-games":  # her statistics: one list per game (both digital)
            assert page.locator(".stats-list").count() == 2
            assert page.locator(".stats-list dd").first.inner_text() == "1"
        page.screenshot(path=str(screenshots / f"{name}-{lang}.png"), full_page=True)
    assert "Jueves" in page.content() and page.locator(".league li").count() >= 2
    assert errors == []


def test_a_replay_steps_with_the_arrow_keys_and_a_swipe(ana, screenshots):
    page, url, made, errors = ana
    code = made["codes"]["triumfdrez"]
    page.goto(f"{url}/es/t/{code}/replay/?step=1")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**step=2**")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**step=3**")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**step=2**")
    # a swipe to the left is the next move
    page.evaluate(
        """() => {
          const touch = (x) => new Touch({identifier: 1, target: document.body, clientX: x, clientY: 300});
          document.dispatchEvent(new TouchEvent("touchstart", {touches: [touch(300)], changedTouches: [touch(300)]}));
          document.dispatchEvent(new TouchEvent("touchend", {touches: [], changedTouches: [touch(100)]}));
        }"""
    )
    page.wait_for_url("**step=3**")
    # after the end, every seat's view can be chosen
    page.select_option("#replay-seat", "2")
    page.wait_for_url("**seat=2**")
    assert page.locator("#replay-board [data-card]").count() > 0
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screenshots / "replay-triumfdrez-es.png"))
    assert errors == []
