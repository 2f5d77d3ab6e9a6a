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


def test_the_declarers_and_the_tricks_pad_are_rendered_from_plain_data():
    from django.template.loader import render_to_string

    from games.triumfdrez.engine import TRICKS_MAX

    code, ana = table_of_two()
    html = ana.get(f"/fr/t/{code}/").content.decode()
    declarers = html[html.index('<select name="declarer">') :]
    assert re.findall(r'<option value="(\d)">', declarers[: declarers.index("</select>")]) == [
        "0",
        "1",
    ]
    move(ana, code, kind="contract", declarer="1", tricks="8", trump="queen", supertrump="2")
    html = ana.get(f"/fr/t/{code}/").content.decode()
    assert re.findall(r'<button name="tricks" value="(\d+)">\1</button>', html) == [
        str(n) for n in range(TRICKS_MAX + 1)
    ]
    escaped = render_to_string(
        "games/triumfdrez/_companion.html#auction",
        {"board": {"auction": [{"name": "<b>Ana</b>", "words": "5 bazas", "passed": False}]}},
    )
    assert '<li value="1"><strong>&lt;b&gt;Ana&lt;/b&gt;</strong>: 5 bazas</li>' in re.sub(
        r"\s+>", ">", escaped
    )
    passed = render_to_string(
        "games/triumfdrez/_companion.html#auction",
        {"board": {"auction": [{"name": "Boris", "words": "Paso", "passed": True}]}},
    )
    assert '<li value="1" class="pass"><strong>Boris</strong>: Paso</li>' in re.sub(
        r"\s+>", ">", passed
    )
