"""A digital TriumfDrez hand on a phone-sized page (360×740) over a real server: one
person and three computer players, from the auction to the scoring, every move made by
tapping the interface (tests/browser/games.py)."""

import time

import pytest

from tests.browser.conftest import PHONE
from tests.browser.games import create_digital, new_phone, play_triumfdrez_hand

pytestmark = pytest.mark.browser


def test_a_host_who_seats_computer_players_and_deals_is_live_at_once(browser, asgi_server):
    """On the production limits (companion.serve's handshakes per phone): seating three
    computer players and dealing opens five pages, each with its socket, in a few seconds;
    the last page is live at once, not "Reconnecting…" while a bucket refills."""
    context, page = new_phone(browser)
    create_digital(page, asgi_server, "es", "triumfdrez", 4, {1: "", 2: "", 3: ""})
    page.wait_for_selector("#connection[data-live]", timeout=2_500)
    context.close()


def test_a_digital_hand_from_the_auction_to_the_score(browser, asgi_server, screenshots):
    context, page = new_phone(browser)
    create_digital(page, asgi_server, "es", "triumfdrez", 4, {1: "", 2: "", 3: ""})
    # The hand shows every card with its figure symbol, number and colour name.
    cards = page.locator("#my-hand .d-card")
    assert cards.count() == 13
    first = cards.first.inner_text()
    assert any(ch.isdigit() for ch in first) or "Neutra" in first
    page.screenshot(path=str(screenshots / "digital-triumfdrez-start.png"))
    taken = set()

    def shot(name):
        if name not in taken:
            taken.add(name)
            page.screenshot(path=str(screenshots / f"digital-triumfdrez-{name}.png"))

    play_triumfdrez_hand(page, shots=shot)

    # the hand's score is where the player is looking, without scrolling (issue 16)
    time.sleep(0.5)
    tabs = page.locator(".pane-tabs").bounding_box()["y"]
    for part in ("#result-title", "#hand-result p"):  # its title and the points it gave
        box = page.locator(part).first.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= tabs + 0.5, (part, box)
    result = page.locator("#hand-result").inner_text()
    assert "=" in result and page.locator("#hand-result a[href$='#D-SCORE']").count() == 1
    assert page.locator("#last-trick").count() == 1
    assert PHONE["width"] == 360
    page.screenshot(path=str(screenshots / "digital-triumfdrez-score.png"), full_page=True)
    context.close()
