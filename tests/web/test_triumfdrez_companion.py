"""TriumfDrez companion (issue 18): a contract entered directly, with no auction, can be
taken back like any other entry until the hand is confirmed."""

import re

import pytest
from django.test import Client

from games.models import Table

pytestmark = pytest.mark.django_db


def table_of_two():
    host, guest = Client(), Client()
    fields = {"game": "triumfdrez", "mode": "companion", "players": "2", "name": "Ana"}
    code = host.post("/fr/play/", {**fields, "target": "50"})["Location"].split("/")[3]
    guest.post(f"/fr/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/fr/t/{code}/start/", {"action_id": "start-0001"})
    return code, host


def move(client, code, **fields):
    version = Table.objects.get(code=code).version
    data = {"seat": "0", "version": str(version), "action_id": f"id-{version:012d}", **fields}
    return client.post(f"/fr/t/{code}/act/", data)


def test_a_contract_entered_directly_can_be_taken_back():
    code, ana = table_of_two()
    wrong = {"declarer": "1", "tricks": "9", "trump": "rook", "supertrump": "4"}
    assert move(ana, code, kind="contract", **wrong).status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["phase"] == "tricks" and table.state["contract"]["tricks"] == 9
    html = ana.get(f"/fr/t/{code}/").content.decode()
    assert re.search(r'value="undo_bid"[^>]*>\s*↶ Reprendre le contrat', html)
    assert move(ana, code, kind="undo_bid").status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["phase"] == "auction" and table.state["contract"] is None
    right = {"declarer": "0", "tricks": "7", "trump": "rook", "supertrump": "4"}
    assert move(ana, code, kind="contract", **right).status_code == 302
    assert Table.objects.get(code=code).state["contract"]["seat"] == 0


def test_the_declaring_side_is_named_in_words_not_only_a_star():
    code, ana = table_of_two()
    contract = {"declarer": "1", "tricks": "8", "trump": "queen", "supertrump": "2"}
    move(ana, code, kind="contract", **contract)
    html = ana.get(f"/fr/t/{code}/").content.decode()
    row = html[html.index('class="declaring"') :]
    assert "★" in row[:400] and "le camp déclarant" in row[:400]


def test_the_declarers_and_the_tricks_pad_are_written_once():
    from games.triumfdrez import web

    web.seat_options.cache_clear()
    options = web.seat_options(((0, "<b>Ana</b>"), (1, "Boris")))
    assert web.seat_options(((0, "<b>Ana</b>"), (1, "Boris"))) is options
    assert options == (
        '<option value="0">&lt;b&gt;Ana&lt;/b&gt;</option><option value="1">Boris</option>'
    )
    assert type(options) is str  # plain data for the region's digest
    assert re.findall(r'<button name="tricks" value="(\d+)">\1</button>', web.TRICKS_PAD) == [
        str(n) for n in range(14)
    ]


def test_an_auction_line_is_written_once_per_content():
    from games.triumfdrez import web

    web.auction_line.cache_clear()
    bid = web.auction_line("<b>Ana</b>", "5 bazas · ♞ Caballo", False)
    assert web.auction_line("<b>Ana</b>", "5 bazas · ♞ Caballo", False) is bid
    assert bid == "<li><strong>&lt;b&gt;Ana&lt;/b&gt;</strong>: 5 bazas · ♞ Caballo</li>"
    assert web.auction_line("Boris", "Paso", True) == (
        '<li class="pass"><strong>Boris</strong>: Paso</li>'
    )
    assert type(bid) is str  # plain data for the region's digest
