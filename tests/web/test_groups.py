"""A group and its league (issue 20): an invite link, tables tagged by members, a rating
per game with openskill (Triggs each against all, TriumfDrez by sides) that counts each
finished game once and comes out the same from the replayed log; head-to-head records;
a player's data to download and delete."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import replay
from games.models import Seat
from players import league
from players.models import Group, Player
from tests.web.test_players import create, join, play, start

pytestmark = pytest.mark.django_db


def group_of(client, name="Jueves") -> Group:
    response = client.post("/es/groups/new/", {"name": name})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Group.objects.get(code=response["Location"].split("/")[3])


def invite(client, group) -> str:
    html = client.get(f"/es/g/{group.code}/").content.decode()
    return re.search(r'class="share-link" readonly value="([^"]+)"', html).group(1)


def finished_table(phones, names, game="triggs", seed=1):
    table = create(phones[0], game=game, name=names[0])
    for seat in range(1, table.players):
        join(phones[seat], table, seat, names[seat])
    return play(start(phones[0], table), seed=seed)


def tag(client, group, table):
    response = client.post(f"/es/g/{group.code}/", {"table": table.code})
    assert response.status_code == 302, response.content.decode()[:3000]


def test_a_group_invites_ranks_and_counts_each_game_once():
    ana, boris, chloe, dmitri = Client(), Client(), Client(), Client()
    first = finished_table([ana, boris], ["Ana", "Boris"])  # the phones get their players
    group = group_of(ana)
    link = invite(ana, group)
    # a stranger cannot see the group; the link lets them in
    assert boris.get(f"/es/g/{group.code}/").status_code == 403
    assert boris.post(link.replace(link.rsplit("/", 2)[1], "forged")).status_code == 403
    assert boris.post(link).status_code == 302
    assert {p.name for p in group.members.all()} == {"Ana", "Boris"}
    # a phone that never sat down joins with a name
    page = chloe.post(link, {"player_name": "Chloé"})
    assert page.status_code == 302
    tag(ana, group, first)
    second = finished_table([boris, ana], ["Boris", "Ana"], seed=2)
    tag(boris, group, second)
    # a table none of the member's seats were at cannot be added
    other = finished_table([dmitri, Client()], ["Dmitri", "Eve"], seed=3)
    response = chloe.post(f"/es/g/{group.code}/", {"table": other.code})
    assert response.status_code == 400 and not group.tables.filter(pk=other.pk).exists()
    rated = league.ratings(group)["triggs"]
    ana_id = Player.objects.get(name="Ana").pk
    assert rated[ana_id]["played"] == 2  # each finished game once
    # the same league from the replayed logs
    again = league.ratings(group, state_of=lambda table: replay.replay_table(table).final)["triggs"]
    assert {k: (v["rating"].mu, v["rating"].sigma, v["won"]) for k, v in rated.items()} == {
        k: (v["rating"].mu, v["rating"].sigma, v["won"]) for k, v in again.items()
    }
    # tagging the same table twice changes nothing
    ana.post(f"/es/g/{group.code}/", {"table": first.code})
    assert league.ratings(group)["triggs"][ana_id]["played"] == 2
    for lang in ("es", "el", "ru", "fr"):
        html = ana.get(f"/{lang}/g/{group.code}/").content.decode()
        assert "Ana" in html and "Boris" in html and 'class="league"' in html
        assert first.code in html and second.code in html
    records = league.head_to_head(group)
    assert (
        len(records) == 1 and records[0]["wins"] + records[0]["losses"] + records[0]["draws"] == 2
    )
    assert records[0]["game"] == "Triggs"


def test_triumfdrez_is_rated_by_sides():
    phones = [Client() for _ in range(4)]
    table = finished_table(phones, ["Ana", "Boris", "Chloé", "Dmitri"], game="triumfdrez")
    group = group_of(phones[0])
    for phone in phones[1:]:
        phone.post(invite(phones[0], group))
    tag(phones[0], group, table)
    rated = league.ratings(group)["triumfdrez"]
    by_name = {Player.objects.get(pk=pk).name: entry for pk, entry in rated.items()}
    teams = table.state["teams"]
    # partners end with the same rating change: same side, same result
    for team in teams:
        names = [table.seats.get(index=i).name for i in team]
        assert len({round(by_name[n]["rating"].mu, 9) for n in names}) == 1
        assert len({by_name[n]["won"] for n in names}) == 1


def test_a_player_downloads_and_deletes_their_data():
    ana, boris = Client(), Client()
    table = finished_table([ana, boris], ["Ana", "Boris"])
    ana.post("/es/account/sign-up/", {"username": "ana", "password1": "tréboles-42-x",
                                     "password2": "tréboles-42-x"})  # fmt: skip
    group = group_of(ana)
    response = ana.get("/es/me/data.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["player"]["account"] == "ana"
    assert [t["code"] for t in data["tables"]] == [table.code]
    assert data["groups"][0]["code"] == group.code
    assert Client().get("/es/me/data.json").status_code == 404
    # a wrong password deletes nothing
    response = ana.post("/es/me/delete/", {"sure": "on", "password": "no"})
    assert response.status_code == 400 and User.objects.filter(username="ana").exists()
    response = ana.post("/es/me/delete/", {"sure": "on", "password": "tréboles-42-x"})
    assert response.status_code == 302
    assert not User.objects.filter(username="ana").exists()
    assert not Player.objects.filter(name="Ana").exists()
    seat = Seat.objects.get(table=table, index=0)
    assert seat.player is None and seat.name == "#1"
    # the game stays whole for the others
    assert table.actions.count() == table.version
    assert boris.get(f"/es/r/{table.code}/").status_code == 200
    assert "#1" in boris.get("/es/me/").content.decode()
