"""Phones at a real table, in headless Chromium at 360×740: create a table, join
by code, play a companion Triggs game to its end and a TriumfDrez hand, every
phone seeing the others' entries without reloading."""

import time

import pytest

from tests.browser.conftest import CONTEXT, PHONE

# People tap a few times a second at most; the phone's rate limit (4 a second after a
# burst of 10) says so, and a faster test would be refused with "slow down".
TAP_GAP = 0.27
_last_tap = {}


def pace(page) -> None:
    wait = _last_tap.get(id(page), 0.0) + TAP_GAP - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    _last_tap[id(page)] = time.monotonic()


pytestmark = pytest.mark.browser


def new_phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
    )
    return context.new_page()


def version(page) -> int:
    return int(page.locator("#table-live").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function(
        f"document.getElementById('table-live') && +document.getElementById('table-live').dataset.version >= {at_least}",
        timeout=10_000,
    )


def tap(page, selector: str, *others) -> None:
    """Tap a control and wait until this phone (and the others) show the next version."""
    pace(page)
    before = version(page)
    page.locator(selector).first.click()
    for p in (page, *others):
        wait_for_version(p, before + 1)


def create_and_join(browser, server, game, players=2, lang="es"):
    host = new_phone(browser)
    host.goto(f"{server}/{lang}/play/")
    host.click(f".game-tabs a[href='?game={game}']")
    host.wait_for_url(f"**?game={game}")
    host.check(f"#create-table input[name=players][value='{players}']")
    host.fill("#host-name", "Ana")
    host.click("#create-table button[type=submit]")
    host.wait_for_url("**/t/**")
    code = host.locator("h1 .table-code").inner_text().strip()
    guests = []
    for index, name in enumerate(["Boris", "Chloé", "Dmitri"][: players - 1], start=1):
        guest = new_phone(browser)
        guest.goto(f"{server}/{lang}/play/")
        guest.fill("#join-code", code.lower())  # codes are forgiving about case
        guest.click("#join-code ~ button")
        guest.wait_for_url(f"**/join/{code}/")
        guest.check(f"#join-seat input[name=seat][value='{index}']")
        guest.fill("#player-name", name)
        guest.click("#join-seat button[type=submit]")
        guest.wait_for_url("**/t/**")
        guests.append(guest)
        # The host's lobby shows the new player without reloading.
        host.wait_for_function(
            f"document.querySelector('.seat-list').innerText.includes({name!r})", timeout=10_000
        )
    return host, guests, code


def test_companion_triggs_game_to_the_end(browser, asgi_server, screenshots):
    ana, (boris,), code = create_and_join(browser, asgi_server, "triggs")
    ana.screenshot(path=str(screenshots / "companion-triggs-lobby.png"), full_page=True)
    tap(ana, "#table-live form[action$='start/'] button", boris)
    phones = {"Ana": ana, "Boris": boris}

    turns = 0
    while not ana.locator(".winner").count():
        turns += 1
        assert turns < 200, "the game did not end"
        if turns == 8:
            ana.screenshot(path=str(screenshots / "companion-triggs-ana.png"), full_page=True)
            boris.screenshot(path=str(screenshots / "companion-triggs-boris.png"), full_page=True)
        mover = ana if ana.locator("button.box.open").count() else boris
        other = boris if mover is ana else ana
        if mover is boris and boris.locator("button.box.extra").count() == 0:
            # Boris only ever says he drew or discarded; Ana races to 42.
            tap(boris, "button[value=pass]", ana)
            continue
        extra = mover.locator("button.box.extra")
        if extra.count():
            tap(mover, "button.box.extra", other)
        else:
            # Tap the last open box of the first row that is not full: it fills the row.
            row = mover.locator(".play-row:has(button.box.open)").first
            pace(mover)
            before = version(mover)
            row.locator("button.box.open").last.click()
            wait_for_version(mover, before + 1)
            wait_for_version(other, before + 1)

    for name, page in phones.items():
        assert "Ana" in page.locator(".winner").inner_text(), name
        assert "42" in page.locator(".winner").inner_text()
    assert "42/42" in boris.locator(".others").inner_text()
    ana.screenshot(path=str(screenshots / "companion-triggs-winner.png"), full_page=True)

    # A reloaded phone is back in its own seat.
    boris.reload()
    assert boris.locator("#score-sheet").count() == 1
    assert "Ana" in boris.locator(".others").inner_text()


def test_companion_triumfdrez_hand(browser, asgi_server, screenshots):
    ana, (boris,), _code = create_and_join(browser, asgi_server, "triumfdrez", lang="fr")
    tap(ana, "#table-live form[action$='start/'] button", boris)

    first_bidder = ana.locator(".status-line strong").inner_text()
    assert "Ana" in first_bidder or "Boris" in first_bidder
    # The first bid is entered on Ana's phone: 7 tricks, knight, blue (5).
    ana.select_option("#bid-form select[name=tricks]", "7")
    ana.select_option("#bid-form select[name=trump]", "knight")
    ana.select_option("#bid-form select[name=supertrump]", "5")
    tap(ana, "#bid-form button[value=bid]", boris)
    assert "7 plis" in boris.locator("#auction-panel").inner_text()
    # A lower bid is refused with the reason, in French.
    boris.select_option("#bid-form select[name=tricks]", "6")
    pace(boris)
    boris.click("#bid-form button[value=bid]")
    boris.wait_for_selector("#table-flash .error", timeout=10_000)
    assert "ne bat pas" in boris.locator("#table-flash").inner_text()
    assert "D-AUCTION" in boris.locator("#table-flash a").inner_text()
    boris.screenshot(path=str(screenshots / "companion-triumfdrez-refused.png"), full_page=True)
    # The other player passes: the contract stands.
    tap(boris, "#bid-form button[value=pass]", ana)
    assert "7 plis" in ana.locator("#contract-panel").inner_text()
    # The declaring side took 9 tricks: 7 + 2 × 2 = 11 points.
    tap(ana, "#contract-panel button[value='9']", boris)
    for page in (ana, boris):
        assert "11" in page.locator("#scores").inner_text()
        assert page.locator(".history tbody tr").count() == 1
    ana.screenshot(path=str(screenshots / "companion-triumfdrez-scores.png"), full_page=True)
