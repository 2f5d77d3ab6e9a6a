"""Regions drawn once for every seat at the table, laid out by each phone's page from its
own seat (`data-me` on #table-live, games.render.live_html): the TriumfDrez table with the
phone's own seat at the bottom and the others round it; a Triggs phone shows every other
player's sheet but not its own. The regions as the server draws them,
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


def places(page) -> dict[str, dict]:
    """Each seat's place at the table: the centre of its element, by id."""
    return page.eval_on_selector_all(
        ".trick-seats li",
        """items => Object.fromEntries(items.map(i => {
            const r = i.getBoundingClientRect();
            return [i.id, {x: r.left + r.width / 2, y: r.top + r.height / 2}];
        }))""",
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_is_laid_out_round_the_phones_own_seat(browser, players):
    """The phone's own seat at the bottom, the next to play on its right, then opposite
    (a partner, at 4) and on its left: play goes on to the right."""
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
        at = places(page)
        own, after = (
            at[f"slot-{first}"],
            [at[f"slot-{(first + i) % players}"] for i in range(1, players)],
        )
        assert all(own["y"] > other["y"] for other in after), me  # the phone's own at the bottom
        if players == 2:
            assert abs(after[0]["x"] - own["x"]) < 2, me  # opposite
        else:
            assert after[0]["x"] > own["x"] + 50 and after[-1]["x"] < own["x"] - 50, me
        if players == 4:  # the partner opposite
            assert abs(after[1]["x"] - own["x"]) < 2 and after[1]["y"] < after[0]["y"], me
        # every seat at the table, each with its cards in hand and tricks
        assert page.locator(".trick-seats .seat .backs").count() == players
    assert len(drawn) == 1  # one drawing of the table for every seat and the spectator
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
        if mode == "digital":  # round the table from the next seat on, the same HTML for all
            after = [] if me is None else [s for s in range(3) if s > me] + [s for s in range(me)]
            assert laid_out(page, ".ring .ring-seat") == [f"seat-{s}" for s in after or range(3)]
    assert len(drawn) == 2  # one drawing for the seated phones, one for the spectator's heading
    context.close()
