"""Regions drawn once for every seat at the table, laid out by each phone's page from its
own seat (`data-me` on #table-live, games.render.live_html): the TriumfDrez trick starts
at the phone's own place and its own player is not among the others; a Triggs phone
shows every other player's sheet but not its own. The regions as the server draws them,
with the site's style sheets, in Chromium at a tablet's width (where every pane shows)."""

import random
import uuid
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from games import live, render, services
from tests.browser.conftest import CONTEXT
from tests.tables import config, play_random

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def style(game: str) -> str:
    """The style sheets of a table page of `game` (the game's own in its folder)."""
    return "".join(
        Path(finders.find(f"css/{name}")).read_text() for name in ("site.css", f"{game}.css")
    )


def table_in_play(players: int):
    """A digital TriumfDrez table of `players`, played at random until the trick in progress
    holds a card."""
    table, host, _token = services.create_table(
        "triumfdrez", "digital", config("triumfdrez", "digital", players), "Ana"
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, f"P{seat}")
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    rng = random.Random(players)
    while not (table.state["phase"] == "play" and table.state["trick"]):
        assert play_random(table, rng)
    return table


def laid_out(page, selector) -> list[str]:
    """The ids of the visible elements matching `selector`, in reading order."""
    return page.eval_on_selector_all(
        selector,
        """items => items.filter(i => i.offsetParent !== null)
            .map(i => [i.getBoundingClientRect(), i.id])
            .sort((a, b) => (a[0].top - b[0].top) || (a[0].left - b[0].left))
            .map(pair => pair[1])""",
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_trick_starts_at_the_phones_own_seat_and_its_player_is_not_an_other(browser, players):
    table = table_in_play(players)
    snap = live.snapshot(table)
    context = browser.new_context(viewport={"width": 1024, "height": 768}, **CONTEXT)
    page = context.new_page()
    drawn = set()
    for me in (*range(players), None):
        now = render.screen(snap, [] if me is None else [me], me, me == 0, "es")
        trick = dict((name, html) for name, html, _pane in now.regions)["trick"]
        drawn.add(trick)
        page.set_content(f"<style>{style('triumfdrez')}</style>{render.live_html(now)}")
        first = 0 if me is None else me
        expected = [f"slot-{(first + i) % players}" for i in range(players)]
        assert laid_out(page, ".trick-seats li") == expected, me
        bold = page.eval_on_selector_all(
            ".trick-name", "names => names.map(n => getComputedStyle(n).fontWeight)"
        )
        assert [int(weight) >= 700 for weight in bold] == [seat == me for seat in range(players)]
        others = [f"player-{seat}" for seat in range(players) if seat != me]
        assert laid_out(page, ".drez-others li") == others, me
    assert len(drawn) == 1  # one drawing of the trick for every seat and the spectator
    context.close()


@pytest.mark.parametrize("mode", ["companion", "digital"])
def test_a_triggs_phone_shows_every_other_players_sheet_but_not_its_own(browser, mode):
    table, host, _token = services.create_table("triggs", mode, config("triggs", mode, 3), "Ana")
    for seat in range(1, 3):
        services.claim_seat(table, seat, f"P{seat}")
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    rng = random.Random(mode)
    for _move in range(6):
        assert play_random(table, rng)
    snap = live.snapshot(table)
    context = browser.new_context(viewport={"width": 1024, "height": 768}, **CONTEXT)
    page = context.new_page()
    drawn = set()
    for me in (0, 1, 2, None):
        now = render.screen(snap, [] if me is None else [me], me, me == 0, "es")
        drawn.add(dict((name, html) for name, html, _pane in now.regions)["others"])
        page.set_content(f"<style>{style('triggs')}</style>{render.live_html(now)}")
        assert laid_out(page, ".other-sheets li") == [f"other-{s}" for s in range(3) if s != me]
    assert len(drawn) == 2  # one drawing for the seated phones, one for the spectator's heading
    context.close()
