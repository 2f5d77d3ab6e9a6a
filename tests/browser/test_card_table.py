"""The digital table as a card table (issue 39), at 360×740 over a real server: the other
seats round the table with whose turn it is at the seat itself (a frame, ▶ and words),
the trick or the piles in the middle, the hand at the bottom in thumb reach, the tricks
of each side on the play screen, nothing wider than the phone; a card played moves to
the middle, and nothing moves when the phone asks for reduced motion."""

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.triggs import engine as triggs_engine
from tests.browser.conftest import PHONE, serve
from tests.browser.games import create_digital, new_phone, version, wait_for_version

pytestmark = pytest.mark.browser

TAP_GAP = 0.3
# every animation that starts on the page, by name (installed before the page's scripts)
RECORD = """
window.started = [];
document.addEventListener("animationstart", e => window.started.push(e.animationName), true);
"""


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory, chromium_path):
    """Computer players take 0.4 s a move: long enough to see their turn at their seat."""
    yield from serve(tmp_path_factory, "tests.services.settings", bot_delay=0.4)


# every animation held at its first frame, where it is furthest from where it ends
HOLD = "*, *::before { animation-play-state: paused !important; }"
FROM_THE_RIGHT = """() => document.getAnimations().some(
    a => a.animationName === "drez-in" && a.effect.target.closest("#slot-1"))"""


def box(page, selector) -> dict:
    """The element's box; asked again while a live update is replacing it (a region
    swapped under the question has no box for that moment)."""
    for _ in range(40):
        found = page.locator(selector).first.bounding_box()
        if found is not None:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{selector} is not on the screen")


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def in_thumb_reach(page, selector) -> None:
    """`selector` is on screen, in the lower half, above the tabs."""
    tabs = box(page, ".pane-tabs")["y"]
    hand = box(page, selector)
    assert hand["y"] + hand["height"] <= tabs + 0.5, hand
    assert hand["y"] >= PHONE["height"] / 2 - hand["height"] / 2, hand


def turn_at_the_seat(page, seat) -> None:
    """Whose turn, shown at the seat: a frame, ▶ and words for screen readers."""
    words = f"#{seat}.their-turn :is(.trick-name, .seat-name) + .visually-hidden"
    assert "turno" in page.locator(words).inner_text()  # "su turno"
    marker = page.evaluate(
        f"""() => {{
        const name = document.querySelector('#{seat} .trick-name, #{seat} .seat-name');
        const frame = document.querySelector('#{seat} .seat') || document.getElementById('{seat}');
        return [getComputedStyle(name, '::before').content, getComputedStyle(frame).borderTopStyle,
                parseFloat(getComputedStyle(frame).borderTopWidth)];
        }}"""
    )
    assert "▶" in marker[0] and marker[1] == "solid" and marker[2] >= 2, marker


def until_drez_play(page) -> None:
    """Through the auction (pass, or open with the lowest bid) until the phone plays."""
    for _ in range(40):
        page.wait_for_selector("#bid-form, #play-form button[name=card]", timeout=20_000)
        if not page.locator("#bid-form").count():
            return
        before = version(page)
        if page.locator("#bid-form button[value=pass]").count():
            page.click("#bid-form button[value=pass]")
        else:
            page.select_option("#bid-form select[name=tricks]", "1")
            page.click("#bid-form button[value=bid]")
        wait_for_version(page, before)
        time.sleep(TAP_GAP)
    pytest.fail("the auction did not end")


def play_a_card(page) -> None:
    page.wait_for_selector("#play-form button[name=card]", timeout=20_000)
    time.sleep(TAP_GAP)
    before = version(page)
    page.locator("#play-form button[name=card]").first.click()
    wait_for_version(page, before)


