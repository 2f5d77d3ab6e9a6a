"""Digital Triggs over WebSockets: hidden hands stay hidden in every payload, bots play
through the same service as people, and refused moves change nothing."""

import random
import re
from collections import Counter

import pytest
from channels.db import database_sync_to_async

from games import consumers, services
from games.models import Action, Table
from games.triggs import engine
from games.triggs.bots import greedy
from tests.realtime.conftest import flash_of, version_of
from tests.tables import config, start_with_seed

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 20240611
BOTS = {2: "strong", 3: "greedy"}


@pytest.fixture(autouse=True)
def quick(settings, monkeypatch):
    settings.BOT_DELAY = 0  # bots move at once, inside the request that gave them the turn
    # the test's people play far faster than any thumb: lift the phone's rate limit
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)


@database_sync_to_async
def digital_table(players=4, bots=BOTS, seed=SEED, start=True):
    """Ana (seat 0) and Boris (seat 1) are people; the other seats are computer players."""
    table, host, ana = services.create_table(
        "triggs", "digital", config("triggs", "digital", players), "Ana"
    )
    tokens = [ana, services.claim_seat(table, 1, "Boris")]
    for index, level in bots.items():
        services.seat_bot(table, host, index, level)
    if start:
        start_with_seed(table, host, seed)
    table.refresh_from_db()
    return table, tokens, host


@database_sync_to_async
def reload(table):
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def log_of(table):
    return list(Action.objects.filter(table=table).order_by("version"))


@database_sync_to_async
def set_state(table, state):
    Table.objects.filter(pk=table.pk).update(state=state)


def fields_for(action):
    """An engine action as the digital panel's form fields."""
    kind = action["type"]
    if kind == "draw":
        sources = action["from"]
        return {"kind": "draw", "first": sources[0], "second": "".join(sources[1:])}
    if kind == "discard":
        return {"kind": "discard", "card": [str(action["value"])] * action["count"]}
    if kind == "cross":
        sets = "|".join("+".join(map(str, s)) for s in action["sets"])
        return {"kind": "cross", "value": str(action["value"]), "sets": sets}
    return {"kind": "extra", "value": str(action["value"])}


def replay(config, log):
    """The table's state at each version, from its seed and log."""
    states = {}
    state = None
    for row in log:
        if row.action["type"] == "start":
            state = engine.new_game(config, row.action["seed"])
        else:
            state = engine.apply(state, row.seat, row.action)
        states[row.version] = state
    return states


def pile(html, name):
    """(top card shown, count shown) of a pile in a render."""
    block = re.search(rf'data-pile="{name}".*?pile-count">(\d+)<', html, re.S)
    top = re.search(r'data-pile-top="(\d+)"', block.group(0))
    return (int(top.group(1)) if top else None), int(block.group(1))


def check_message(html, state, seat):
    """Every card a message shows is in `seat`'s hand; one-tap crosses use only those."""
    seen = engine.view(state, seat)
    hand = Counter(seen.get("hand", []))
    assert not Counter(int(card) for card in re.findall(r'data-card="(\d+)"', html)) - hand
    for sets in re.findall(r'name="sets" value="([0-9+|]+)"', html):
        laid = Counter(int(card) for part in sets.split("|") for card in part.split("+"))
        assert not laid - hand
    assert str(state["seed"]) not in html


def check_payload(html, state, seat):
    """The page as the messages left it: everything it shows of cards is in `seat`'s view,
    and all of its hand is."""
    seen = engine.view(state, seat)
    cards = sorted(int(card) for card in re.findall(r'data-card="(\d+)"', html))
    assert cards == (seen["hand"] if seat is not None else [])
    for name in ("left", "right"):
        assert pile(html, name) == (seen["piles"][name]["top"], seen["piles"][name]["count"])
    assert pile(html, "stock") == (None, seen["piles"]["stock"]["count"])
    assert pile(html, "discard") == (seen["discard"]["top"], seen["discard"]["count"])
    # one-tap crosses only ever use cards of this seat's own hand
    hand = Counter(seen.get("hand", []))
    for sets in re.findall(r'name="sets" value="([0-9+|]+)"', html):
        laid = Counter(int(card) for part in sets.split("|") for card in part.split("+"))
        assert not laid - hand
    assert str(state["seed"]) not in html


