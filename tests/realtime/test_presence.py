"""Who is at the table (issue 19): every phone shows, for each person's seat, whether its
phone is connected and looked at, hidden, or gone, in words and a symbol, and hears of a
change at once (games.presence; across processes: tests/services/test_presence.py)."""

import re

import pytest

from games import presence
from tests.realtime.conftest import flash_of, seated_table

pytestmark = pytest.mark.django_db(transaction=True)


def said(page: str, name: str) -> str:
    """What the players' pane says of `name`: the symbol and the word."""
    section = re.search(r'<section class="presence".*?</section>', page, re.S)
    match = re.search(rf'aria-hidden="true">(.)</span> {name}: ([^<]+)</span>', section.group(0))
    return match.group(1) + " " + match.group(2) if match else ""


async def latest_presence(phone, name, wanted):
    """Wait for the page to say `wanted` of `name` (each step is one message)."""
    for _ in range(5):
        if said(phone.page.html, name) == wanted:
            return True
        await phone.next(presence=True, timeout=2)
    return said(phone.page.html, name) == wanted


async def test_a_phone_coming_hiding_and_going_is_seen_at_once_by_the_others(phone):
    table, tokens, _host = await seated_table(players=3)
    ana = phone(table.code, [tokens[0]], lang="es")
    assert await ana.connect()
    # Chloé never came: gone, on the players' pane and as a line on the play screen
    assert said(ana.page.html, "Chloé") == "○ sin conexión"
    assert "Chloé: sin conexión" in re.sub(r"<[^>]+>", "", ana.page.html)
    assert said(ana.page.html, "Ana") == "● en línea"
    boris = phone(table.code, [tokens[1]], lang="ru")
    assert await boris.connect()
    assert said(boris.page.html, "Ana") == "● в сети"  # its first screen knows already
    assert await latest_presence(ana, "Boris", "● en línea")
    await boris.send(kind="presence", state="away")
    assert await latest_presence(ana, "Boris", "◐ ausente")
    # a presence message is small: only the regions it changed, without the version
    assert 'id="table-meta"' not in ana.presence[-1] and len(ana.presence[-1]) < 1500
    await boris.send(kind="presence", state="here")
    assert await latest_presence(ana, "Boris", "● en línea")
    await boris.close()
    assert await latest_presence(ana, "Boris", "○ sin conexión")
    again = phone(table.code, [tokens[1]], lang="ru")
    assert await again.connect()  # back at once
    assert await latest_presence(ana, "Boris", "● en línea")
    assert said(again.page.html, "Boris") == "● в сети"


async def test_presence_is_per_seat_the_best_of_its_phones_and_spectators_have_none(phone):
    table, tokens, _host = await seated_table(players=2)
    watcher = phone(table.code, [])
    assert await watcher.connect()
    assert said(watcher.page.html, "Ana") == "○ sin conexión"
    first = phone(table.code, [tokens[0]])
    second = phone(table.code, [tokens[0]])  # Ana's tablet, too
    assert await first.connect() and await second.connect()
    assert await latest_presence(watcher, "Ana", "● en línea")
    await first.send(kind="presence", state="away")
    assert await watcher.receive_nothing(timeout=0.3)  # still looked at on the tablet
    assert said(watcher.page.html, "Ana") == "● en línea"
    await second.close()
    assert await latest_presence(watcher, "Ana", "◐ ausente")


@pytest.mark.parametrize("state", ["asleep", None, 3, ["away"]])
async def test_a_bad_presence_message_is_refused_and_changes_nothing(phone, state):
    table, tokens, _host = await seated_table(players=2)
    ana = phone(table.code, [tokens[0]], lang="fr")
    assert await ana.connect()
    await ana.send(kind="presence", state=state)
    html = await ana.next()
    assert "Cette demande n’a pas été comprise." in flash_of(html)
    assert await presence.NOTES.read(table.code) == {0: presence.HERE}


def test_the_best_fresh_note_of_each_seat_counts():
    now = 1000.0
    notes = [((0,), "away", now - 1), ((0, 2), "here", now - 2), ((1,), "here", now - 60)]
    assert presence.best(notes, now) == {0: "here", 2: "here"}  # seat 1's note is stale
    assert presence.best([((1,), "asleep", now)], now) == {}
