"""Each TriumfDrez region declares every context path its template reads
(TriumfDrezWeb.regions' reads, tests/declared.py): rendered from its declared reads alone
it comes out as from the whole context, for a spectator and every seat, in positions of
both modes and 2 to 4 players: an auction with bids and passes, a trick half played, an
open contract, a hand over, a match over."""

import random
import uuid

import pytest
from django.utils import translation

from games import live, render, services
from games.registry import get_game
from tests.declared import undeclared
from tests.tables import config

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "<b>Boris</b>", "Chloé", "Dmitri")


def new_table(mode: str, players: int):
    table, host, _token = services.create_table(
        "triumfdrez", mode, config("triumfdrez", mode, players, target=30), NAMES[0]
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table


def choose(state: dict, legal: list[dict], rng: random.Random, open_bids: bool) -> dict:
    """A bid or a pass in turn, an open bid when `open_bids`, any card in play; on the
    tracker, a result that makes or breaks the contract."""
    passes = [a for a in legal if a["type"] == "pass"]
    bids = [a for a in legal if a["type"] == "bid" and a["open"] == open_bids]
    if passes and (not bids or rng.random() < 0.5):
        return passes[0]
    if bids:
        return rng.choice(bids[:40])
    moves = [a for a in legal if not a["type"].startswith("undo")]
    return rng.choice(moves)


def check(table, seen: set) -> None:
    """Every region of the table's screen, for a spectator and each seat."""
    web = get_game("triumfdrez").web
    reads = web.reads(table.mode)
    snap = live.snapshot(table)
    phase = table.state["phase"]
    seen.add(phase)
    if table.state.get("auction") and any(e.get("pass") for e in table.state["auction"]):
        seen.add("passes")
    if table.state.get("trick"):
        seen.add("mid-trick")
    if (table.state.get("contract") or {}).get("open") and phase == "play":
        seen.add("open")
    for active in (None, *range(table.state["players"])):
        phones = [] if active is None else [active]
        context = render.table_context(snap, phones, active, active == 0)
        for name, template, _pane in web.screen(table.mode):
            assert reads[name] is not None, name
            diff = undeclared(template, context, reads[name])
            assert diff is None, (name, phase, active, diff)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["digital", "companion"])
def test_every_region_renders_from_what_it_declares(mode, players):
    rng = random.Random(f"{mode}-{players}")
    table = new_table(mode, players)
    engine = get_game("triumfdrez").engine(mode)
    seen: set = set()
    hands = 0
    with translation.override("fr"):
        check(table, seen)
        for step in range(2000):
            state = table.state
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            if state["phase"] in ("hand_over", "tricks"):
                hands += 1
            action = choose(state, engine.legal_actions(state), rng, open_bids=hands % 2 == 0)
            services.apply_action(table, seat, action, table.version, uuid.uuid4().hex)
            table.refresh_from_db()
            # every position of the auctions and the first trick, then every few
            if state["phase"] != "play" or len(state["trick"]) < players or step % 5 == 0:
                check(table, seen)
        check(table, seen)
    expected = {"auction", "passes", "match_over"}
    if mode == "digital":
        expected |= {"play", "mid-trick", "open", "hand_over"}
    else:
        expected |= {"tricks"}
    assert expected <= seen, expected - seen
