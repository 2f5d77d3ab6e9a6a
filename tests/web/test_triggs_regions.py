"""Each Triggs region declares what it reads (GameWeb.regions' third item): rendered from
only its declared context paths it comes out the same as from the whole context, in many
positions of both modes (tests/declared.py), for a spectator and for each seat."""

import random
import uuid

import pytest
from django.utils import translation

from games import live, render, services
from games.models import Seat, Table
from games.registry import get_game
from games.triggs import bots, companion, engine
from tests.declared import undeclared
from tests.tables import config

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
WEB = get_game("triggs").web


def new_table(mode: str, players: int, **options) -> Table:
    table, host, _token = services.create_table(
        "triggs", mode, config("triggs", mode, players, **options), NAMES[0]
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table


def digital_positions(players: int, seed: int) -> list[tuple[str, dict]]:
    """A greedy game from its deal to its end: the deal, every few moves, each chain of
    extra crosses under way, the end."""
    rng = random.Random(seed)
    state = engine.new_game({"players": players}, seed)
    found = [("fresh", state)]
    moves = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = engine.apply(
            state, seat, bots.greedy(engine.view(state, seat), engine.legal_actions(state), rng)
        )
        moves += 1
        if state["pending_extra"] and not any(name == "extra" for name, _ in found[-3:]):
            found.append(("extra", state))
        elif moves % 25 == 0:
            found.append((f"move {moves}", state))
    found.append(("over", state))
    return found


def companion_positions(players: int, seed: int, marker: bool) -> list[tuple[str, dict]]:
    """A random sheet game: the start, every few entries, chains of extra crosses, a
    correction waiting for its answer, a correction of one's own sheet, the end."""
    rng = random.Random(seed)
    state = companion.new_game({"players": players, "turn_marker": marker}, seed)
    found = [("fresh", state)]
    moves, corrected = 0, False
    while not companion.is_over(state):
        seat = companion.to_act(state)[0]
        legal = [a for a in companion.legal_actions(state, seat) if a["type"] != "undo"]
        crosses = [a for a in legal if a["type"] in ("cross", "extra")]
        state = companion.apply(state, seat, rng.choice(crosses or legal))
        moves += 1
        if state["extra_seat"] is not None and not any(n == "extra" for n, _ in found[-3:]):
            found.append(("extra", state))
        elif moves >= 20 and not corrected and state["phase"] == "play":
            corrected = True
            proposed = companion.apply(
                state,
                1,
                {
                    "type": "correct",
                    "seat": 0,
                    "value": 1,
                    "crosses": (state["sheets"][0][0] + 1) % 3,
                },
            )
            found.append(("correction waiting", proposed))
            own = companion.apply(
                state,
                0,
                {
                    "type": "correct",
                    "seat": 0,
                    "value": 2,
                    "crosses": (state["sheets"][0][1] + 1) % 3,
                },
            )
            found.append(("own correction", own))
        elif moves % 30 == 0:
            found.append((f"move {moves}", state))
    found.append(("over", state))
    finished = state
    found.append(
        (
            "correction after the end",
            companion.apply(
                finished,
                1,
                {
                    "type": "correct",
                    "seat": 0,
                    "value": 12,
                    "crosses": finished["sheets"][0][11] - 1,
                },
            ),
        )
    )
    return found


def check(table: Table, label: str, pending: dict | None = None) -> None:
    """Every region of the table's screen, for a spectator and for each seat."""
    Seat.objects.filter(table=table).update(pending="")
    for seat, pile in (pending or {}).items():
        Seat.objects.filter(table=table, index=seat).update(pending=f"{table.version}:{pile}")
    snap = live.snapshot(table)
    reads = WEB.reads(table.mode)
    for active in (None, *range(table.players)):
        phone = [] if active is None else [active]
        context = render.table_context(snap, phone, active, active == 0, None, "es")
        for name, template, _pane in WEB.screen(table.mode):
            assert reads[name] is not None, f"region {name} declares no reads"
            diff = undeclared(template, context, reads[name])
            assert diff is None, f"{label}, seat {active}, region {name}:\n{diff}"


def put(table: Table, state: dict) -> None:
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 11)])
def test_digital_regions_read_what_they_declare(players, seed):
    table = new_table("digital", players)
    with translation.override("es"):
        for label, state in digital_positions(players, seed):
            put(table, state)
            check(table, label)
            seat = engine.to_act(state)[0] if not engine.is_over(state) else None
            if seat is None or state["phase"] != "play":
                continue
            # a two-step draw under way: the first card taken from each pile it may be
            for pile in engine.PILE_NAMES:
                view = engine.view(state, seat)
                if view["draw_count"] == 2 and engine.first_draw_refusal(state, seat, pile) is None:
                    check(table, f"{label}, first card from {pile}", {seat: pile})


@pytest.mark.parametrize("players, seed, marker", [(2, 5, True), (3, 8, False), (4, 2, True)])
def test_companion_regions_read_what_they_declare(players, seed, marker):
    table = new_table("companion", players, turn_marker=marker)
    with translation.override("es"):
        for label, state in companion_positions(players, seed, marker):
            put(table, state)
            check(table, label)
