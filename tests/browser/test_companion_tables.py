"""Phones at a real table, in headless Chromium at 360×740: create a table, join
by code, play a companion Triggs game to its end and a TriumfDrez hand, every
phone seeing the others' entries without reloading."""

import time

import pytest

from games.triggs.sheet import ROW_SIZES
from tests.browser.conftest import CONTEXT, PHONE

# People tap a few times a second at most; the phone's rate limit (4 a second after a
# burst of 10) says so, and a faster test would be refused with "slow down".
TAP_GAP = 0.3
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
    return int(page.locator("#table-meta").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function(
        f"document.getElementById('table-meta') && +document.getElementById('table-meta').dataset.version >= {at_least}",
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
        # the boxes are buttons whoever's turn it is; the seat to act can also pass
        mine = ana.locator("button[value=pass]").count() + ana.locator("button.box.extra").count()
        mover = ana if mine else boris
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


def correct(page, others, target: str, row: int, crosses: int) -> None:
    """Propose (or, on one's own sheet, make) a correction from the players pane."""
    page.click("label[for=pane-players]")
    if not page.locator("#correct-sheet[open]").count():
        page.click("#correct-sheet summary")
    page.select_option("#correct-form select[name=target]", label=target)
    page.select_option("#correct-form select[name=value]", str(row))
    page.select_option("#correct-form select[name=crosses]", str(crosses))
    tap(page, "#correct-form button", *others)


def test_companion_triggs_corrections(browser, asgi_server, screenshots):
    """Issue 18: an entry two turns back is corrected once its owner confirms on their own
    phone; a mistaken winning tap is taken back and the game resumes."""
    ana, (boris,), code = create_and_join(browser, asgi_server, "triggs")
    tap(ana, "#table-live form[action$='start/'] button", boris)
    first, second = (ana, boris) if ana.locator("button[value=pass]").count() else (boris, ana)
    first_name = "Ana" if first is ana else "Boris"
    tap(first, "#row-7 button.box.open[value='7:2']", second)  # meant one 7, not two
    tap(second, "#row-5 button.box.open[value='5:1']", first)
    tap(first, "#row-9 button.box.open[value='9:1']", second)
    assert first.locator("#row-7 .box.crossed").count() == 2

    correct(second, [first], first_name, 7, 1)
    assert first.locator("#row-7 .box.crossed").count() == 2  # until its owner says yes
    assert "7" in first.locator("#correction").inner_text()
    assert second.locator("#correction button[value=confirm]").count() == 0
    first.screenshot(path=str(screenshots / "companion-triggs-correction.png"))
    tap(first, "#correction button[value=confirm]", second)
    assert first.locator("#row-7 .box.crossed").count() == 1
    assert not first.locator("#correction").count() and not second.locator("#correction").count()

    # The second player fills their own sheet by corrections, but for one box, and wins
    # with a tap: the wrong row. Taking it back resumes the game.
    second_name = "Boris" if first is ana else "Ana"
    for row, size in enumerate(ROW_SIZES[1:], start=1):
        full = size - 1 if row == 12 else size
        if int(second.locator(f"#row-{row}").locator(".box.crossed").count()) != full:
            correct(second, [first], second_name, row, full)
    second.click("label[for=pane-play]")
    wait_for_version(first, version(second))
    if not second.locator("button[value=pass]").count():  # the first player's turn
        tap(first, "button[value=pass]", second)
    tap(second, "#row-12 button.box.open", first)
    assert second_name in first.locator(".winner").inner_text()
    correct(second, [first], second_name, 12, ROW_SIZES[12] - 1)
    assert not first.locator(".winner").count()
    assert first.locator("button[value=pass]").count()  # the game goes on: the next seat
    second.screenshot(path=str(screenshots / "companion-triggs-win-taken-back.png"))


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
    link = boris.locator("#table-flash a")  # the rule, by its name in French
    assert link.get_attribute("href").endswith("#D-AUCTION")
    assert "Choix de l’atout" in link.inner_text()
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

    # Issue 18: a wrong contract entered directly (no auction) is taken back and corrected.
    ana.click("#table-live details.panel summary")
    contract = "#table-live details.panel form"
    ana.select_option(f"{contract} select[name=declarer]", label="Boris")
    ana.select_option(f"{contract} select[name=tricks]", "11")
    tap(ana, f"{contract} button", boris)
    assert "11 plis" in boris.locator("#contract-panel").inner_text()
    tap(boris, "button[value=undo_bid]", ana)  # "Reprendre le contrat", on any phone
    assert ana.locator("#bid-form").count() and not ana.locator("#contract-panel").count()
    ana.click("#table-live details.panel summary")
    ana.select_option(f"{contract} select[name=declarer]", label="Boris")
    ana.select_option(f"{contract} select[name=tricks]", "8")
    tap(ana, f"{contract} button", boris)
    assert "8 plis" in boris.locator("#contract-panel").inner_text()
