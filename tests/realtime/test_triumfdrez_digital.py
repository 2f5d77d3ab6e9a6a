"""Digital TriumfDrez over WebSockets: over a whole seeded hand with four phones, every
payload shows only cards that phone may see — its own hand, the trick on the table, the
last trick, and an open contract's hands once play has begun (D-OPEN)."""

import random
import re

import pytest
from channels.db import database_sync_to_async

from games import consumers, services
from games.models import Table
from games.triumfdrez import engine
from tests.realtime.conftest import flash_of, version_of
from tests.tables import config, start_with_seed

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ana", "Boris", "Chloé", "Dmitri")


@pytest.fixture(autouse=True)
def quick(settings, monkeypatch):
    settings.BOT_DELAY = 0
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)


@database_sync_to_async
def four_people(seed):
    table, host, token0 = services.create_table(
        "triumfdrez", "digital", config("triumfdrez", "digital", 4), NAMES[0]
    )
    tokens = [token0] + [services.claim_seat(table, i, NAMES[i]) for i in range(1, 4)]
    start_with_seed(table, host, seed)
    return table, tokens


@database_sync_to_async
def state_of(table):
    return Table.objects.get(pk=table.pk).state


def visible_cards(state, seat):
    """Every card the seat may see at this state, worked out from the rules, not from the
    engine's view: its own hand, the trick on the table, the last trick, and the declaring
    side's hands in an open contract once play has begun (D-OPEN)."""
    cards = set(state["hands"][seat]) if seat is not None else set()
    cards |= {play["card"] for play in state["trick"]}
    if state.get("last_trick"):
        cards |= {play["card"] for play in state["last_trick"]["cards"]}
    contract = state["contract"]
    if contract and contract["open"] and state["phase"] != "auction":
        declaring = next(team for team in state["teams"] if contract["seat"] in team)
        for member in declaring:
            cards |= set(state["hands"][member])
    return cards


def fields_for(action):
    if action["type"] == "bid":
        return {
            "kind": "bid",
            "tricks": str(action["tricks"]),
            "trump": action["trump"] or "",
            "supertrump": "" if action["supertrump"] is None else str(action["supertrump"]),
            **({"open": "on"} if action["open"] else {}),
        }
    if action["type"] == "play":
        return {"kind": "play", "card": action["card"]}
    return {"kind": action["type"]}


@pytest.mark.parametrize("seed, open_contract", [(7, False), (11, True)])
async def test_every_payload_of_a_whole_hand_shows_only_that_phones_cards(
    phone, seed, open_contract
):
    table, tokens = await four_people(seed)
    phones = [phone(table.code, [tokens[s]], seat=s) for s in range(4)]
    watcher = phone(table.code)
    for p in (*phones, watcher):
        assert await p.connect()
    rng = random.Random(seed)
    payloads = 0
    while True:
        state = await state_of(table)
        if state["phase"] != "auction" and state["phase"] != "play":
            break
        legal = engine.legal_actions(state)
        if state["phase"] == "auction":
            # The first bidder opens (openly, in the second game); everyone else passes.
            bids = [a for a in legal if a["type"] == "bid" and a["open"] == open_contract]
            action = next((a for a in legal if a["type"] == "pass"), None) or bids[0]
        else:
            action = rng.choice(legal)
        seat = state["turn"]
        version = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
        await phones[seat].act(seat, version, **fields_for(action))
        pages = [await p.next() for p in phones]  # the move is applied once these arrive
        after = await state_of(table)
        for s, html in enumerate(pages):
            assert version_of(html) == version + 1
            shown = set(re.findall(r'data-card-id="([a-z]+-\d)"', html))
            assert shown <= visible_cards(after, s), (s, shown - visible_cards(after, s))
            hand = re.findall(r'data-card="([a-z]+-\d)"', html)
            assert sorted(hand) == sorted(after["hands"][s])
            payloads += 1
        html = await watcher.next()
        assert not re.findall(r'data-card="', html)  # a spectator holds no hand
        assert set(re.findall(r'data-card-id="([a-z]+-\d)"', html)) <= visible_cards(after, None)
    assert state["phase"] == "hand_over"
    assert payloads >= 4 * 52
    if open_contract:
        assert state["contract"]["open"]
    for p in (*phones, watcher):
        await p.close()


async def test_out_of_turn_and_illegal_cards_are_refused_with_the_rule(phone):
    table, tokens = await four_people(5)
    state = await state_of(table)
    bidder = state["turn"]
    other = (bidder + 1) % 4
    p = phone(table.code, [tokens[other]], lang="el", seat=other)
    assert await p.connect()
    await p.act(other, table.version, kind="bid", tricks="3", trump="rook", supertrump="4")
    html = await p.next()
    assert "Δεν είναι η σειρά σας" in flash_of(html)
    assert (await state_of(table)) == state
    first = phone(table.code, [tokens[bidder]], lang="el", seat=bidder)
    assert await first.connect()
    await first.act(bidder, table.version, kind="pass")
    html = await first.next()
    assert "#D-AUCTION" in flash_of(html)  # the first bidder must bid
    await first.act(bidder, table.version, kind="play", card="joker-9")
    html = await first.next()
    assert 'class="error"' in flash_of(html)
    assert (await state_of(table)) == state
