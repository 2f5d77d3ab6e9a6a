"""A digital Triggs game on a phone-sized page (360×740) over a real daphne server: one
person against a computer player, every move made by tapping the interface, to the end."""

import time

import pytest

from tests.browser.conftest import CONTEXT, PHONE

pytestmark = pytest.mark.browser

# People tap a few times a second at most; the phone's rate limit (4 a second, after a
# burst of 10) says so. Every tap waits its turn, both taps of a draw included.
TAP_GAP = 0.3


def pace(last: float) -> float:
    """Wait until TAP_GAP after the tap at `last`; the time of this tap."""
    time.sleep(max(0.0, last + TAP_GAP - time.monotonic()))
    return time.monotonic()


def version(page) -> int:
    return int(page.locator("#table-meta").get_attribute("data-version"))


def wait_for_my_move(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#winner, #hand-form, button.box.extra')", timeout=15_000
    )


def wait_for_version(page, before: int) -> None:
    """Until the page shows a version after `before`; a refusal shown instead fails at once
    with its words."""
    page.wait_for_function(
        f"() => +document.getElementById('table-meta').dataset.version > {before}"
        " || document.querySelector('#table-flash .error')",
        timeout=15_000,
    )
    assert not page.locator("#table-flash .error").count(), page.locator(
        "#table-flash"
    ).inner_text()


def hand(page) -> list[int]:
    return sorted(
        int(v)
        for v in page.locator("#hand [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
    )


def test_a_digital_game_against_a_computer_player_to_the_end(browser, asgi_server, screenshots):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    page = context.new_page()
    page.goto(f"{asgi_server}/fr/play/")
    page.click(".game-tabs a[href='?game=triggs']")
    page.wait_for_url("**?game=triggs")
    page.check("#create-table input[name=mode][value=digital]")
    page.check("#create-table input[name=players][value='2']")
    page.fill("#host-name", "Ana")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/t/**")
    page.select_option("li[data-seat='1'] select[name=level]", "greedy")
    page.screenshot(path=str(screenshots / "digital-triggs-lobby.png"))
    page.click("li[data-seat='1'] .bot-form button")
    page.wait_for_selector("li[data-seat='1'] form[action$='free/']")
    page.click("#table-live form[action$='start/'] button")
    page.wait_for_selector("#table-live[data-stage=play]")

    moves, last, shots = 0, 0.0, set()
    used = {"ticked cross": False, "draw": False}
    while True:
        wait_for_my_move(page)
        if page.locator("#winner").count():
            break
        moves += 1
        assert moves < 150, "the game did not end"
        last = pace(last)
        before = version(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        if "hand" not in shots:
            page.screenshot(path=str(screenshots / "digital-triggs-hand-piles.png"))
            shots.add("hand")
        if page.locator("button.box.extra").count():
            page.locator("button.box.extra").first.click()
        elif page.locator(".proposal-row button").count():
            if not used["ticked cross"]:
                # tick one card of a row that can be crossed: the Cross button offers it
                value = page.locator("li.proposal-row .proposal-value").first.inner_text().strip()
                page.locator(f"#hand label.hand-card[data-card='{value}']").first.click()
                assert page.locator("#cross-button .detail").inner_text() == f"{value} ×1"
                assert page.locator("#cross-button").is_enabled()
                page.locator("#cross-button").click()
                used["ticked cross"] = True
            else:
                if "cross" not in shots:
                    page.locator("#cross-proposals").scroll_into_view_if_needed()
                    page.screenshot(path=str(screenshots / "digital-triggs-cross.png"))
                    shots.add("cross")
                fills = page.locator(".proposal-row button.fills")
                (
                    fills.first if fills.count() else page.locator(".proposal-row button").last
                ).click()
        elif page.locator("#draw-form input[name=kind][value=draw_first]").count():
            # two taps: the first card's pile, which shows what it uncovered, then the
            # second card's pile
            before_hand = hand(page)
            page.locator("#draw-form button.t-pile[data-pile='left']").click()
            page.wait_for_selector("#draw-step")
            if "draw" not in shots:
                page.screenshot(path=str(screenshots / "digital-triggs-draw.png"))
                shots.add("draw")
            last = pace(last)
            page.locator("#draw-form button[name=second][value='stock']").click()
            used["draw"] = True
            wait_for_version(page, before)
            assert len(hand(page)) == len(before_hand) + 2
        elif page.locator("#draw-form button.t-pile").count():
            page.locator("#draw-form button.t-pile").first.click()
        else:
            # ten cards and nothing to cross: tick every card of one value, then Discard
            value = page.locator("#hand label.hand-card").first.get_attribute("data-card")
            cards = page.locator(f"#hand label.hand-card[data-card='{value}']")
            for i in range(cards.count()):
                cards.nth(i).click()
            page.locator("#discard-button").click()
        wait_for_version(page, before)

    assert "42" in page.locator("#winner").inner_text()
    # A deal (128-bit seed, random per run) may end before this phone ever has to draw
    # with no cross to make: the two-tap draw is covered whenever it came up above, and
    # always by tests/web/test_triggs_digital.py::test_a_draw_in_two_taps…
    assert used["ticked cross"]
    assert page.locator("#rematch-form").count() == 1
    page.screenshot(path=str(screenshots / "digital-triggs-win.png"), full_page=True)
    # the log tells the game in words, a cross and its extra crosses on one line
    assert page.locator(".log li").count() >= 5

    # a rematch deals a new game at the same table
    before = version(page)
    page.click("#rematch-form button")
    wait_for_version(page, before)
    wait_for_my_move(page)
    assert not page.locator("#winner").count()
    assert len(hand(page)) >= 1
    context.close()
