"""A digital Triggs game on a phone-sized page (360×740) over a real server: one person
against a computer player, every move made by tapping the interface, to the end
(tests/browser/games.py)."""

import pytest

from tests.browser.games import (
    create_digital,
    new_phone,
    play_triggs,
    triggs_hand,
    version,
    wait_for_triggs_move,
    wait_for_version,
)

pytestmark = pytest.mark.browser


def test_a_digital_game_against_a_computer_player_to_the_end(browser, asgi_server, screenshots):
    context, page = new_phone(browser)
    create_digital(page, asgi_server, "fr", "triggs", 2, {1: "greedy"})
    taken = set()

    def shot(name):
        if name not in taken:
            taken.add(name)
            page.screenshot(path=str(screenshots / f"digital-triggs-{name}.png"))

    used = play_triggs(page, shots=shot)
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
    wait_for_triggs_move(page)
    assert not page.locator("#winner").count()
    assert len(triggs_hand(page)) >= 1
    context.close()
