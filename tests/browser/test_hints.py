"""Hints on two phones (360×740) over a real daphne server (games.hints): Ana and Boris at
a digital Triggs table made in the lobby, hints allowed (the lobby's default); the player
whose turn it is taps "What would the computer play?" and sees the hard level's choice in
words, marked where it shows (a dashed outline and a 💡, never colour alone), while the
other player's page shows nothing of it."""

import pytest

from tests.browser.games import join_seat, new_phone

pytestmark = pytest.mark.browser

HINT_LINE = "El ordenador jugaría esto:"


def seated_pair(browser, server):
    """Ana (the host) and Boris at a digital Triggs table for two, dealt; both live."""
    ana_context, ana = new_phone(browser)
    ana.goto(f"{server}/es/play/?game=triggs")
    ana.check("#create-table input[name=mode][value=digital]")
    ana.check("#create-table input[name=players][value='2']")
    assert ana.locator("#create-table input[name=hints]").is_checked()  # allowed by default
    ana.fill("#host-name", "Ana")
    ana.click("#create-table button[type=submit]")
    ana.wait_for_url("**/t/**")
    code = ana.url.split("/t/")[1][:6]
    boris_context, boris = new_phone(browser)
    join_seat(boris, server, "es", code, 1, "Boris")
    for page in (ana, boris):
        page.wait_for_selector("#connection[data-live]")
    ana.wait_for_function("document.querySelector('.seat-list').innerText.includes('Boris')")
    ana.click("#table-live form[action$='start/'] button")
    for page in (ana, boris):
        page.wait_for_selector("#table-live[data-stage=play]")
    return (ana_context, ana), (boris_context, boris)


def test_a_hint_is_highlighted_on_the_asking_phone_only(browser, asgi_server, screenshots):
    (ana_context, ana), (boris_context, boris) = seated_pair(browser, asgi_server)
    # the one whose turn it is has the button; the other has none
    ana.wait_for_function("!!document.querySelector('#hint-button, .ring-seat.their-turn')")
    ana.wait_for_timeout(300)
    asking, other = (ana, boris) if ana.locator("#hint-button").count() else (boris, ana)
    assert asking.locator("#hint-button").count() == 1
    assert other.locator("#hint-button").count() == 0

    asking.click("#hint-button")
    line = asking.locator("#hint-line")
    line.filter(has_text=HINT_LINE).wait_for(timeout=30_000)  # the pool's first start
    words = line.inner_text()
    assert "💡" in words and HINT_LINE in words
    if "Robar:" in words or "Descartar" in words:  # a pile or cards marked on the screen
        marked = asking.locator("#table-live .hinted")
        assert marked.count() >= 1 and marked.first.is_visible()
        assert "El ordenador jugaría esto" in marked.first.inner_html()
        outline = marked.first.evaluate("el => getComputedStyle(el).outlineStyle")
        assert outline == "dashed"
    assert asking.locator("#hint-button").count() == 0  # given: asked once per move
    asking.screenshot(path=str(screenshots / "hint-asking-phone.png"))
    marked = asking.locator("#table-live .hinted")
    if marked.count():  # what it names, in view
        marked.first.scroll_into_view_if_needed()
        asking.screenshot(path=str(screenshots / "hint-marked.png"))

    # the other phone: nothing of it, after a moment for any message to arrive
    other.wait_for_timeout(1000)
    html = other.locator("#table-live").inner_html()
    assert other.locator("#hint-line").count() == 0 and other.locator(".hinted").count() == 0
    assert "jugaría" not in html and "pensando" not in html
    other.screenshot(path=str(screenshots / "hint-other-phone.png"))
    ana_context.close()
    boris_context.close()