async def test_a_whole_game_shows_each_phone_its_own_view_only(phone):
    table, tokens, _host = await digital_table()
    ana = phone(table.code, [tokens[0]], lang="fr")
    boris = phone(table.code, [tokens[1]], lang="ru")
    watcher = phone(table.code, lang="el")
    watcher_es = phone(table.code, lang="es")
    phones = {0: ana, 1: boris}
    everyone = [(ana, 0), (boris, 1), (watcher, None), (watcher_es, None)]
    for p, _seat in everyone:
        assert await p.connect()
    rng = random.Random(SEED)
    for _turn in range(400):
        table = await reload(table)
        state = table.state
        if state["phase"] == "over":
            break
        seat = state["turn"]
        assert seat in phones, "a bot's turn is left for a person"
        action = greedy(engine.view(state, seat), engine.legal_actions(state), rng)
        await phones[seat].act(seat, table.version, **fields_for(action))
        while version_of(await phones[seat].next()) <= table.version:
            pass
        final = (await reload(table)).version  # the bots have played by now
        for p, _seat in everyone:
            while version_of(p.received[-1]) < final:
                await p.next()
    else:
        pytest.fail("the game did not end")
    table = await reload(table)
    assert table.status == Table.Status.FINISHED
    log = await log_of(table)
    states = replay(table.config, log)
    assert states[table.version] == table.state
    for p, seat in everyone:
        assert len(p.received) > 20
        assert not [h for h in p.received if 'class="error"' in flash_of(h)]
        for message, page in zip(p.received, p.pages, strict=True):
            check_message(message, states[version_of(message)], seat)
            check_payload(page, states[version_of(page)], seat)
    assert 'id="winner"' in ana.pages[-1]
    # every move of a bot seat came from a bot, and bots never moved for a person
    for row in log[1:]:
        assert row.client_action_id.startswith("bot:") == (row.seat in BOTS)
    assert {row.seat for row in log[1:]} == {0, 1, 2, 3}
    for p, _seat in everyone:
        await p.close()


async def refused(p, table, seat, **fields):
    """Send a move; return the refusal's flash, checking that nothing changed."""
    before = await reload(table)
    await p.act(seat, before.version, **fields)
    html = await p.next()
    after = await reload(table)
    assert (after.version, after.state) == (before.version, before.state)
    assert version_of(html) == before.version
    check_payload(html, after.state, seat)
    return flash_of(html)


async def test_out_of_turn_forged_and_impossible_moves_are_refused(phone):
    table, tokens, _host = await digital_table(players=2, bots={}, start=True)
    state = table.state
    # Ana's turn, with a known hand; Boris is not to act
    state.update(turn=0, hands=[[3, 5, 5, 8, 11], state["hands"][1]])
    await set_state(table, state)
    ana = phone(table.code, [tokens[0]])
    boris = phone(table.code, [tokens[1]])
    assert await ana.connect() and await boris.connect()

    before = await reload(table)
    await boris.act(1, before.version, kind="draw", first="stock", second="stock")
    html = await boris.next()
    assert "#T-SETUP-3" in flash_of(html)  # not your turn
    after = await reload(table)
    assert (after.version, after.state) == (before.version, before.state)

    flash = await refused(ana, table, 0, kind="discard", card=["7"])
    assert "#T-B" in flash  # a card Ana does not hold
    flash = await refused(ana, table, 0, kind="cross", value="11", sets="11|7+4")
    assert "#T-B" in flash  # cards_not_in_hand is a T-B code
    flash = await refused(ana, table, 0, kind="discard", card=["5", "8"])
    assert "#T-B" in flash  # mixed values
    flash = await refused(ana, table, 0, kind="cross", value="11", card=["3", "5"])
    assert "#T-C" in flash  # 3 + 5 is not 11

    # the left pile is empty and the discard pile cannot refill it
    table = await reload(table)
    state = table.state
    state["piles"]["stock"] += state["piles"]["left"] + state["discard"]
    state["piles"]["left"], state["discard"] = [], []
    await set_state(table, state)
    flash = await refused(ana, table, 0, kind="draw", first="left", second="stock")
    assert "#T-REFILL" in flash
    await ana.close()
    await boris.close()


async def test_bots_never_play_a_person_s_seat(phone):
    # only people: nothing moves until someone acts
    table, tokens, _host = await digital_table(players=2, bots={})
    ana = phone(table.code, [tokens[0]])
    assert await ana.connect()
    assert await ana.receive_nothing(timeout=0.3)
    assert [row.seat for row in await log_of(table)] == [None]
    await ana.close()


async def test_a_spectator_is_never_shown_a_hand(phone):
    table, _tokens, _host = await digital_table()
    watcher = phone(table.code)
    assert await watcher.connect()
    html = watcher.pages[0]
    assert "data-card=" not in html and 'id="hand"' not in html
    check_payload(html, (await reload(table)).state, None)
    await watcher.close()
