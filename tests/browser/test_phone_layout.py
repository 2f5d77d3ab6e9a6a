"""At phone size (360×740) every page fits without horizontal scrolling, the
language switch works with one tap, and the skip link shows on focus."""

import pytest
from django.conf import settings

from games.registry import GAMES

pytestmark = pytest.mark.browser
LANGS = [code for code, _ in settings.LANGUAGES]


def pages(lang):
    yield "home", f"/{lang}/"
    for slug in GAMES:
        yield f"{slug}-rules", f"/{lang}/rules/{slug}/"
        yield f"{slug}-clarifications", f"/{lang}/rules/{slug}/clarifications/"


@pytest.mark.parametrize("lang", LANGS)
def test_pages_fit_a_360px_phone(live_server, phone, screenshots, lang):
    for name, path in pages(lang):
        phone.goto(live_server.url + path)
        assert phone.locator("html").get_attribute("lang") == lang
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} is {width}px wide"
        phone.screenshot(path=str(screenshots / f"{lang}-{name}.png"), full_page=name == "home")


def test_language_switch_is_one_tap_and_keeps_the_page(live_server, phone):
    phone.goto(live_server.url + "/es/rules/triggs/")
    phone.get_by_role("button", name="Ελληνικά").click()
    phone.wait_for_url("**/el/rules/triggs/")
    assert phone.locator("html").get_attribute("lang") == "el"
    # Remembered: the bare address now opens in Greek.
    phone.goto(live_server.url + "/")
    assert phone.url.endswith("/el/")


def test_skip_link_appears_on_keyboard_focus(live_server, phone):
    phone.goto(live_server.url + "/fr/")
    phone.keyboard.press("Tab")
    skip = phone.locator(".skip-link")
    assert skip.evaluate("el => el === document.activeElement")
    box = skip.bounding_box()
    assert box and box["y"] >= 0
