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
