"""After the game (issue 18): the companion tables offer a rematch, the TriumfDrez hand
history names the sides with running totals, and the final screen ranks everyone."""

import re

import pytest
from django.test import Client

from games.models import Table
from games.triggs.sheet import ROW_SIZES

pytestmark = pytest.mark.django_db


def table(game, players, lang="es", **options):
    clients = [Client() for _ in range(players)]
    fields = {"game": game, "mode": "companion", "players": str(players), "name": "Ana"}
    code = clients[0].post(f"/{lang}/play/", {**fields, **options})["Location"].split("/")[3]
    for seat, name in enumerate(["Boris", "Chloé", "Dmitri"][: players - 1], start=1):
        clients[seat].post(f"/{lang}/join/{code}/", {"seat": str(seat), "name": name})
    clients[0].post(f"/{lang}/t/{code}/start/", {"action_id": "start-0001"})
    return code, clients


def move(client, code, seat, lang="es", **fields):
    version = Table.objects.get(code=code).version
    data = {"seat": str(seat), "version": str(version), "action_id": f"id-{version:012d}"}
    return client.post(f"/{lang}/t/{code}/act/", {**data, **fields})


def page(client, code, lang="es"):
    return " ".join(client.get(f"/{lang}/t/{code}/").content.decode().split())


def test_triumfdrez_history_names_the_sides_with_running_totals_then_ranks_them():
    code, (ana, boris, chloe, dmitri) = table("triumfdrez", 4, target="20", first="0")
    contract = {"kind": "contract", "trump": "rook", "supertrump": "4"}
    # hand 1: Ana's side bids 7 and takes 5: 7 + 2 × 2 = 11 to each opposing side
    assert move(ana, code, 0, declarer="0", tricks="7", **contract).status_code == 302
    assert move(ana, code, 0, kind="result", tricks="5").status_code == 302
    # hand 2: Boris's side bids 9 and takes 10: 9 + 2 × 1 = 11 more, 22 in all
    assert move(ana, code, 0, declarer="1", tricks="9", **contract).status_code == 302
    assert move(ana, code, 0, kind="result", tricks="10").status_code == 302
    html = page(boris, code)
    history = re.search(r'<table class="history">.*?</table>', html).group(0)
    assert '<th scope="col">Ana + Chloé</th><th scope="col">Boris + Dmitri</th>' in history
    rows = re.findall(r"<tr><td>\d.*?</tr>", history)
    assert '+0<span class="running">= 0</span>' in rows[0]
    assert '+11<span class="running">= 11</span>' in rows[0]
    assert '+11<span class="running">= 22</span>' in rows[1]
    ranking = re.search(r'<ol class="ranking".*?</ol>', html).group(0)
    places = re.findall(
        r'place">(\d)\.</span> <span class="who">([^<]+)</span> <span class="score">([^<]+)',
        ranking,
    )
    assert places == [("1", "Boris + Dmitri", "22 puntos"), ("2", "Ana + Chloé", "0 puntos")]
    # the host deals a new match; the others are told who can
    assert 'id="rematch-form"' not in html and "El anfitrión puede empezar" in html
    host = page(ana, code)
    action = re.search(r'<form method="post" action="([^"]+)" id="rematch-form">', host).group(1)
    assert ana.post(action, {"action_id": "rematch-0001"}).status_code == 302
    state = Table.objects.get(code=code).state
    assert state["phase"] == "auction" and state["scores"] == [0, 0] and state["history"] == []


def test_triggs_companion_ranks_the_sheets_and_deals_a_rematch():
    code, (ana, boris, chloe) = table("triggs", 3, lang="fr", first="0")
    t = Table.objects.get(code=code)
    almost = list(ROW_SIZES[1:])
    almost[0] -= 1
    t.state["sheets"] = [almost, [2] + [0] * 11, [1, 2] + [0] * 10]
    Table.objects.filter(pk=t.pk).update(state=t.state)
    assert move(ana, code, 0, lang="fr", kind="cross", value="1", sets="1").status_code == 302
    html = page(chloe, code, "fr")
    ranking = re.search(r'<ol class="ranking".*?</ol>', html).group(0)
    places = re.findall(
        r'place">(\d)\.</span> <span class="who">([^<]+)</span> <span class="score">([^<]+)',
        ranking,
    )
    assert places == [("1", "Ana", "42/42"), ("2", "Chloé", "3/42"), ("3", "Boris", "2/42")]
    assert "L’hôte peut distribuer une nouvelle partie à cette table." in html
    action = re.search(
        r'<form method="post" action="([^"]+)" id="rematch-form">', page(ana, code, "fr")
    ).group(1)
    assert ana.post(action, {"action_id": "rematch-0001"}).status_code == 302
    t = Table.objects.get(code=code)
    assert t.status == Table.Status.PLAYING and t.state["sheets"] == [[0] * 12] * 3


def test_equal_scores_share_a_place():
    from games.adapter import ranking

    ranked = ranking(
        [{"name": n, "score": s, "words": ""} for n, s in (("a", 3), ("b", 5), ("c", 3))]
    )
    assert [(r["name"], r["place"]) for r in ranked] == [("b", 1), ("a", 2), ("c", 2)]
