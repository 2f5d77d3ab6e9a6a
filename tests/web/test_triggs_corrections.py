"""Triggs companion corrections (issue 18): any player proposes a fix of any sheet, its
owner confirms it on their own phone; a taken-back win resumes the game."""

import re

import pytest
from django.test import Client

from games.models import Table
from games.triggs.sheet import ROW_SIZES

pytestmark = pytest.mark.django_db


def table_of_two():
    ana, boris = Client(), Client()
    fields = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana", "first": "0"}
    code = ana.post("/es/play/", fields)["Location"].split("/")[3]
    boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    ana.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    return code, ana, boris


def move(client, code, seat, **fields):
    version = Table.objects.get(code=code).version
    data = {"seat": str(seat), "version": str(version), "action_id": f"id-{version:012d}"}
    return client.post(f"/es/t/{code}/act/", {**data, **fields})


def page(client, code):
    return " ".join(client.get(f"/es/t/{code}/").content.decode().split())


def sheets(code):
    return Table.objects.get(code=code).state["sheets"]


def test_an_entry_two_turns_back_is_corrected_once_its_owner_confirms():
    code, ana, boris = table_of_two()
    assert move(ana, code, 0, kind="cross", value="7", sets="2").status_code == 302
    assert move(boris, code, 1, kind="cross", value="5", sets="1").status_code == 302
    assert move(ana, code, 0, kind="cross", value="9", sets="1").status_code == 302
    # Boris saw Ana cross row 7 twice with one 7 and one 3+4 … that made 7 only once
    fix = {"kind": "correct", "target": "0", "value": "7", "crosses": "1"}
    assert move(boris, code, 1, **fix).status_code == 302
    assert sheets(code)[0][6] == 2  # not yet
    on_ana = page(ana, code)
    assert "Boris propone una corrección: fila 7 de Ana, 2 → 1." in on_ana
    assert 'value="confirm"' in on_ana and 'data-moment="correction"' in on_ana
    on_boris = page(boris, code)
    assert 'value="confirm"' not in on_boris and "Retirarla" in on_boris
    # only Ana confirms her sheet
    response = move(boris, code, 1, kind="confirm")
    assert response.status_code == 409 and "No hay ninguna corrección" in response.content.decode()
    assert move(ana, code, 0, kind="confirm").status_code == 302
    assert sheets(code)[0][6] == 1
    log = page(boris, code)
    assert "Boris propuso corregir la fila 7 de Ana: 1 espacio tachado." in log
    assert "Ana confirmó la corrección de su tabla." in log


def test_a_mistaken_winning_tap_is_taken_back_and_the_game_resumes():
    code, ana, boris = table_of_two()
    table = Table.objects.get(code=code)
    almost = list(ROW_SIZES[1:])
    almost[11] -= 1
    table.state["sheets"][0] = almost
    Table.objects.filter(pk=table.pk).update(state=table.state)
    assert move(ana, code, 0, kind="cross", value="12", sets="1").status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["phase"] == "over" and table.status == Table.Status.FINISHED
    # Ana tapped the wrong row: she takes it back on her own sheet, no one to ask
    undo = {"kind": "correct", "target": "0", "value": "12", "crosses": str(ROW_SIZES[12] - 1)}
    assert move(ana, code, 0, **undo).status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["phase"] == "play" and table.state["turn"] == 1
    assert table.status == Table.Status.PLAYING
    assert move(boris, code, 1, kind="cross", value="3", sets="1").status_code == 302


def test_a_correction_form_is_on_every_seated_phone_and_refusals_are_translated():
    code, ana, boris = table_of_two()
    html = page(ana, code)
    form = re.search(r'<form id="correct-form".*?</form>', html).group(0)
    assert 'name="target"' in form and ">Ana</option>" in form and ">Boris</option>" in form
    response = move(ana, code, 0, kind="correct", target="1", value="2", crosses="0")
    assert response.status_code == 409
    assert "Esa fila ya tiene esos espacios tachados." in response.content.decode()
    response = move(ana, code, 0, kind="correct", target="1", value="2", crosses="3")
    assert "Una fila admite de 0 espacios tachados" in response.content.decode()
    response = move(ana, code, 0, kind="correct", target="5", value="2", crosses="1")
    assert response.status_code == 400
