"""Highcard, the game that lives only in the tests (tests/highcard), over WebSockets: a
move by one phone reaches the other, no payload ever shows the other player's hand, a
computer player answers, and a move out of turn is refused in the phone's language with
nothing changed — all through the shared consumer, which does not know the game."""

import re

import pytest
from channels.db import database_sync_to_async

from games import consumers, services
from games.models import Table
from tests.highcard import engine
from tests.highcard.game import SLUG, installed
from tests.highcard.web import adapter
from tests.realtime.conftest import flash_of, version_of
from tests.tables import start_with_seed

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 424242


@pytest.fixture(autouse=True)
def highcard(settings, monkeypatch):
    settings.BOT_DELAY = 0  # the computer player moves inside the move that gave it the turn
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 1000.0)
    with installed() as game:
        yield game


@database_sync_to_async
def highcard_table(bot=False, seed=SEED):
    """Ana (seat 0) and Boris (seat 1), or a computer player on seat 1, dealt from `seed`."""
    table, host, ana = services.create_table(
        SLUG, "digital", adapter.config("digital", 2, {}), "Ana"
    )
    if bot:
        services.seat_bot(table, host, 1, "lowest")
        tokens = [ana]
    else:
        tokens = [ana, services.claim_seat(table, 1, "Boris")]
    start_with_seed(table, host, seed)
    return table, tokens


@database_sync_to_async
def reload(table):
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def set_state(table, state):
    Table.objects.filter(pk=table.pk).update(state=state)


def hand_of(html):
    return sorted(int(card) for card in re.findall(r'data-card="(\d+)"', html))


def cards_shown(html):
    """Every card value a render shows as a card: in a hand or on the table."""
    return {int(card) for card in re.findall(r'data-(?:card|played)="(\d+)"', html)}


def without_action_id(html):
    """A render without what differs per render or per phone: its action ids, the server's
    time and the phone's own CSRF token."""
    return re.sub(r'name="(?:action_id|csrfmiddlewaretoken)" value="\w+"| data-now="\d+"', "", html)


async def until(p, version):
    """The phone's renders until the one of `version` (or later)."""
    html = p.received[-1]
    while version_of(html) < version:
        html = await p.next()
    return html


async def test_a_move_reaches_the_other_phone_and_no_phone_sees_the_other_hand(phone):
    table, tokens = await highcard_table()
    ana = phone(table.code, [tokens[0]], seat=0)
    boris = phone(table.code, [tokens[1]], lang="ru", seat=1)
    watcher = phone(table.code, lang="fr")
    phones = {0: ana, 1: boris}
    for p in (ana, boris, watcher):
        assert await p.connect()
    seen_by = {0: set(), 1: set()}
    while True:
        table = await reload(table)
        state = table.state
        for seat, p in phones.items():
            html = p.received[-1]
            assert version_of(html) == table.version
            assert hand_of(html) == sorted(state["hands"][seat])
            hidden = set(state["hands"][1 - seat]) | set(state["stock"])
            assert not cards_shown(html) & hidden, (seat, cards_shown(html) & hidden)
            assert str(state["seed"]) not in html
            seen_by[seat] |= cards_shown(html)
        assert hand_of(watcher.received[-1]) == []  # a spectator holds no hand
        assert not cards_shown(watcher.received[-1]) & {c for hand in state["hands"] for c in hand}
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        card = min(state["hands"][seat])
        await phones[seat].act(seat, table.version, kind="play", card=str(card))
        for p in (ana, boris, watcher):
            html = await p.next()
            assert version_of(html) == table.version + 1
        # the move reached the other phone: on the table, or in the last round, and logged
        other = phones[1 - seat].received[-1]
        assert card in cards_shown(other)
        assert f"{('Ana', 'Boris')[seat]} played {card}." in other
    assert state["winner"] in (0, 1)
    winner = ("Ana", "Boris")[state["winner"]]
    for p in (ana, boris, watcher):
        assert f"{winner} wins the game." in p.received[-1]
        await p.close()


async def test_a_render_does_not_change_with_what_its_seat_may_not_see(phone):
    table, tokens = await highcard_table()
    ana = phone(table.code, [tokens[0]], seat=0)
    assert await ana.connect()
    before = ana.received[-1]
    state = table.state
    # Boris's hand and the undealt cards swapped: a different deal for everyone but Ana
    other = {
        **state,
        "hands": [state["hands"][0], state["stock"][:3]],
        "stock": state["hands"][1] + state["stock"][3:],
    }
    await set_state(table, other)
    again = phone(table.code, [tokens[0]], seat=0)  # a fresh render of the edited table
    assert await again.connect()
    after = again.received[-1]
    assert without_action_id(after) == without_action_id(before)
    await ana.close()


async def test_a_computer_player_answers_over_the_websocket(phone):
    table, tokens = await highcard_table(bot=True)
    ana = phone(table.code, [tokens[0]], seat=0)
    assert await ana.connect()
    card, answer = max(table.state["hands"][0]), min(table.state["hands"][1])
    # Ana's move and the computer's reply; if the reply wins the round, it leads the next
    moves = 2 if card > answer else 3
    await ana.act(0, table.version, kind="play", card=str(card))
    html = await until(ana, table.version + moves)
    after = await reload(table)
    assert after.version == table.version + moves
    reply = after.state["last_round"]["cards"][1]
    assert reply == {"seat": 1, "card": answer}
    assert f"Ordenador 2 played {reply['card']}." in html
    await ana.close()


async def test_out_of_turn_is_refused_in_the_phones_language_and_changes_nothing(phone):
    table, tokens = await highcard_table()
    ana = phone(table.code, [tokens[0]], lang="el", seat=0)
    boris = phone(table.code, [tokens[1]], lang="el", seat=1)
    assert await ana.connect() and await boris.connect()
    assert engine.to_act(table.state) == [0]
    await boris.act(1, table.version, kind="play", card=str(table.state["hands"][1][0]))
    html = await boris.next()
    refused = flash_of(html)
    assert "Δεν είναι η σειρά σας." in refused
    assert f'href="/el/rules/{SLUG}/#H-PLAY"' in refused
    assert version_of(html) == table.version  # the refusal comes with a fresh render
    assert await ana.receive_nothing(timeout=0.3)  # nothing happened at the table
    after = await reload(table)
    assert (after.state, after.version) == (table.state, table.version)
    # its own refusals are its adapter's plain words; a malformed card is not understood
    await ana.act(0, table.version, kind="play", card=str(table.state["hands"][1][0]))
    assert "You do not hold that card." in flash_of(await ana.next())
    await ana.act(0, table.version, kind="play", card="99")
    assert "Το αίτημα δεν έγινε κατανοητό." in flash_of(await ana.next())
    after = await reload(table)
    assert (after.state, after.version) == (table.state, table.version)
    await ana.close()
    await boris.close()
