"""Digital games played on a phone's page by tapping, as a person would: shared by the
browser tests over a plain server (tests/browser) and through the README's deployment
(tests/deploy). `on_move(n)` is called before the n-th move (a test may, say, kill the
process holding the page's socket there)."""

import time

from tests.browser.conftest import CONTEXT, PHONE

# People tap a few times a second at most; the phone's rate limit (4 a second, after a
# burst of 10) says so. Every tap waits its turn, both taps of a draw included.
TAP_GAP = 0.3


def new_phone(browser, **options):
    """A phone's browser context and page (360×740 unless `viewport` says otherwise)."""
    options = {"viewport": PHONE, **options}
    context = browser.new_context(
        device_scale_factor=1, is_mobile=True, has_touch=True, **CONTEXT, **options
    )
    return context, context.new_page()


def pace(last: float) -> float:
    """Wait until TAP_GAP after the tap at `last`; the time of this tap."""
    time.sleep(max(0.0, last + TAP_GAP - time.monotonic()))
    return time.monotonic()


FLASH = "document.getElementById('table-flash').innerHTML"


def version(page) -> int:
    """The version the page shows; the refusal it shows now is remembered, so that only a
    new one counts as the answer to the next tap (`wait_for_version`)."""
    page.evaluate(f"() => {{ window.flashBefore = {FLASH}; }}")
    return int(page.locator("#table-meta").get_attribute("data-version"))


def wait_for_version(page, before: int, timeout: float = 15_000) -> None:
    """Until the page shows a version after `before`; a new refusal shown instead fails at
    once with its words."""
    page.wait_for_function(
        f"() => +document.getElementById('table-meta').dataset.version > {before}"
        f" || ({FLASH} !== window.flashBefore && document.querySelector('#table-flash .error'))",
        timeout=timeout,
    )
    if int(page.locator("#table-meta").get_attribute("data-version")) <= before:
        raise AssertionError(page.locator("#table-flash").inner_text())


def join_seat(page, base: str, lang: str, code: str, seat: int, name: str) -> None:
    """Join table `code` at `seat` as `name` from its join page, as a guest would."""
    page.goto(f"{base}/{lang}/join/{code}/")
    page.check(f"#join-seat input[name=seat][value='{seat}']")
    page.fill("#player-name", name)
    page.click("#join-seat button[type=submit]")
    page.wait_for_url("**/t/**")


