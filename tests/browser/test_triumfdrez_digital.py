"""A digital TriumfDrez hand on a phone-sized page (360×740) over a real daphne server:
one person and three computer players, from the auction to the scoring, every move made
by tapping the interface."""

import time

import pytest

from tests.browser.conftest import CONTEXT, PHONE

pytestmark = pytest.mark.browser

TAP_GAP = 0.3  # people tap a few times a second at most; the phone's rate limit says so


def my_move_or_score(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#hand-result, #bid-form, #play-form button[name=card]')",
        timeout=20_000,
    )


def test_a_digital_hand_from_the_auction_to_the_score(browser, asgi_server, screenshots):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    page = context.new_page()
    page.goto(f"{asgi_server}/es/play/")
    page.click(".game-tabs a[href='?game=triumfdrez']")
    page.wait_for_url("**?game=triumfdrez")
    page.check("#create-table input[name=mode][value=digital]")
    page.check("#create-table input[name=players][value='4']")
    page.fill("#host-name", "Ana")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/t/**")
    for seat in (1, 2, 3):
        page.click(f"li[data-seat='{seat}'] .bot-form button")
        page.wait_for_selector(f"li[data-seat='{seat}'] form[action$='free/']")
    page.screenshot(path=str(screenshots / "digital-triumfdrez-lobby.png"))
    page.click("#table-live form[action$='start/'] button")
    page.wait_for_selector("#table-live[data-stage=play]")

    # The hand shows every card with its figure symbol, number and colour name.
    cards = page.locator("#my-hand .d-card")
    assert cards.count() == 13
    first = cards.first.inner_text()
    assert any(ch.isdigit() for ch in first) or "Neutra" in first

    moves, shots, last = 0, set(), 0.0
    while True:
        my_move_or_score(page)
        if page.locator("#hand-result").count():
            break
        moves += 1
        assert moves < 40, "the hand did not end"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        time.sleep(max(0.0, last + TAP_GAP - time.monotonic()))
        last = time.monotonic()
        before = int(page.locator("#table-meta").get_attribute("data-version"))
        if page.locator("#bid-form").count():
            if "auction" not in shots:
                page.screenshot(path=str(screenshots / "digital-triumfdrez-auction.png"))
                shots.add("auction")
            if page.locator("#bid-form button[value=pass]").count():
                page.click("#bid-form button[value=pass]")
            else:
                # Opening the auction: a bid below the form's minimum is not offered.
                page.select_option("#bid-form select[name=tricks]", "1")
                assert page.locator("#bid-form button[value=bid]").is_enabled()
                page.click("#bid-form button[value=bid]")
        else:
            unplayable = page.locator("#play-form .unplayable")
            if unplayable.count() and "reason" not in shots:
                unplayable.first.click(force=True)  # a card that may not be played says why
                assert page.locator("#table-flash .error").inner_text()
                page.screenshot(path=str(screenshots / "digital-triumfdrez-play.png"))
                shots.add("reason")
            page.locator("#play-form button[name=card]").first.click()
        page.wait_for_function(
            f"+document.getElementById('table-meta').dataset.version > {before}", timeout=20_000
        )

    # the hand's score is where the player is looking, without scrolling (issue 16)
    time.sleep(0.5)
    tabs = page.locator(".pane-tabs").bounding_box()["y"]
    for part in ("#result-title", "#hand-result p"):  # its title and the points it gave
        box = page.locator(part).first.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= tabs + 0.5, (part, box)
    result = page.locator("#hand-result").inner_text()
    assert "=" in result and page.locator("#hand-result a[href$='#D-SCORE']").count() == 1
    assert page.locator("#last-trick").count() == 1
    page.screenshot(path=str(screenshots / "digital-triumfdrez-score.png"), full_page=True)
    context.close()