def test_a_triumfdrez_table_of_four_round_the_phone(browser, asgi_server, screenshots):
    context, page = new_phone(browser)
    page.add_init_script(RECORD)
    create_digital(page, asgi_server, "es", "triumfdrez", 4, {1: "", 2: "", 3: ""})
    page.wait_for_selector("#connection[data-live]")
    # in the auction the seats already sit round the table
    assert page.locator(".trick-seats .slot").count() == 4
    until_drez_play(page)
    fits_the_phone(page)
    # Ana (seat 0) at the bottom, the next to play (1) on her right, her partner (2)
    # opposite, 3 on her left
    at = {f"slot-{s}": box(page, f"#slot-{s}") for s in range(4)}
    centre = {k: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for k, b in at.items()}
    assert centre["slot-0"][1] > centre["slot-2"][1]
    assert centre["slot-1"][0] > centre["slot-0"][0] > centre["slot-3"][0]
    # each seat: its cards in hand (a number, and words) and its tricks
    for s in range(1, 4):
        assert page.locator(f"#slot-{s} .backs").get_attribute("aria-label").endswith("cartas")
        assert "baza" in page.locator(f"#slot-{s} .won").inner_text()
    turn_at_the_seat(page, "slot-0")  # it is Ana's turn: at her seat
    # the computer players' short names at their seats (their level a badge elsewhere)
    names = page.locator(".slot .trick-name").all_inner_texts()
    assert names[1:] == ["Ordenador 2", "Ordenador 3", "Ordenador 4"]
    # the tricks of each side and what the contract needs, on the play screen
    tally = page.locator("#tally li")
    assert tally.count() == 2 and all(tally.nth(i).is_visible() for i in range(2))
    assert " de " in page.locator("#tally li.declaring").inner_text()
    tabs = box(page, ".pane-tabs")["y"]
    assert box(page, "#tally")["y"] + box(page, "#tally")["height"] <= tabs
    in_thumb_reach(page, "#my-hand")
    page.screenshot(path=str(screenshots / "card-table-triumfdrez-4.png"))
    # a card played moves to the middle (and the computer players' after it); the last
    # card of a trick does not rest there: its trick goes to its winner
    page.evaluate("window.started = []")
    play_a_card(page)
    page.wait_for_function(
        "['drez-in', 'drez-take'].some(name => window.started.includes(name))", timeout=5_000
    )
    # another seat's turn, at that seat (Ana leads again after a trick she won: she plays on)
    for _ in range(4):
        try:
            page.wait_for_selector(".slot.their-turn:not(#slot-0)", timeout=5_000)
            break
        except PlaywrightTimeout:
            play_a_card(page)
    else:
        pytest.fail("no other seat's turn came")
    turn_at_the_seat(page, page.locator(".slot.their-turn").first.get_attribute("id"))
    fits_the_phone(page)
    # a card coming in from the seat on the right, held at its first frame (3rem out to
    # the right of where it lands), does not widen the page either
    page.add_style_tag(content=HOLD)
    # Ana plays on until the seat on her right plays a card that stays (not a trick's
    # last, which goes straight to the trick's winner)
    for _ in range(8):
        try:
            page.wait_for_function(FROM_THE_RIGHT, timeout=3_000)
            break
        except PlaywrightTimeout:
            play_a_card(page)
    else:
        pytest.fail("the seat on the right played no card")
    fits_the_phone(page)
    context.close()


def test_nothing_moves_under_reduced_motion(browser, asgi_server):
    context, page = new_phone(browser, reduced_motion="reduce")
    page.add_init_script(RECORD)
    create_digital(page, asgi_server, "fr", "triumfdrez", 2, {1: ""})
    page.wait_for_selector("#connection[data-live]")
    until_drez_play(page)
    for _ in range(3):
        play_a_card(page)
        assert page.evaluate("document.getAnimations().length") == 0
        time.sleep(0.5)  # the computer player's card, a trick won
        assert page.evaluate("document.getAnimations().length") == 0
        if page.locator("#hand-result").count():
            break
    assert page.evaluate("window.started") == []
    context.close()


