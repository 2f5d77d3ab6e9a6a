"""Game pages follow the system's dark mode (issue 39), at 360×740 over a real daphne
server: a table of each game in both modes, its replay, its rules page and its
table-centre screen are dark where the system is and light where it is not, drawn with
site.css's variables; axe-core finds no contrast (nor other serious) violation in either,
and the text checked here by hand (the page's, a card's) keeps 4.5:1. Cards keep light
faces in both modes, each with its symbol, number and colour's name."""

import pytest

from tests.browser.conftest import serve
from tests.browser.games import new_phone
from tests.browser.test_accessibility import serious
from tests.browser.test_phone_screen import create, join, start

pytestmark = pytest.mark.browser

PAPER = {"dark": "rgb(23, 23, 26)", "light": "rgb(251, 250, 247)"}
CARD_FACE = {"dark": "rgb(233, 230, 222)", "light": "rgb(255, 255, 255)"}


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    yield from serve(tmp_path_factory, "tests.services.settings", bot_delay=0.3)


# The contrast of an element's text on the first opaque background behind it (WCAG 2).
CONTRAST = """element => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let back = element, bg = null;
  while (back) {
    const c = rgb(getComputedStyle(back).backgroundColor);
    if (c.length < 4 || c[3] === 1) { bg = c; break; }
    back = back.parentElement;
  }
  bg = bg || [255, 255, 255];
  const [a, b] = [lum(rgb(getComputedStyle(element).color)), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def contrast(page, selector: str) -> float:
    return page.locator(selector).first.evaluate(CONTRAST)


def look(page, scheme: str, where: str, found: dict, screenshots) -> None:
    """The page is drawn in `scheme`: its background, its text's contrast, axe-core's
    findings (kept in `found`), and a screenshot."""
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == PAPER[scheme], (where, background)
    assert contrast(page, "main") >= 4.5, where
    found[where] = serious(page)
    page.screenshot(path=str(screenshots / f"scheme-{scheme}-{where}.png"))


def centre_and_rules(context, page, server, scheme, game, code, found, screenshots):
    """The table-centre screen of table `code` on a TV, and `game`'s rules page."""
    tv = context.new_page()
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.goto(f"{server}/es/t/{code}/centre/")
    look(tv, scheme, f"{game}-centre", found, screenshots)
    page.goto(f"{server}/es/rules/{game}/")
    look(page, scheme, f"{game}-rules", found, screenshots)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_triggs_pages_follow_the_system_s_colour_scheme(browser, asgi_server, scheme, screenshots):
    context, page = new_phone(browser, color_scheme=scheme)
    found = {}
    try:
        # digital: the player's turn, the hand of cards and the piles
        create(page, asgi_server, "es", "triggs", "digital", 2, bots=(1,))
        start(page)
        page.wait_for_selector("#hand-form", timeout=15_000)
        page.wait_for_selector("#connection:not(.offline)")
        look(page, scheme, "triggs-digital", found, screenshots)
        card = page.locator("#hand .hand-card").first
        assert card.evaluate("c => getComputedStyle(c).backgroundColor") == CARD_FACE[scheme]
        assert contrast(page, "#hand .hand-card") >= 4.5
        assert contrast(page, ".play-row .row-label") >= 4.5
        for pane in ("players", "log"):
            page.click(f"label[for=pane-{pane}]")
            found[f"triggs-digital-{pane}"] = serious(page)
        page.goto(page.url.split("?")[0].rstrip("/") + "/replay/")
        look(page, scheme, "triggs-replay", found, screenshots)

        # companion: the sheet to tap
        context2, host = new_phone(browser, color_scheme=scheme)
        code = create(host, asgi_server, "es", "triggs", "companion", 2, first=0)
        join(browser, asgi_server, "es", code, 1, "Boris")
        start(host)
        host.wait_for_selector("#connection:not(.offline)")
        look(host, scheme, "triggs-companion", found, screenshots)
        assert contrast(host, ".play-row button.box") >= 4.5
        # the table-centre screen on a TV; the rules, with the book's examples
        centre_and_rules(context2, page, asgi_server, scheme, "triggs", code, found, screenshots)
        assert contrast(page, ".t-card") >= 4.5
        context2.close()
    finally:
        context.close()
    assert {where: v for where, v in found.items() if v} == {}


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_triumfdrez_pages_follow_the_system_s_colour_scheme(
    browser, asgi_server, scheme, screenshots
):
    context, page = new_phone(browser, color_scheme=scheme)
    found = {}
    try:
        # digital: the auction, a hand of 13 cards
        create(page, asgi_server, "es", "triumfdrez", "digital", 2, bots=(1,))
        start(page)
        page.wait_for_selector("#bid-form, #play-form", timeout=15_000)
        page.wait_for_selector("#connection:not(.offline)")
        look(page, scheme, "triumfdrez-digital", found, screenshots)
        card = page.locator("#my-hand .d-card").first
        assert card.evaluate("c => getComputedStyle(c).backgroundColor") == CARD_FACE[scheme]
        assert contrast(page, "#my-hand .d-card > small") >= 4.5  # the colour's name
        assert contrast(page, "#my-hand .d-card > i") >= 4.5  # the number
        page.goto(page.url.split("?")[0].rstrip("/") + "/replay/")
        look(page, scheme, "triumfdrez-replay", found, screenshots)

        # companion, four phones: the bid to beat, the auction and the form
        context2, host = new_phone(browser, color_scheme=scheme)
        code = create(host, asgi_server, "es", "triumfdrez", "companion", 4, first=3)
        for seat, name in ((1, "Bo"), (2, "Cy"), (3, "Di")):
            join(browser, asgi_server, "es", code, seat, name)
        start(host)
        host.wait_for_selector("#connection:not(.offline)")
        host.select_option("#bid-form select[name=tricks]", "7")
        host.select_option("#bid-form select[name=trump]", "knight")
        host.select_option("#bid-form select[name=supertrump]", "5")
        host.click("#bid-form button[value=bid]")
        host.wait_for_selector("#to-beat")
        look(host, scheme, "triumfdrez-companion", found, screenshots)
        assert contrast(host, "#to-beat") >= 4.5
        centre_and_rules(
            context2, page, asgi_server, scheme, "triumfdrez", code, found, screenshots
        )
        assert contrast(page, ".deck-table .d-card > i") >= 4.5
        context2.close()
    finally:
        context.close()
    assert {where: v for where, v in found.items() if v} == {}