def create_digital(
    page, base: str, lang: str, game: str, players: int, bots: dict, options=None
) -> str:
    """A digital table made in the lobby, computer players seated (`bots`: seat → level, ""
    for the game's first), dealt; its code. `options`: the lobby's other fields by name
    (TriumfDrez's "target")."""
    page.goto(f"{base}/{lang}/play/")
    page.click(f".game-tabs a[href='?game={game}']")
    page.wait_for_url(f"**?game={game}")
    page.check("#create-table input[name=mode][value=digital]")
    page.check(f"#create-table input[name=players][value='{players}']")
    for name, value in (options or {}).items():
        page.fill(f"#create-table input[name={name}]", str(value))
    page.fill("#host-name", "Ana")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/t/**")
    for seat, level in bots.items():
        if level:
            page.select_option(f"li[data-seat='{seat}'] select[name=level]", level)
        page.click(f"li[data-seat='{seat}'] .bot-form button")
        page.wait_for_selector(f"li[data-seat='{seat}'] form[action$='free/']")
    page.click("#table-live form[action$='start/'] button")
    page.wait_for_selector("#table-live[data-stage=play]")
    return page.url.split("/t/")[1][:6]


# -- Triggs -------------------------------------------------------------------------------


def triggs_hand(page) -> list[int]:
    return sorted(
        int(v)
        for v in page.locator("#hand [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
    )


def wait_for_triggs_move(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#winner, #hand-form, button.box.extra')", timeout=30_000
    )


def play_triggs(page, on_move=None, shots=None) -> dict:
    """Play the phone's seat to the end of the game; what it did (`used`). `shots(name)` is
    called where a screenshot is worth taking."""
    moves, last = 0, 0.0
    used = {"ticked cross": False, "draw": False}
    shot = shots or (lambda name: None)
    while True:
        wait_for_triggs_move(page)
        if page.locator("#winner").count():
            return used
        moves += 1
        assert moves < 150, "the game did not end"
        if on_move is not None:
            on_move(moves)
            wait_for_triggs_move(page)
            if page.locator("#winner").count():
                return used
        last = pace(last)
        before = version(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot("hand")
        if page.locator("button.box.extra").count():
            page.locator("button.box.extra").first.click()
        elif page.locator(".proposal-row button").count():
            if not used["ticked cross"]:
                # tick one card of a row that can be crossed: the Cross button offers it
                value = page.locator("li.proposal-row .proposal-value").first.inner_text().strip()
                page.locator(f"#hand label.hand-card[data-card='{value}']").first.click()
                assert page.locator("#cross-button .detail").inner_text() == f"{value} ×1"
                assert page.locator("#cross-button").is_enabled()
                page.locator("#cross-button").click()
                used["ticked cross"] = True
            else:
                # in one step: the region is sent again whenever the other seats move,
                # which a locator's wait for a stable element can lose
                page.evaluate("document.querySelector('#cross-proposals').scrollIntoView()")
                shot("cross")
                fills = page.locator(".proposal-row button.fills")
                (
                    fills.first if fills.count() else page.locator(".proposal-row button").last
                ).click()
        elif page.locator("#draw-form input[name=kind][value=draw_first]").count():
            # two taps: the first card's pile, which shows what it uncovered, then the
            # second card's pile
            before_hand = triggs_hand(page)
            page.locator("#draw-form button.t-pile[data-pile='left']").click()
            page.wait_for_selector("#draw-step")
            shot("draw")
            last = pace(last)
            page.locator("#draw-form button[name=second][value='stock']").click()
            used["draw"] = True
            wait_for_version(page, before)
            assert len(triggs_hand(page)) == len(before_hand) + 2
        elif page.locator("#draw-form button.t-pile").count():
            page.locator("#draw-form button.t-pile").first.click()
        else:
            # ten cards and nothing to cross: tick every card of one value, then Discard
            value = page.locator("#hand label.hand-card").first.get_attribute("data-card")
            cards = page.locator(f"#hand label.hand-card[data-card='{value}']")
            for i in range(cards.count()):
                cards.nth(i).click()
            page.locator("#discard-button").click()
        wait_for_version(page, before)


# -- TriumfDrez ---------------------------------------------------------------------------


def wait_for_triumfdrez_move(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#hand-result, #bid-form, #play-form button[name=card]')",
        timeout=30_000,
    )


def play_triumfdrez_hand(page, on_move=None, shots=None) -> int:
    """Play the phone's seat from the auction to the hand's score; the moves it made."""
    moves, last, told = 0, 0.0, False
    shot = shots or (lambda name: None)
    while True:
        wait_for_triumfdrez_move(page)
        if page.locator("#hand-result").count():
            return moves
        moves += 1
        assert moves < 40, "the hand did not end"
        if on_move is not None:
            on_move(moves)
            wait_for_triumfdrez_move(page)
            if page.locator("#hand-result").count():
                return moves
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        last = pace(last)
        before = version(page)
        if page.locator("#bid-form").count():
            shot("auction")
            if page.locator("#bid-form button[value=pass]").count():
                page.click("#bid-form button[value=pass]")
            else:
                # Opening the auction: a bid below the form's minimum is not offered.
                page.select_option("#bid-form select[name=tricks]", "1")
                assert page.locator("#bid-form button[value=bid]").is_enabled()
                page.click("#bid-form button[value=bid]")
        else:
            unplayable = page.locator("#play-form .unplayable")
            if unplayable.count() and not told:
                told = True
                unplayable.first.click(force=True)  # a card that may not be played says why
                assert page.locator("#table-flash .error").inner_text()
                shot("reason")
                last = pace(last)
                before = version(page)
            page.locator("#play-form button[name=card]").first.click()
        wait_for_version(page, before, timeout=20_000)


def play_triumfdrez_match(page, on_move=None) -> int:
    """Hand after hand, the phone dealing the next once one is scored (any seat may; the
    computer players leave it to the people), until a side wins the match; the hands."""
    hands = 0
    while True:
        play_triumfdrez_hand(page, on_move=on_move)
        hands += 1
        if page.locator("#table-live .winner").count():
            return hands
        assert hands < 30, "the match did not end"
        before = version(page)
        page.click("#hand-result button[name=kind][value=next_hand]")
        wait_for_version(page, before, timeout=20_000)