# the words of the seats' names cut across two lines («Υπολογιστ-ής»): a word in one piece
# has one box
BROKEN_WORDS = """() => [...document.querySelectorAll('.slot .trick-name')].flatMap(name => {
    const text = name.firstChild, broken = [];
    let at = 0;
    for (const word of text.textContent.split(' ')) {
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        if (range.getClientRects().length > 1) broken.push(word);
        at += word.length + 1;
    }
    return broken;
})"""


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_names_round_the_table_are_never_cut_inside_a_word(
    browser, asgi_server, screenshots, lang, width
):
    """Issue 39: a seat's name in the trick is whole; in Greek, «Υπολογιστής 2» in a side
    seat of a phone broke inside its first word."""
    context, page = new_phone(browser, viewport={"width": width, "height": 740})
    create_digital(page, asgi_server, lang, "triumfdrez", 4, {1: "", 2: "", 3: ""})
    page.wait_for_selector("#connection[data-live]")
    assert page.locator(".slot .trick-name").count() == 4
    assert page.evaluate(BROKEN_WORDS) == []
    # nor with ▶ before it, as when it is that seat's turn (every seat drawn so here)
    page.evaluate("document.querySelectorAll('.slot').forEach(s => s.classList.add('their-turn'))")
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(screenshots / f"names-{lang}-{width}.png"))
    context.close()


def wait_for_triggs_turn(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#hand-form, button.box.extra')", timeout=30_000
    )


