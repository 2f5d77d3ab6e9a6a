""" "Play now" fills before it creates, across server processes (issue 34): presses made
at the same moment for one game, split between the two daphne processes on one
PostgreSQL database, sit at the open tables until they are full instead of each opening a
table of its own (games.open_tables.play_now looks and sits or opens under a lock taken
per game)."""

import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.services.conftest import Browser

pytestmark = pytest.mark.services

PRESSES = 16
SEATS = 4  # a table "Play now" opens has the game's most players


def test_sixteen_presses_at_once_fill_four_tables_instead_of_opening_more(cluster):
    game = "triggs"
    # No open table of the game is waiting before the presses (none of the other tests
    # leaves one; a left-over one would take presses and add a table to count).
    cluster.query(
        "UPDATE games_table SET status = 'closed' WHERE open AND status = 'lobby'"
        " AND game = %s RETURNING id",
        game,
    )
    tag = secrets.token_hex(3)
    names = [f"P{n}-{tag}" for n in range(PRESSES)]
    browsers = [Browser(cluster.servers[n % 2].base) for n in range(PRESSES)]
    for browser in browsers:
        browser.get("/es/open/")  # the CSRF cookie, as the page gives it
    ready = threading.Barrier(PRESSES, timeout=30)

    def press(n: int):
        ready.wait()
        return browsers[n].post("/es/open/play/", {"game": game, "name": names[n]})

    with ThreadPoolExecutor(PRESSES) as pool:
        answers = list(pool.map(press, range(PRESSES)))

    codes = []
    for status, url, body in answers:
        match = re.search(r"/t/([A-Z0-9]{6})/", url)
        assert status == 200 and match, f"{status} {url} {body[-500:]}"
        codes.append(match.group(1))
    rows = cluster.query(
        "SELECT t.code, t.status, count(s.id), count(s.id) FILTER (WHERE s.token_hash <> '')"
        " FROM games_table t JOIN games_seat s ON s.table_id = t.id"
        " WHERE t.id IN (SELECT table_id FROM games_seat WHERE name = ANY(%s))"
        " GROUP BY t.code, t.status",
        names,
    )
    assert len(rows) == PRESSES // SEATS
    assert sorted(code for code, *_ in rows) == sorted(set(codes))
    # every table full, so dealt, and each press on a seat of its own
    assert all(row[1:] == ("playing", SEATS, SEATS) for row in rows), rows
    seated = cluster.query("SELECT name FROM games_seat WHERE name = ANY(%s)", names)
    assert sorted(name for (name,) in seated) == sorted(names)
