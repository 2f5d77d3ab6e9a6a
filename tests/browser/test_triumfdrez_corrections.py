"""Issue 36 at a real table, in headless Chromium at 360×740: four phones, four
TriumfDrez hands; hand 2 is corrected on Boris's phone and confirmed on Ana's (the other
side), and every phone shows the scores worked out again without reloading."""

import pytest

from tests.browser.test_companion_tables import create_and_join, tap

pytestmark = pytest.mark.browser


def enter_hand(page, others, declarer: str, won: int) -> None:
    """The final contract (7 tricks, no trump, no super-trump), then the tricks won."""
    page.click("label[for=pane-play]")
    page.click("#table-live details.panel summary")
    contract = "#table-live details.panel form"
    page.select_option(f"{contract} select[name=declarer]", label=declarer)
    page.select_option(f"{contract} select[name=tricks]", "7")
    tap(page, f"{contract} button", *others)
    tap(page, f"#contract-panel button[value='{won}']", *others)


def scores(page) -> str:
    return " ".join(page.locator("#scores").text_content().split())


def test_hand_two_of_four_corrected_on_one_phone_confirmed_on_another(
    browser, asgi_server, screenshots
):
    ana, guests, _code = create_and_join(browser, asgi_server, "triumfdrez", players=4)
    boris, chloe, dmitri = guests
    phones = (ana, *guests)
    tap(ana, "#table-live form[action$='start/'] button", *guests)
    for declarer, won in (("Ana", 8), ("Boris", 5), ("Chloé", 7), ("Dmitri", 9)):
        enter_hand(ana, guests, declarer, won)
    for page in phones:  # Ana + Chloé 9 + 11 + 7, Boris + Dmitri 11
        assert "27" in scores(page) and "11" in scores(page)

    # Boris: hand 2 was made, with 9 tricks
    boris.click("label[for=pane-players]")
    boris.click("#correct-hand summary")
    form = "#correct-hand-form"
    boris.select_option(f"{form} select[name=hand_no]", "2")
    boris.select_option(f"{form} select[name=declarer]", label="Boris")
    boris.select_option(f"{form} select[name=tricks]", "7")
    boris.fill(f"{form} input[name=won]", "9")
    tap(boris, f"{form} button", ana, chloe, dmitri)
    assert "27" in scores(ana)  # not until the other side confirms
    assert ana.locator("#hand-correction button[value=confirm]").count() == 1
    assert boris.locator("#hand-correction button[value=confirm]").count() == 0
    assert dmitri.locator("#hand-correction button[value=confirm]").count() == 0
    ana.screenshot(path=str(screenshots / "companion-triumfdrez-correction.png"))

    tap(ana, "#hand-correction button[value=confirm]", boris, chloe, dmitri)
    for page in phones:  # Ana + Chloé 9 + 7, Boris + Dmitri 11 + 11
        assert "16" in scores(page) and "22" in scores(page), scores(page)
        assert not page.locator("#hand-correction").count()
    record = boris.locator("#hand-record").text_content()
    assert "Boris corrigió la partida 2, confirmada por Ana" in " ".join(record.split())
    assert "UTC" in record
    boris.screenshot(path=str(screenshots / "companion-triumfdrez-corrected.png"), full_page=True)
