"""A fair start at a real table (issue 18): companion Triggs's first player is drawn at
random unless the players choose one, TriumfDrez's first dealer likewise; the lobby says
which way the turn goes so that players sit in seat order."""

import pytest
from django.test import Client

from games.models import Table

pytestmark = pytest.mark.django_db


def create(game, players="4", lang="es", **extra):
    fields = {"game": game, "mode": "companion", "players": players, "name": "Ana", **extra}
    if game == "triumfdrez":
        fields.setdefault("target", "50")
    return Client().post(f"/{lang}/play/", fields)


def started(response):
    code = response["Location"].split("/")[3]
    table = Table.objects.get(code=code)
    return table


def test_the_first_triggs_player_is_drawn_at_random_unless_chosen(settings):
    settings.RATE_LIMITS = {"create_table": (10**9, 600)}
    firsts = {started(create("triggs")).config["first"] for _ in range(40)}
    assert firsts == {0, 1, 2, 3}  # 40 tables: every seat starts some (1 in 10^4 to fail)
    assert started(create("triggs", first="2")).config["first"] == 2


def test_a_chosen_first_dealer_is_kept_and_a_seat_too_far_is_refused(settings):
    settings.RATE_LIMITS = {"create_table": (10**9, 600)}
    assert started(create("triumfdrez", first="1")).config["dealer"] == 1
    assert "dealer" not in started(create("triumfdrez")).config  # the deal's seed draws it
    refused = create("triggs", players="2", first="3", lang="fr")
    assert refused.status_code == 400
    assert "Cette place n’existe pas à cette table." in refused.content.decode()
    assert not Table.objects.filter(config__first=3).exists()


@pytest.mark.parametrize("lang, words", [("es", "agujas del reloj"), ("ru", "по часовой стрелке")])
def test_the_lobby_says_which_way_the_turn_goes(lang, words):
    html = Client().get(f"/{lang}/play/?game=triggs").content.decode()
    assert words in html
