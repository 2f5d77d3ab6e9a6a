"""Playing online in the browser (issue 19), phones at 360×740 on a real daphne server:
the open tables' page shows a new open table live; a phrase said at a table reaches four
phones in their four languages; a phone that goes offline on its turn (Playwright's
set_offline) is seen gone by the others, a computer player plays for it after the table's
timeout, and when it comes back its seat is its own again and it plays on."""

import sqlite3
import time

import pytest
from django.utils import translation

from tests.browser.conftest import CONTEXT, PHONE, serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    """The site and its SQLite file (the test shortens a table's takeover time there: the
    lobby offers 30 s at least)."""
    db = tmp_path_factory.mktemp("online") / "online.sqlite3"
    for url in serve(tmp_path_factory, "companion.settings", db=db):
        yield url, db


def new_phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    return context, context.new_page()


def in_lang(lang: str, text: str) -> str:
    with translation.override(lang):
        return str(translation.gettext(text))


def test_the_open_tables_page_shows_a_new_open_table_live(browser, site, screenshots):
    url, _db = site
    watcher_context, watcher = new_phone(browser)
    host_context, host = new_phone(browser)
    try:
        watcher.goto(f"{url}/ru/open/")
        watcher.wait_for_function("() => document.querySelector('#open-tables')")
        time.sleep(0.5)  # its socket is open
        assert watcher.locator(".open-table").count() == 0
        host.goto(f"{url}/el/open/")
        host.fill("#play-now-name", "Ελένη")
        host.click("#play-now button[value=triggs]")
        host.wait_for_url("**/t/**")
        code = host.url.split("/t/")[1][:6]
        # no reload: the list is sent again over the page's socket
        watcher.wait_for_selector(f".open-table:has-text('{code}')", timeout=5_000)
        row = watcher.locator(".open-table").first.inner_text()
        assert "Ελληνικά" in row and "3 свободных места из 4" in row
        assert watcher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        watcher.screenshot(path=str(screenshots / "open-tables-ru.png"))
    finally:
        watcher_context.close()
        host_context.close()


def test_a_phrase_reaches_four_phones_in_their_own_languages(browser, site, screenshots):
    url, _db = site
    langs = ("es", "el", "ru", "fr")
    phones = [new_phone(browser) for _ in langs]
    try:
        host = phones[0][1]
        host.goto(f"{url}/es/play/?game=triggs")
        host.check("#create-table input[name=mode][value=companion]")
        host.check("#create-table input[name=players][value='4']")
        host.fill("#host-name", "Ana")
        host.click("#create-table button[type=submit]")
        host.wait_for_url("**/t/**")
        code = host.url.split("/t/")[1][:6]
        for seat, (lang, (_context, page)) in enumerate(zip(langs, phones, strict=True)):
            if seat == 0:
                continue
            page.goto(f"{url}/{lang}/join/{code}/")
            page.check(f"input[name=seat][value='{seat}']")
            page.fill("#player-name", ["", "Βασίλης", "Дмитрий", "Chloé"][seat])
            page.click("form.stack button[type=submit]")
            page.wait_for_url("**/t/**")
        for _context, page in phones:
            page.wait_for_selector("#connection:not(.offline)")
            page.wait_for_function("() => document.getElementById('connection').textContent")
        greek = phones[1][1]
        greek.click("label[for=pane-players]")
        greek.click("details.phrases summary")
        greek.locator("form[ws-send] button[name=phrase][value=good_game]").click()
        for lang, (_context, page) in zip(langs, phones, strict=True):
            text = in_lang(lang, "Have a good game!")
            page.wait_for_selector(f"#table-said:has-text('{text}')", timeout=5_000)
            assert "Βασίλης" in page.locator("#table-said").inner_text()
        phones[2][1].screenshot(path=str(screenshots / "phrase-said-ru.png"))
    finally:
        for context, _page in phones:
            context.close()


def to_act(db, code) -> int:
    from games.registry import get_game

    with sqlite3.connect(db) as connection:
        game, mode, state = connection.execute(
            "SELECT game, mode, state FROM games_table WHERE code = ?", (code,)
        ).fetchone()
    import json

    (seat,) = get_game(game).engine(mode).to_act(json.loads(state))
    return seat


