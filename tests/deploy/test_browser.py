"""Digital games of both games played in Chromium through the README's deployment
(nginx over TLS, two server processes, PostgreSQL, Redis, DEBUG=0), the process holding
the page's socket killed mid-game: the page reconnects through nginx to the other process
and the game (a TriumfDrez match hand after hand) goes on to its end (tests/browser/games.py
plays the moves)."""

import pytest

from tests.browser.games import create_digital, new_phone, play_triggs, play_triumfdrez_match
from tests.conftest import CHROMIUM_ARGS
from tests.deploy.conftest import HOST
from tests.deploy.test_deployment import established

pytestmark = [pytest.mark.browser, pytest.mark.services]


@pytest.fixture(scope="module")
def chromium(chromium_path):
    """Chromium that finds cards.example at 127.0.0.1 (nginx's throwaway certificate is
    accepted by each context)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        )
        yield browser
        browser.close()


def killer(deployment, at: int):
    """`on_move` for the games: before move `at`, SIGKILL the server process that holds
    a socket (the page's: it is the only one at its table)."""
    killed = []

    def on_move(moves: int) -> None:
        if moves == at and not killed:  # once: `moves` counts again in each hand
            victim = next(s for s in deployment.servers if established(s.port))
            victim.kill()
            killed.append(victim)

    return on_move, killed


def test_a_digital_triggs_game_to_the_end_through_nginx(chromium, deployment, screenshots):
    context, page = new_phone(chromium, ignore_https_errors=True)
    on_move, killed = killer(deployment, at=4)
    try:
        create_digital(page, deployment.front.base, "es", "triggs", 2, {1: "greedy"})
        play_triggs(page, on_move=on_move)
        assert killed and not killed[0].alive
        assert "42" in page.locator("#winner").inner_text()
        page.screenshot(path=str(screenshots / "deploy-triggs-win.png"))
    finally:
        context.close()


def test_a_digital_triumfdrez_match_to_the_end_through_nginx(chromium, deployment, screenshots):
    """A match to the lowest target (10 points): one hand or a few, the next dealt from the
    phone each time, the process holding its socket killed in the first."""
    context, page = new_phone(chromium, ignore_https_errors=True)
    on_move, killed = killer(deployment, at=3)
    try:
        bots = {1: "", 2: "", 3: ""}
        base = deployment.front.base
        create_digital(page, base, "el", "triumfdrez", 4, bots, options={"target": 10})
        hands = play_triumfdrez_match(page, on_move=on_move)
        assert killed and not killed[0].alive
        assert hands >= 1 and page.locator("#hand-result").count() == 1
        assert page.locator("#table-live .winner").count() == 1
        page.screenshot(path=str(screenshots / "deploy-triumfdrez-win.png"))
    finally:
        context.close()
