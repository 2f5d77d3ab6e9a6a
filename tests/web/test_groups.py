"""A group and its league (issue 20): an invite link, tables tagged by members, a rating
per game with openskill (Triggs each against all, TriumfDrez by sides) that counts each
finished game once and comes out the same from the replayed log; head-to-head records;
a player's data to download and delete."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from games import ratelimit, replay
from games.models import Seat
from players import league, views
from players.models import Group, Player
from tests.web.test_players import create, join, play, start

pytestmark = pytest.mark.django_db


def group_of(client, name="Jueves") -> Group:
    # (a phone that never sat down gives its player's name too)
    response = client.post("/es/groups/new/", {"name": name, "player_name": "Ana"})
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
    assert boris.get(f"/es/g/{group.code}/").status_code == 404
    assert boris.post(link.replace(link.rsplit("/", 2)[1], "forged")).status_code == 404
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


# -- a prober learns nothing about which groups exist ------------------------------------


def main_of(response) -> str:
    return response.content.decode().split('<main id="main"', 1)[1].split("</main>", 1)[0]


def refusal(code, lang="es") -> str:
    """The refusal as the page shows it (escaped)."""
    with translation.override(lang):
        return escape(str(views.REFUSED[code]))


def test_an_unknown_group_a_wrong_invite_and_a_stranger_are_answered_alike():
    ana = Client()
    group = group_of(ana, name="Jueves secretos")
    link = invite(ana, group)
    token = link.rsplit("/", 2)[1]
    stranger = Client(REMOTE_ADDR="198.51.100.20")
    answers = [
        stranger.get(f"/es/g/{group.code}/"),  # an existing group, not a member
        stranger.get("/es/g/QQQQQQ/"),  # no such group
        stranger.get(f"/es/g/{group.code}/join/forged/"),  # a wrong invite token
        stranger.post(f"/es/g/{group.code}/join/forged/", {"player_name": "Eve"}),
        stranger.get(f"/es/g/QQQQQQ/join/{token}/"),  # a real token on another code
        stranger.post(f"/es/g/{group.code}/", {"table": "QQQQQQ"}),
    ]
    assert {answer.status_code for answer in answers} == {404}
    assert len({main_of(answer) for answer in answers}) == 1  # the same page
    for answer in answers:
        html = answer.content.decode()
        assert "Jueves secretos" not in html and group.code not in main_of(answer)
        assert refusal("no_group") in html
    assert not Player.objects.filter(name="Eve").exists()
    assert group.members.count() == 1


def test_the_join_page_names_the_group_only_with_a_working_invite():
    ana = Client()
    group = group_of(ana, name="Jueves secretos")
    link = invite(ana, group)
    page = Client().get(link)
    assert page.status_code == 200 and "Jueves secretos" in page.content.decode()
    wrong = Client().get(link.replace(link.rsplit("/", 2)[1], "forged"))
    assert wrong.status_code == 404 and "Jueves secretos" not in wrong.content.decode()


@pytest.fixture
def few_lookups(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "group_lookup": (3, 600)}


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_failed_group_lookups_are_limited_per_address(few_lookups, lang):
    ana = Client(REMOTE_ADDR="203.0.113.1")
    group = group_of(ana, name="Jueves secretos")
    link = invite(ana, group)
    prober = Client(REMOTE_ADDR="198.51.100.30")
    for path in ("/es/g/QQQQQQ/", f"/es/g/{group.code}/", f"/es/g/{group.code}/join/forged/"):
        assert prober.get(path).status_code == 404
    over = prober.get(f"/{lang}/g/QQQQQR/")
    assert over.status_code == 429
    assert refusal("too_many_attempts", lang) in over.content.decode()
    # once over the limit even a working link is not answered: nothing to learn
    limited = prober.get(link)
    assert limited.status_code == 429 and "Jueves secretos" not in limited.content.decode()
    assert prober.post(link).status_code == 429 and group.members.count() == 1
    # another address is not concerned, and a member's own visits never count
    assert Client(REMOTE_ADDR="198.51.100.31").get(link).status_code == 200
    for _ in range(5):
        assert ana.get(f"/es/g/{group.code}/").status_code == 200


def test_the_default_group_lookup_limit_holds_in_a_loop(settings):
    settings.RATE_LIMITS = {}  # the site's own limits
    limit, seconds = ratelimit.RATE_LIMITS["group_lookup"]
    prober = Client()
    statuses = [prober.get("/es/g/QQQQQQ/").status_code for _ in range(limit + 3)]
    assert statuses == [404] * limit + [429] * 3


# -- an invite link can be replaced ------------------------------------------------------


def test_a_member_replaces_the_invite_link_and_the_old_one_stops_working():
    ana, boris, chloe, eve = Client(), Client(), Client(), Client()
    group = group_of(ana)
    old = invite(ana, group)
    assert boris.post(old, {"player_name": "Boris"}).status_code == 302  # a member too
    response = boris.post(f"/es/g/{group.code}/new-invite/")
    assert response.status_code == 302
    assert response["Location"] == f"/es/g/{group.code}/#invite"
    new = invite(ana, group)
    assert new != old and invite(boris, group) == new  # every member shows the new one
    # the old link is refused at once, on its page and when posted
    assert eve.get(old).status_code == 404
    assert eve.post(old, {"player_name": "Eve"}).status_code == 404
    assert not Player.objects.filter(name="Eve").exists()
    # the new one works
    assert chloe.get(new).status_code == 200
    assert chloe.post(new, {"player_name": "Chloé"}).status_code == 302
    assert {p.name for p in group.members.all()} == {"Ana", "Boris", "Chloé"}


def test_only_a_member_can_replace_the_invite_link():
    ana, stranger = Client(), Client()
    group = group_of(ana)
    link = invite(ana, group)
    finished_table([stranger, Client()], ["Eve", "Zoe"])  # a player, but not a member
    assert stranger.post(f"/es/g/{group.code}/new-invite/").status_code == 404
    assert Client().post(f"/es/g/{group.code}/new-invite/").status_code == 404
    assert ana.get(f"/es/g/{group.code}/new-invite/").status_code == 405
    assert invite(ana, group) == link


def test_a_group_made_before_invite_nonces_keeps_its_first_link_until_replaced():
    from django.core import signing

    from players import services

    ana = Client()
    group = group_of(ana)
    Group.objects.filter(pk=group.pk).update(invite_nonce="")  # as the migration left it
    first = signing.Signer(salt=services.INVITE_SALT).signature(group.code)
    assert invite(ana, group).endswith(f"/join/{first}/")
    assert Client().get(f"/es/g/{group.code}/join/{first}/").status_code == 200
    ana.post(f"/es/g/{group.code}/new-invite/")
    assert Client().get(f"/es/g/{group.code}/join/{first}/").status_code == 404


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_group_page_offers_a_new_invite_link(lang):
    ana = Client()
    group = group_of(ana)
    html = ana.get(f"/{lang}/g/{group.code}/").content.decode()
    assert f'action="/{lang}/g/{group.code}/new-invite/"' in html
    with translation.override(lang):
        assert escape(translation.gettext("New invite link")) in html


# -- deleting one's data leaves nothing of the account behind ----------------------------


def sign_up(client, username):
    response = client.post(
        "/es/account/sign-up/",
        {"username": username, "password1": "tréboles-42-x", "password2": "tréboles-42-x"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]


def sign_in(client, username, password="tréboles-42-x"):
    return client.post("/es/account/sign-in/", {"username": username, "password": password})


def sessions_of(user) -> int:
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    return sum(s.get_decoded().get(SESSION_KEY) == str(user.pk) for s in Session.objects.all())


def my_games_of(client) -> str:
    return "".join(re.findall(r'id="game-([A-Z0-9]{6})"', client.get("/es/me/").content.decode()))


def test_deleting_ones_data_deletes_the_accounts_sign_in_records(settings):
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    settings.AXES_ENABLE_ACCESS_FAILURE_LOG = True
    ana, boris = Client(), Client(REMOTE_ADDR="198.51.100.41")
    finished_table([ana, boris], ["Ana", "Boris"])
    sign_up(ana, "ana")
    sign_up(boris, "boris")
    # Ana on another phone, and someone guessing her password (her name in any case)
    elsewhere = Client(REMOTE_ADDR="198.51.100.42")
    assert sign_in(elsewhere, "ana").status_code == 302
    assert sign_in(Client(REMOTE_ADDR="198.51.100.43"), "ANA", "guess").status_code == 200
    assert sign_in(Client(REMOTE_ADDR="198.51.100.43"), "boris", "guess").status_code == 200
    user = User.objects.get(username="ana")
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        assert model.objects.filter(username__iexact="ana").exists(), model
    assert sessions_of(user) == 2
    response = ana.post("/es/me/delete/", {"sure": "on", "password": "tréboles-42-x"})
    assert response.status_code == 302
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        assert not model.objects.filter(username__iexact="ana").exists(), model
    assert sessions_of(user) == 0
    assert my_games_of(elsewhere) == ""  # that phone is signed out
    # Boris's own records are his
    assert AccessAttempt.objects.filter(username="boris").exists()
    assert AccessLog.objects.filter(username="boris").exists()
    assert sessions_of(User.objects.get(username="boris")) == 1


def test_deleting_ones_data_deletes_the_groups_left_without_members():
    ana, boris = Client(), Client()
    alone = group_of(ana, name="Solo")
    shared = group_of(ana, name="Jueves")
    assert boris.post(invite(ana, shared), {"player_name": "Boris"}).status_code == 302
    table = finished_table([ana, boris], ["Ana", "Boris"])
    tag(ana, alone, table)
    tag(ana, shared, table)
    assert ana.post("/es/me/delete/", {"sure": "on"}).status_code == 302
    assert not Group.objects.filter(pk=alone.pk).exists()
    shared.refresh_from_db()
    assert [p.name for p in shared.members.all()] == ["Boris"]
    assert list(shared.tables.all()) == [table]
    assert boris.get(f"/es/g/{shared.code}/").status_code == 200
    table.refresh_from_db()  # the table itself stays, for Boris's group
    assert table.seats.get(index=0).name == "#1"
