"""Issue 36, at a real table nothing blocks: a phone goes offline on its turn, the host
enters that turn on their own phone (the "Act for" choice) and the turn marker moves on."""

import pytest

from tests.browser.test_companion_tables import (
    create_and_join,
    new_phone,
    tap,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.browser


def test_the_host_enters_the_turn_of_a_phone_gone_offline(browser, asgi_server, screenshots):
    ana, (boris,), code = create_and_join(browser, asgi_server, "triggs")
    tap(ana, "#table-live form[action$='start/'] button", boris)
    if ana.locator("button[value=pass]").count():  # Ana's turn first: Boris's is next
        tap(ana, "button[value=pass]", boris)
    assert boris.locator("button[value=pass]").count() == 1
    assert ana.locator("button[value=pass]").count() == 0
    at = version(ana)

    # Boris's phone dies: its socket closes, and Ana's phone sees him offline
    boris.context.close()
    ana.click("label[for=pane-players]")
    ana.wait_for_function(
        "document.querySelector('.presence') && "
        "document.querySelector('.presence').innerText.includes('sin conexión')",
        timeout=10_000,
    )
    ana.click("label[for=pane-play]")

    # the host acts for Boris: the panel becomes his, clearly labelled
    ana.click("details.act-for summary")
    ana.select_option("#act-for-seat", label="Boris")
    ana.click("#act-for-form button")
    ana.wait_for_url("**for=1**")
    assert "Estás introduciendo jugadas por Boris" in ana.locator("#act-for-form").inner_text()
    ana.screenshot(path=str(screenshots / "act-for-boris.png"), full_page=True)
    tap(ana, "button[value=pass]")
    assert version(ana) == at + 1

    # the marker moved on: back on her own seat, it is Ana's turn again
    ana.select_option("#act-for-seat", value="")
    ana.click("#act-for-form button")
    ana.wait_for_selector(".acting-for", state="detached", timeout=10_000)
    ana.wait_for_selector("button[value=pass]", timeout=10_000)
    ana.click("label[for=pane-log]")
    log = ana.locator(".log").inner_text()
    assert "Boris (jugada introducida por Ana) robó o descartó." in log

    # anyone watching the table reads the same log
    watcher = new_phone(browser)
    watcher.goto(f"{asgi_server}/es/t/{code}/")
    wait_for_version(watcher, at + 1)
    watcher.click("label[for=pane-log]")
    assert "Boris (jugada introducida por Ana)" in watcher.locator(".log").inner_text()
    watcher.context.close()


def test_any_player_enters_for_a_phone_gone_when_the_host_allows_it(browser, asgi_server):
    ana, (boris,), code = create_and_join(browser, asgi_server, "triggs")
    # the host lets any player act for an absent seat, from the table tools
    ana.click("label[for=pane-table]")
    ana.click("details.tools summary")
    ana.click("button[formaction$='act-for/']")
    ana.wait_for_selector(
        "text=Cualquier jugador sentado puede introducir jugadas", state="attached", timeout=10_000
    )
    ana.click("label[for=pane-play]")
    tap(ana, "#table-live form[action$='start/'] button", boris)
    if boris.locator("button[value=pass]").count():  # Boris's turn first: Ana's is next
        tap(boris, "button[value=pass]", ana)
    assert ana.locator("button[value=pass]").count() == 1
    assert boris.locator("#act-for-seat").count() == 0  # Ana is here
    at = version(boris)

    ana.context.close()  # the host's phone dies on her turn
    boris.wait_for_selector("#act-for-seat", state="attached", timeout=10_000)
    boris.click("details.act-for summary")
    boris.select_option("#act-for-seat", label="Ana")
    boris.click("#act-for-form button")
    boris.wait_for_selector(".acting-for", timeout=10_000)
    assert "Estás introduciendo jugadas por Ana" in boris.locator(".acting-for").inner_text()
    assert "Turno de Ana." in boris.locator("#turn-status").inner_text()
    tap(boris, "button[value=pass]")
    assert version(boris) == at + 1
    boris.select_option("#act-for-seat", value="")
    boris.click("#act-for-form button")
    boris.wait_for_selector(".acting-for", state="detached", timeout=10_000)
    boris.wait_for_selector("button[value=pass]", timeout=10_000)  # his turn now
    boris.click("label[for=pane-log]")
    assert (
        "Ana (jugada introducida por Boris) robó o descartó." in boris.locator(".log").inner_text()
    )
