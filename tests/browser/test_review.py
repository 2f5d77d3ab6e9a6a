"""The review after a game on a 360 px phone (games.review): its progress shows and the
page asks again by itself (htmx) until the moments replace it, every moment a link to
the replay at that move, nothing wider than the screen; the site's own CSP stays on."""

import pytest

from games import review
from games.models import Review
from tests.web.test_review import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def strict_phone(browser):
    """A phone at 360 px whose pages keep their Content-Security-Policy."""
    from tests.browser.conftest import PHONE

    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    yield context
    context.close()


def test_the_progress_then_the_moments_on_a_phone(live_server, strict_phone, screenshots):
    table, ana, _boris, bad_step = finished_game()
    for name, morsel in ana.cookies.items():
        strict_phone.add_cookies([{"name": name, "value": morsel.value, "url": live_server.url}])
    page = strict_phone.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    # under way: 3 of 14 decisions judged (the job is left out: its row is written here)
    Review.objects.create(table=table, seat=0, version=table.version, status="running", total=14)
    Review.objects.filter(table=table).update(done=3)
    page.goto(f"{live_server.url}/es/r/{table.code}/")
    status = page.locator("#review-0 [role=status]")
    assert "Revisando… 3 de 14 jugadas" in " ".join(status.inner_text().split())
    page.screenshot(path=str(screenshots / "es-review-progress.png"), full_page=True)
    # the job finishes: the page shows the moments without being reloaded
    row = Review.objects.get()
    found = review.decisions(table, 0)
    bad = next(d for d in found if d.step == bad_step)
    moment = {"step": bad_step, "played": bad.played, "best": bad.legal[0], "cost": 2.0}
    if moment["best"] == bad.played:
        moment["best"] = bad.legal[1]
    Review.objects.filter(pk=row.pk).update(status="done", done=14, moments=[moment])
    link = page.locator(f"#review-0 a.review-step[href*='step={bad_step}']")
    link.wait_for(timeout=10_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert "2,0 puntos por partida" in page.locator("#review-0").inner_text()
    page.screenshot(path=str(screenshots / "es-review-moments.png"), full_page=True)
    link.click()
    page.wait_for_url(f"**/replay/?step={bad_step}&seat=0")
    assert page.locator("#review-0 a[aria-current=step]").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(screenshots / "es-review-replay.png"), full_page=True)
    assert errors == []