def test_a_triggs_table_round_the_phone(browser, asgi_server, screenshots):
    context, page = new_phone(browser)
    page.add_init_script(RECORD)
    create_digital(page, asgi_server, "es", "triggs", 3, {1: "greedy", 2: "greedy"})
    page.wait_for_selector("#connection[data-live]")
    wait_for_triggs_turn(page)
    fits_the_phone(page)
    # the two other seats at the top, from the next one on; not the phone's own
    assert page.locator(".ring .ring-seat:visible").count() == 2
    assert not page.locator("#seat-0").is_visible()
    first, second = box(page, "#seat-1"), box(page, "#seat-2")
    assert first["x"] < second["x"] and abs(first["y"] - second["y"]) < 2
    assert box(page, ".ring")["y"] < box(page, "#piles")["y"]
    # each: cards in hand, boxes crossed of all the sheet's (the engine's number)
    total = triggs_engine.TOTAL_BOXES
    for seat in (1, 2):
        progress = page.locator(f"#seat-{seat} .progress").inner_text()
        assert progress.endswith(f"/{total}"), progress
        assert page.locator(f"#seat-{seat} .backs").get_attribute("aria-label")
    page.screenshot(path=str(screenshots / "card-table-triggs-3.png"))
    # the phone's own sheet begins on the first screen, above the docked hand
    title = box(page, "#sheet-title")
    assert title["y"] + title["height"] <= box(page, ".r-hand")["y"]
    in_thumb_reach(page, ".r-hand")
    # a move: then a computer player's turn shows at its seat
    page.evaluate("window.started = []")
    before = version(page)
    if page.locator("button.box.extra").count():
        page.locator("button.box.extra").first.click()
    elif page.locator(".proposal-row button").count():
        page.locator(".proposal-row button").first.click()
    elif page.locator("#draw-form button.t-pile").count():
        two = page.locator("#draw-form input[name=kind][value=draw_first]").count()
        page.locator("#draw-form button.t-pile").first.click()
        if two:  # the first card's pile, then the second's
            page.wait_for_selector("#draw-step")
            time.sleep(TAP_GAP)
            page.locator("#draw-form button[name=second]").first.click()
    else:
        value = page.locator("#hand label.hand-card").first.get_attribute("data-card")
        page.locator(f"#hand label.hand-card[data-card='{value}']").first.click()
        page.locator("#discard-button").click()
    wait_for_version(page, before)
    page.wait_for_selector(".ring-seat.their-turn", timeout=10_000)
    turn_at_the_seat(page, page.locator(".ring-seat.their-turn").first.get_attribute("id"))
    # something moved in: a cross, a card drawn or one on a pile, a count
    page.wait_for_function("window.started.length > 0", timeout=10_000)
    fits_the_phone(page)
    context.close()


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_every_colour_name_on_the_hand_is_whole(browser, asgi_server, lang):
    """Issue 39: a card's colour name is never cut («mage…»): a long one takes two lines,
    inside its card."""
    context, page = new_phone(browser)
    create_digital(page, asgi_server, lang, "triumfdrez", 2, {1: ""})
    page.wait_for_selector("#my-hand .d-card")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#my-hand .d-card > small')]
        .filter(n => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1
                     || getComputedStyle(n).textOverflow === 'ellipsis')
        .map(n => n.textContent)"""
    )
    assert cut == [], cut
    fits_the_phone(page)
    context.close()


@pytest.mark.parametrize(("game", "players", "bots"), [("triumfdrez", 4, {1: "", 2: "", 3: ""}),
                                                       ("triggs", 2, {1: "greedy"})])  # fmt: skip
def test_a_phone_on_its_side_holds_the_hand_beside_the_table(
    browser, asgi_server, screenshots, game, players, bots
):
    """Issue 39: landscape uses the width: at 740×360 the hand sits beside the table (not
    docked over it), both on the first screen, above the tabs; nothing wider than the phone."""
    context, page = new_phone(browser, viewport={"width": 740, "height": 360})
    create_digital(page, asgi_server, "fr", game, players, bots)
    page.wait_for_selector("#r-hand .d-card, #r-hand [data-card]")
    hand, tabs = box(page, "#r-hand"), box(page, ".pane-tabs")
    table = box(page, "#r-trick" if game == "triumfdrez" else "#r-piles")
    assert hand["x"] >= 740 / 2 - 10 and table["x"] + table["width"] <= 740 / 2 + 10, (hand, table)
    assert hand["y"] < 360 / 2 and hand["y"] + hand["height"] <= tabs["y"] + 0.5, (hand, tabs)
    assert table["y"] < tabs["y"], table
    assert page.evaluate("document.documentElement.scrollWidth") <= 740
    page.screenshot(path=str(screenshots / f"landscape-{game}-fr.png"))
    context.close()


@pytest.mark.parametrize(("game", "players", "bots"), [("triumfdrez", 4, {1: "", 2: "", 3: ""}),
                                                       ("triggs", 3, {1: "greedy", 2: "greedy"})])  # fmt: skip
def test_a_wide_screen_shows_the_table_and_the_rest_side_by_side(
    browser, asgi_server, screenshots, game, players, bots
):
    """Issue 39: a tablet or a laptop (1280×720) uses the width: the table, its middle and
    the hand in a wide column, the players and the moves beside it (no tabs), the hand on
    the first screen; nothing wider than the screen."""
    width, height = 1280, 720
    context, page = new_phone(browser, viewport={"width": width, "height": height})
    create_digital(page, asgi_server, "es", game, players, bots)
    page.wait_for_selector("#r-hand .d-card, #r-hand [data-card]")
    assert not page.locator(".pane-tabs").is_visible()
    play, players_pane = box(page, ".pane-play"), box(page, ".pane-players")
    assert players_pane["x"] >= play["x"] + play["width"], (play, players_pane)
    assert box(page, ".pane-log")["x"] == players_pane["x"]
    middle = box(page, "#r-trick" if game == "triumfdrez" else "#r-piles")
    hand = box(page, "#r-hand")
    assert middle["x"] < players_pane["x"] and hand["x"] < players_pane["x"]
    assert middle["y"] < hand["y"] and hand["y"] >= 0 and hand["y"] + hand["height"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(screenshots / f"wide-{game}-{players}.png"))
    context.close()
