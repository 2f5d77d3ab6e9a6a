"""The table-centre screen (issue 36) in headless Chromium at 1280×720, a TV in landscape:
it follows the table live while the players move on their phones, in large type, and
shows no hidden card. Screenshots: /tmp/centre-*.png (and artifacts/screenshots/)."""

import shutil

import pytest

from tests.browser import games
from tests.browser.conftest import CONTEXT
from tests.browser.test_companion_tables import (
    create_and_join,
    pace,
    tap,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.browser

TV = {"width": 1280, "height": 720}


def open_centre(browser, server, code, lang):
    context = browser.new_context(viewport=TV, device_scale_factor=1, **CONTEXT)
    centre = context.new_page()
    centre.goto(f"{server}/{lang}/t/{code}/centre/")
    centre.wait_for_function(
        "document.getElementById('connection').textContent.length > 0", timeout=10_000
    )
    return centre


def shot(page, screenshots, name):
    path = screenshots / f"centre-{name}.png"
    page.screenshot(path=str(path))
    shutil.copy(path, f"/tmp/centre-{name}.png")


def test_the_centre_screen_follows_a_triggs_table(browser, asgi_server, screenshots):
    ana, (boris, chloe), code = create_and_join(browser, asgi_server, "triggs", players=3)
    tap(ana, "#table-live form[action$='start/'] button", boris, chloe)
    # the table tools link to the centre screen, with its QR code
    tools = ana.locator("#r-tools")
    assert tools.locator(f"a[href$='/t/{code}/centre/']").count() == 1
    assert tools.locator(f"img[src$='/t/{code}/centre/qr.svg']").count() == 1
    centre = open_centre(browser, asgi_server, code, "es")
    assert centre.locator(".centre-sheet").count() == 3
    assert "Turno de" in centre.locator("#r-status").inner_text()
    before = version(centre)
    # the seat to play crosses a box on a phone: the centre screen shows it without reloading
    phones = {"Ana": ana, "Boris": boris, "Chloé": chloe}
    mover = next(p for p in phones.values() if p.locator("button[value=pass]").count())
    row = mover.locator(".play-row:has(button.box.open)").first
    pace(mover)
    row.locator("button.box.open").last.click()
    wait_for_version(mover, before + 1)
    wait_for_version(centre, before + 1)
    last = centre.locator("#centre-last strong").inner_text()
    assert any(name in last for name in phones)
    assert centre.locator(".hand-card").count() == 0
    # large type: the last move is at least 36 px, the page fits the screen's width
    size = centre.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#centre-last strong')).fontSize)"
    )
    assert size >= 36
    assert centre.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    shot(centre, screenshots, "triggs")


def test_the_centre_screen_follows_a_triumfdrez_bid(browser, asgi_server, screenshots):
    players = create_and_join(browser, asgi_server, "triumfdrez", players=4, lang="fr")
    ana, guests, code = players
    phones = [ana, *guests]
    # the lobby names each seat's partner: seat 1 with seat 3, seat 2 with seat 4
    seats = ana.locator(".seat-list").inner_text()
    assert "partenaire de la place 3" in seats and "partenaire de la place 4" in seats
    shot(ana, screenshots, "partners-lobby")
    tap(ana, "#table-live form[action$='start/'] button", *guests)
    ana.click("label[for=pane-players]")
    assert "Ana + Chloé" in ana.locator("#r-sides").inner_text()
    shot(ana, screenshots, "partners-players")
    ana.click("label[for=pane-play]")
    centre = open_centre(browser, asgi_server, code, "fr")
    assert "Ana + Chloé" in centre.locator(".centre-scores").inner_text()
    before = version(centre)
    ana.select_option("#bid-form select[name=tricks]", "7")
    ana.select_option("#bid-form select[name=trump]", "knight")
    ana.select_option("#bid-form select[name=supertrump]", "5")
    tap(ana, "#bid-form button[value=bid]", *guests)
    wait_for_version(centre, before + 1)
    assert "7 plis" in centre.locator("#centre-last").inner_text()
    assert (
        "Place 1 — partenaire de la place 3" not in centre.content()
    )  # the page never shows a form
    for guest in guests:
        assert guest.locator("#r-sides").inner_text().count("+") >= 2
    shot(centre, screenshots, "triumfdrez")
    for page in phones:
        page.context.close()


def test_the_centre_screen_follows_a_digital_triumfdrez_hand(browser, asgi_server, screenshots):
    """One person and three computer players: the centre screen shows the sides' tricks and
    the trick on the table as the hand is played, never a hand."""
    context, page = games.new_phone(browser)
    code = games.create_digital(page, asgi_server, "ru", "triumfdrez", 4, {1: "", 2: "", 3: ""})
    centre = open_centre(browser, asgi_server, code, "ru")
    seen = []

    def look(moves):
        shown = games.version(page)
        centre.wait_for_function(
            f"+document.getElementById('table-meta').dataset.version >= {shown}", timeout=10_000
        )
        assert centre.locator("#my-hand, .hand-card, #play-form").count() == 0
        # the cards the centre shows are the trick on the table, one a seat at most
        assert centre.locator(".centre-trick .d-card[data-card-id]").count() <= 4
        seen.append(centre.locator("#centre-last").inner_text())
        if moves == 6:
            assert "Взятки" in centre.locator(".centre-scores").inner_text()
            shot(centre, screenshots, "triumfdrez-digital")

    games.play_triumfdrez_hand(page, on_move=look)
    assert len(set(seen)) > 3  # the last move changed as the hand went on
    context.close()