def version(page) -> int:
    return int(page.locator("#table-meta").get_attribute("data-version"))


def play_one(page) -> None:
    """One TriumfDrez move by tapping: pass if the auction allows, else bid, else play the
    first card the hand allows."""
    page.wait_for_function(
        "() => document.querySelector('#bid-form, #play-form button[name=card]')",
        timeout=20_000,
    )
    before = version(page)
    if page.locator("#bid-form button[value=pass]").count():
        page.click("#bid-form button[value=pass]")
    elif page.locator("#bid-form").count():
        page.click("#bid-form button[value=bid]")
    else:
        page.locator("#play-form button[name=card]").first.click()
    page.wait_for_function(
        f"+document.getElementById('table-meta').dataset.version > {before}", timeout=10_000
    )


def test_a_phone_offline_on_its_turn_is_played_for_and_comes_back(browser, site, screenshots):
    url, db = site
    (ana_context, ana), (boris_context, boris) = new_phone(browser), new_phone(browser)
    try:
        ana.goto(f"{url}/es/play/?game=triumfdrez")
        ana.check("#create-table input[name=mode][value=digital]")
        ana.check("#create-table input[name=players][value='2']")
        ana.click(".online-options summary")
        ana.select_option("#id_takeover", "30")
        ana.fill("#host-name", "Ana")
        ana.click("#create-table button[type=submit]")
        ana.wait_for_url("**/t/**")
        code = ana.url.split("/t/")[1][:6]
        boris.goto(f"{url}/fr/join/{code}/")
        boris.fill("#player-name", "Boris")
        boris.click("form.stack button[type=submit]")
        boris.wait_for_url("**/t/**")
        with sqlite3.connect(db) as connection:  # three seconds, for the test's sake
            connection.execute("UPDATE games_table SET takeover = 3 WHERE code = ?", (code,))
        ana.click("#table-live form[action$='start/'] button")
        ana.wait_for_selector("#table-live[data-stage=play]")
        boris.wait_for_selector("#table-live[data-stage=play]")
        seat = to_act(db, code)
        gone, gone_context, stays = (
            (ana, ana_context, boris) if seat == 0 else (boris, boris_context, ana)
        )
        gone_name, stays_lang = ("Ana", "fr") if seat == 0 else ("Boris", "es")
        before = version(stays)

        gone_context.set_offline(True)
        with translation.override(stays_lang):
            word = str(translation.pgettext("presence", "offline"))
            line = str(translation.gettext("Played by the computer for %(name)s")) % {
                "name": gone_name
            }
        stays.wait_for_selector(f".absent:has-text('{gone_name}: {word}')", timeout=15_000)
        stays.wait_for_selector(f".stand-in:has-text('{line}')", timeout=15_000)
        stays.wait_for_function(
            f"+document.getElementById('table-meta').dataset.version > {before}", timeout=10_000
        )
        stays.screenshot(path=str(screenshots / f"takeover-{stays_lang}.png"))

        gone_context.set_offline(False)
        stays.wait_for_selector(".stand-in", state="detached", timeout=20_000)
        gone.wait_for_selector("#connection:not(.offline)", timeout=20_000)
        gone.wait_for_selector(".stand-in", state="detached", timeout=10_000)
        # and it plays on, on its own turn (the other phone plays its own meanwhile)
        mine = (
            "() => document.querySelector('#bid-form, #play-form button[name=card], #hand-result')"
        )
        for _turn in range(6):
            if gone.locator("#hand-result").count():
                break
            if gone.locator("#bid-form, #play-form button[name=card]").count():
                play_one(gone)
                break
            stays.wait_for_function(mine, timeout=15_000)
            if stays.locator("#hand-result").count():
                break
            play_one(stays)
            time.sleep(0.5)
        else:
            raise AssertionError("the phone that came back never had its turn")
        gone.screenshot(path=str(screenshots / "takeover-back.png"))
    finally:
        ana_context.close()
        boris_context.close()
