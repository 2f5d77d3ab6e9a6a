"""What a table's screen says beside the game (issue 39), at 360×740 over a real daphne
server: a refusal goes once the state it was about has passed, the turn banner stays clear
of the controls and goes as soon as a move is sent, the connection's state is said in words
and a shape, and the home page has one main action."""

import time

import pytest

from tests.browser.conftest import CONTEXT, PHONE, serve
from tests.browser.games import join_seat

pytestmark = pytest.mark.browser

TAP_GAP = 0.3  # the phone's rate limit: a person taps a few times a second at most
TABLE_CONTROLS = "#table-live button, #table-live select, #table-live input:not([type=hidden])"


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    yield from serve(tmp_path_factory, "tests.services.settings")


@pytest.fixture
def phones(browser):
    contexts = []

    def new():
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT
        )
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield new
    for context in contexts:
        context.close()


def version(page) -> int:
    return int(page.locator("#table-meta").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function(
        "n => +document.getElementById('table-meta').dataset.version >= n",
        arg=at_least,
        timeout=10_000,
    )


def tap(page, selector: str, *others) -> None:
    time.sleep(TAP_GAP)
    before = version(page)
    page.locator(selector).first.click()
    for phone in (page, *others):
        wait_for_version(phone, before + 1)


def companion_triggs(server, new_phone, lang="es"):
    """Ana (first to play) and Boris at a companion Triggs table, dealt; both connected."""
    ana = new_phone()
    ana.goto(f"{server}/{lang}/play/?game=triggs")
    ana.check("#create-table input[name=mode][value=companion]")
    ana.check("#create-table input[name=players][value='2']")
    ana.select_option("#create-table select[name=first]", "0")
    ana.fill("#host-name", "Ana")
    ana.click("#create-table button[type=submit]")
    ana.wait_for_url("**/t/**")
    code = ana.locator("h1 .table-code").inner_text().strip()
    boris = new_phone()
    join_seat(boris, server, lang, code, 1, "Boris")
    for page in (ana, boris):
        page.wait_for_selector("#connection[data-live]")
    ana.wait_for_function("document.querySelector('.seat-list').innerText.includes('Boris')")
    tap(ana, "#table-live form[action$='start/'] button", boris)
    ana.wait_for_selector("button[value=pass]")
    return ana, boris


def overlaps(a, b) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def banner_covers(page) -> list[str]:
    """The visible controls of the table that the moment's banner lies over."""
    banner = page.locator("#moment").bounding_box()
    covered = []
    for control in page.locator(TABLE_CONTROLS).all():
        box = control.bounding_box() if control.is_visible() else None
        if box and banner and overlaps(banner, box):
            covered.append(control.evaluate("el => el.outerHTML.slice(0, 80)"))
    return covered


def refuse_out_of_turn(ana):
    """Ana sends the pass she could send on her turn once the turn has gone: refused."""
    ana.evaluate(
        """saved => {
            document.getElementById('stale-pass')?.remove();
            const live = document.getElementById('table-live');
            live.insertAdjacentHTML('beforeend', saved);
            live.lastElementChild.id = 'stale-pass';
        }""",
        ana.saved,
    )
    time.sleep(TAP_GAP)
    ana.click("#stale-pass button")
    ana.wait_for_selector("#table-flash .error")
    return " ".join(ana.locator("#table-flash .error").inner_text().split())


def test_a_refusal_goes_once_the_turn_it_was_about_has_passed(asgi_server, phones, screenshots):
    """«No es tu turno.» stayed in red after the other player passed the turn back: now
    it stays while the table is as it was, and goes when a newer version comes (the turn
    came back) and when the phone sends its next move."""
    ana, boris = companion_triggs(asgi_server, phones)
    ana.saved = ana.evaluate("() => document.querySelector('button[value=pass]').form.outerHTML")
    tap(ana, "button[value=pass]", boris)  # Boris's turn now
    message = refuse_out_of_turn(ana)
    assert "No es tu turno" in message
    ana.screenshot(path=str(screenshots / "signals-refused-out-of-turn-es.png"))
    time.sleep(2.5)  # nothing has changed: the refusal still holds
    assert ana.locator("#table-flash .error").count() == 1
    refused_at = time.monotonic()
    tap(boris, "button[value=pass]", ana)  # the turn comes back to Ana
    ana.wait_for_selector("#table-flash .error", state="detached", timeout=2_000)
    assert time.monotonic() - refused_at < 4  # not the 8 s a message stays otherwise
    ana.screenshot(path=str(screenshots / "signals-turn-back-es.png"))

    # a refusal goes as well when the phone sends its next move (whatever comes back)
    tap(ana, "button[value=pass]", boris)
    refuse_out_of_turn(ana)
    time.sleep(TAP_GAP)
    cleared = ana.evaluate(
        """() => {
            document.querySelector('#stale-pass button').click();
            return document.querySelector('#table-flash .error') === null;
        }"""
    )
    assert cleared
    assert not ana.errors and not boris.errors


def test_the_turn_banner_keeps_clear_of_the_controls_and_goes_with_a_move(
    asgi_server, phones, screenshots
):
    ana, boris = companion_triggs(asgi_server, phones)
    tap(ana, "button[value=pass]", boris)
    boris.wait_for_selector("#moment:not([hidden])", timeout=3_000)  # «Es tu turno»
    assert "turno" in boris.locator("#moment").inner_text()
    boris.screenshot(path=str(screenshots / "signals-turn-banner-es.png"))
    assert boris.locator(TABLE_CONTROLS).count() > 3
    assert banner_covers(boris) == []
    banner = boris.locator("#moment").bounding_box()
    bar = boris.locator(".app-bar").bounding_box()
    assert banner["y"] >= bar["y"] + bar["height"] - 1  # under the app bar, at the top
    assert banner["y"] + banner["height"] < PHONE["height"] / 3
    # Boris moves at once: the banner goes with the move, not 2.5 s later
    boris.click("button[value=pass]")
    boris.wait_for_selector("#moment", state="hidden", timeout=300)
    assert not ana.errors and not boris.errors


def test_the_connection_says_its_state_in_words_and_a_shape(asgi_server, phones, screenshots):
    page = phones()
    sockets = []
    down = []  # while set, the server "restarting" refuses every connection

    def route(ws):
        sockets.append(ws)
        if down:
            ws.close(code=1012, reason="restart")
        else:
            ws.connect_to_server()

    page.route_web_socket("**/ws/table/**", route)
    page.goto(f"{asgi_server}/es/play/?game=triggs")
    page.check("#create-table input[name=mode][value=companion]")
    page.fill("#host-name", "Ana")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/t/**")
    status = page.locator("#connection")

    def state():
        return page.evaluate(
            """() => {
                const el = document.getElementById('connection');
                const attrs = ['data-live', 'data-reconnecting', 'data-offline']
                    .filter(name => el.hasAttribute(name));
                return [attrs, getComputedStyle(el, '::before').content, el.textContent];
            }"""
        )

    page.wait_for_selector("#connection[data-live]")
    assert state() == [["data-live"], '"● "', "En directo"]
    # the server goes away (a restart): the page says it is trying again, then is back
    down.append(True)
    sockets[-1].close(code=1012, reason="restart")
    page.wait_for_selector("#connection[data-reconnecting]", timeout=2_000)
    assert state() == [["data-reconnecting"], '"◌ "', "Reconectando…"]
    assert status.is_visible()
    page.screenshot(path=str(screenshots / "signals-reconnecting-es.png"))
    time.sleep(1.5)  # tries again meanwhile, and says so still
    assert state()[0] == ["data-reconnecting"] and len(sockets) > 1
    down.clear()
    page.wait_for_selector("#connection[data-live]", timeout=10_000)
    # the phone loses its network
    page.context.set_offline(True)
    page.wait_for_selector("#connection[data-offline]", timeout=2_000)
    assert state() == [["data-offline"], '"✕ "', "Sin conexión"]
    page.screenshot(path=str(screenshots / "signals-offline-es.png"))
    page.context.set_offline(False)
    page.wait_for_selector("#connection[data-live]", timeout=10_000)
    assert not page.errors


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_home_page_has_one_main_action(asgi_server, phones, screenshots, lang):
    """Three identical buttons were stacked on the home page: one is the main action, the
    others are secondary."""
    page = phones()
    page.goto(f"{asgi_server}/{lang}/")
    page.screenshot(path=str(screenshots / f"home-{lang}.png"), full_page=True)
    primary = page.evaluate(
        """() => {
            const accent = getComputedStyle(document.documentElement)
                .getPropertyValue('--accent').trim();
            const probe = document.createElement('i');
            probe.style.color = accent;
            document.body.append(probe);
            const filled = getComputedStyle(probe).color;
            probe.remove();
            return Array.from(document.querySelectorAll('main a, main button'))
                .filter(el => el.offsetParent !== null)
                .filter(el => getComputedStyle(el).backgroundColor === filled)
                .map(el => el.getAttribute('href'));
        }"""
    )
    assert len(primary) == 1 and primary[0].endswith("/play/"), primary
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_lobby_seats_computer_players_on_one_line_each(asgi_server, phones, screenshots):
    """Each free seat has a small form on its own line, not a button across the screen; a
    computer player is «Ordenador 2», its level a badge beside the name."""
    page = phones()
    page.goto(f"{asgi_server}/es/play/?game=triumfdrez")
    page.check("#create-table input[name=mode][value=digital]")
    page.check("#create-table input[name=players][value='4']")
    page.fill("#host-name", "Ana")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#connection[data-live]")
    for seat in (1, 2, 3):
        form = page.locator(f"li[data-seat='{seat}'] .bot-form")
        assert form.bounding_box()["height"] < 56  # one line
        assert form.locator("button").bounding_box()["width"] < PHONE["width"] / 2
    level = page.locator("li[data-seat='1'] select[name=level] option").nth(1)
    page.select_option("li[data-seat='1'] select[name=level]", level.get_attribute("value"))
    label = level.inner_text().strip()
    for seat in (1, 2):
        time.sleep(TAP_GAP)
        page.click(f"li[data-seat='{seat}'] .bot-form button")
        page.wait_for_selector(f"li[data-seat='{seat}'] form[action$='free/']")
    page.screenshot(path=str(screenshots / "signals-lobby-computer-players-es.png"))
    seat = page.locator("li[data-seat='1']")
    assert " ".join(seat.locator(".seat-who").inner_text().split()) == f"Ordenador 2 {label}"
    assert seat.locator(".tag.level").inner_text() == label
    for index in (1, 2, 3):
        line = page.locator(f"li[data-seat='{index}']").bounding_box()
        # the seat, name and badge on one line, the partner (4 players) and the form beside or beneath
        assert line["height"] < 120, index
    remove = seat.locator("form[action$='free/'] button")
    assert remove.get_attribute("aria-label") == "Quitar al jugador del ordenador"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_dark_mode_follows_the_system_with_contrast_kept(browser, asgi_server, lang, screenshots):
    """prefers-color-scheme: dark darkens the site's pages, and axe-core finds no contrast
    (nor other serious) violation in them; a table too, whose game draws with the site's
    variables (tests/browser/test_dark_mode.py: every game page, in both schemes)."""
    from tests.browser.test_accessibility import serious

    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, color_scheme="dark", **CONTEXT
    )
    page = context.new_page()
    try:
        found = {}
        for path in ("", "play/?game=triggs", "open/", "me/", "groups/new/"):
            page.goto(f"{asgi_server}/{lang}/{path}")
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(23, 23, 26)", (path, background)
            found[path or "home"] = serious(page)
        page.goto(f"{asgi_server}/{lang}/")
        page.screenshot(path=str(screenshots / f"home-dark-{lang}.png"), full_page=True)
        page.goto(f"{asgi_server}/{lang}/play/?game=triggs")
        page.screenshot(path=str(screenshots / f"lobby-dark-{lang}.png"), full_page=True)
        page.fill("#host-name", "Ana")
        page.click("#create-table button[type=submit]")
        page.wait_for_url("**/t/**")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 23, 26)"  # the table: dark too
        found["table"] = serious(page)
        assert {where: v for where, v in found.items() if v} == {}
    finally:
        context.close()
