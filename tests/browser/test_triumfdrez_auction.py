"""The bid to beat on a phone's game tab (issue 39), at 360×740 over a real daphne server: at
a companion TriumfDrez table of four, after «7 ♞» and two passes, the fourth bidder's game
tab says who bid what, the auction's last entries keep their numbers, and the bid form
offers a bid that beats it, which is taken as it stands."""

import pytest

from tests.browser.conftest import serve
from tests.browser.test_phone_screen import create, join, new_phone, on_screen, start, version

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    """The site with its per-address limits raised: every phone here is on one address."""
    yield from serve(tmp_path_factory, "tests.services.settings")


def bid(page, tricks: str, trump: str, supertrump: str) -> None:
    before = version(page)
    chosen = {"tricks": tricks, "trump": trump, "supertrump": supertrump}
    for _ in range(5):  # a choice made on a field a live update was replacing: again
        for name, value in chosen.items():
            page.select_option(f"#bid-form select[name={name}]", value)
        shown = {n: page.input_value(f"#bid-form select[name={n}]") for n in chosen}
        if shown == chosen:
            break
    assert shown == chosen, shown
    page.click("#bid-form button[value=bid]")
    page.wait_for_function(f"+document.getElementById('table-meta').dataset.version > {before}")


def pass_(page) -> None:
    before = version(page)
    page.click("#bid-form button[value=pass]")
    page.wait_for_function(f"+document.getElementById('table-meta').dataset.version > {before}")
    page.wait_for_timeout(300)  # the phone's rate limit: a person taps a few times a second


def test_the_fourth_bidder_sees_the_bid_to_beat_on_the_game_tab(browser, asgi_server, screenshots):
    ana = new_phone(browser)
    code = create(ana, asgi_server, "es", "triumfdrez", "companion", 4, first=3)
    join(browser, asgi_server, "es", code, 1, "Bo")
    join(browser, asgi_server, "es", code, 2, "Cy")
    di = join(browser, asgi_server, "es", code, 3, "Di")
    start(ana)
    bid(ana, "7", "knight", "5")  # Ana opens: 7 ♞ 5; Bo and Cy pass (entered on Ana's phone)
    ana.wait_for_timeout(300)
    pass_(ana)
    pass_(ana)
    di.reload()
    di.wait_for_selector("#connection:not(.offline)")
    di.screenshot(path=str(screenshots / "triumfdrez-auction-to-beat-es.png"))
    # in words, on the first screen: who made the bid to beat, and the bid
    to_beat = " ".join(di.locator("#to-beat").inner_text().split())
    assert to_beat == "Propuesta a superar: Ana — 7 bazas · ♞\ufe0e Caballo · 5 azul"
    assert on_screen(di, "#to-beat") and on_screen(di, "#bid-form button[value=bid]")
    # the last two entries shown, numbered by their places in the auction
    shown = di.eval_on_selector_all(
        "#table-live .auction li",
        "items => items.filter(i => i.offsetParent !== null).map(i => [i.value, i.innerText])",
    )
    assert shown == [[2, "Bo: paso"], [3, "Cy: paso"]]
    # the form offers the lowest bid that beats 7 ♞ 5: 7 ♞ without super-trump
    fields = [
        di.locator(f"#bid-form select[name={name}]").input_value()
        for name in ("tricks", "trump", "supertrump")
    ]
    assert fields == ["7", "knight", ""] and not di.locator("#bid-form [name=open]").is_checked()
    before = version(di)
    di.click("#bid-form button[value=bid]")  # taken as it stands
    di.wait_for_function(f"+document.getElementById('table-meta').dataset.version > {before}")
    assert di.locator("#table-flash .error").count() == 0
    to_beat = " ".join(di.locator("#to-beat").inner_text().split())
    assert to_beat == "Propuesta a superar: Di — 7 bazas · ♞\ufe0e Caballo · sin supertriunfo"
    assert di.evaluate("document.documentElement.scrollWidth") <= 360
