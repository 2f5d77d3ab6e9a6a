"""Say something in your own language (issue 19): a phrase is sent as a key and each phone
shows it in its own language; rate-limited, seats only, and the host can switch them off."""

import re

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Table
from tests.realtime.conftest import flash_of, seated_table

pytestmark = pytest.mark.django_db(transaction=True)

LANGS = ("el", "ru", "es", "fr")


def said(page: str) -> str:
    match = re.search(r'<div id="table-said"[^>]*>(.*?)</div>', page, re.S)
    text = re.sub(r"<[^>]+>", "", match.group(1)).strip() if match else ""
    return text.replace("\u00a0", " ")  # French spaces its punctuation


async def heard(phone, timeout=2) -> str:
    """The next phrase this phone is shown (other messages passed over)."""
    for _ in range(6):
        await phone.next(presence=True, timeout=timeout)
        if said(phone.presence[-1] if phone.presence else ""):
            return said(phone.presence[-1])
    raise AssertionError("no phrase heard")


async def test_a_phrase_reaches_every_phone_in_its_own_language(phone):
    table, tokens, _host = await seated_table(game="triumfdrez", players=4)
    phones = [phone(table.code, [tokens[i]], lang=LANGS[i]) for i in range(4)]
    for p in phones:
        assert await p.connect()
    await phones[0].send(kind="say", phrase="good_game")  # Ana, in Greek
    words = [await heard(p) for p in phones]
    assert words == [
        "Ana: «Καλή παρτίδα!»",
        "Ana: «Хорошей игры!»",
        "Ana: «¡Buen juego a todos!»",
        "Ana : « Bonne partie ! »",
    ]
    await phones[1].send(kind="say", phrase="what_a_contract")  # the game's own
    assert await heard(phones[3]) == "Boris : « Quel contrat ! »"
    assert table.version == (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version


async def test_a_seat_says_one_phrase_at_a_time_however_many_tabs_it_has_open(phone, settings):
    """The limit counts per seat, not per socket (issue 34, item 6): eight tabs of one seat
    (on two processes, say) say one phrase in phrases.EVERY seconds, another seat is not
    held back."""
    settings.WS_SOCKETS_PER_SEAT = 8
    table, tokens, _host = await seated_table(game="triggs", players=2)
    tabs = [phone(table.code, [tokens[0]], lang="es") for _ in range(8)]
    boris = phone(table.code, [tokens[1]], lang="es")
    for tab in [*tabs, boris]:
        assert await tab.connect()
    for tab in tabs:
        await tab.send(kind="say", phrase="thanks")
    refused = 0
    for tab in tabs[1:]:
        refused += "Demasiados mensajes" in flash_of(await tab.next())
    assert refused == len(tabs) - 1
    assert await heard(boris) == "Ana: «¡Gracias!»"  # once
    await boris.send(kind="say", phrase="thanks")
    assert await heard(boris) == "Boris: «¡Gracias!»"  # not held back by Ana's


async def test_phrases_are_rate_limited_for_seats_only_and_the_host_can_switch_them_off(phone):
    table, tokens, host = await seated_table(game="triggs", players=2)
    ana = phone(table.code, [tokens[0]], lang="fr")
    watcher = phone(table.code, [], lang="fr")
    assert await ana.connect() and await watcher.connect()
    await ana.send(kind="say", phrase="nice_chain")
    assert await heard(watcher) == "Ana : « Belle chaîne ! »"
    await ana.send(kind="say", phrase="thanks")  # at once again: too soon
    assert "Trop de messages à la fois" in flash_of(await ana.next())
    await watcher.send(kind="say", phrase="thanks")  # a spectator holds no seat
    assert "Ce téléphone n’occupe pas cette place." in flash_of(await watcher.next())
    assert await database_sync_to_async(services.set_phrases)(table, host, False)
    page = await ana.next()
    assert "L’hôte a désactivé les phrases de table." in page  # instead of the list
    await watcher.next()  # the table as the host left it
    await ana.send(kind="say", phrase="thanks")
    assert "L’hôte a désactivé les phrases de table." in flash_of(await ana.next())
    assert await watcher.receive_nothing(timeout=0.3)
    assert not said(watcher.page.html) or "Belle chaîne" in said(watcher.page.html)


@pytest.mark.parametrize("bad", ["what_a_contract", "hello", "", ["thanks"], "x" * 500])
async def test_a_phrase_the_game_does_not_have_is_refused(phone, bad):
    table, tokens, _host = await seated_table(game="triggs", players=2)
    ana, boris = phone(table.code, [tokens[0]], lang="fr"), phone(table.code, [tokens[1]])
    assert await ana.connect() and await boris.connect()
    await ana.send(kind="say", phrase=bad)
    assert "Cette demande n’a pas été comprise." in flash_of(await ana.next())
    assert await boris.receive_nothing(timeout=0.3)
    assert not said(boris.page.html)
