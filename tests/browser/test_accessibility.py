"""axe-core (the accessibility engine, bundled with axe-playwright-python: nothing is
downloaded) finds no serious or critical violation on the pages players use, in each
language (issue 18): every control has an accessible name, the declaring side's ★ has
words, contrast is enough, the language is declared."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import serve
from tests.browser.test_phone_screen import create, join, new_phone, start

pytestmark = pytest.mark.browser

LANGS = ("es", "el", "ru", "fr")
AXE = Axe()


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    yield from serve(tmp_path_factory, "tests.services.settings", bot_delay=0.3)


def serious(page) -> list[str]:
    """The serious and critical violations on the page as it is now, with where."""
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_site_s_pages_have_no_serious_accessibility_violation(browser, asgi_server, lang):
    page = new_phone(browser)
    found = {}
    for path in ("", "play/?game=triggs", "play/?game=triumfdrez", "rules/triggs/"):
        page.goto(f"{asgi_server}/{lang}/{path}")
        found[path or "home"] = serious(page)

    # digital Triggs, the player's turn
    create(page, asgi_server, lang, "triggs", "digital", 2, bots=(1,))
    start(page)
    page.wait_for_selector("#hand-form", timeout=15_000)
    found["triggs digital"] = serious(page)
    for pane in ("players", "log", "table"):  # the other panes, one tap away
        page.click(f"label[for=pane-{pane}]")
        found[f"triggs digital, {pane}"] = serious(page)

    # digital TriumfDrez, the auction
    page = new_phone(browser)
    create(page, asgi_server, lang, "triumfdrez", "digital", 2, bots=(1,))
    start(page)
    page.wait_for_selector("#bid-form, #play-form", timeout=15_000)
    found["triumfdrez digital"] = serious(page)

    # TriumfDrez companion, a contract entered: the declaring side is marked
    page = new_phone(browser)
    code = create(page, asgi_server, lang, "triumfdrez", "companion", 2)
    join(browser, asgi_server, lang, code, 1, "Boris")
    start(page)
    found["triumfdrez companion"] = serious(page)

    # its table-centre screen, on a TV (issue 36)
    tv = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True).new_page()
    tv.goto(f"{asgi_server}/{lang}/t/{code}/centre/")
    found["triumfdrez companion, centre screen"] = serious(tv)
    assert {where: v for where, v in found.items() if v} == {}
