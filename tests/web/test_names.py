"""Players' names (issue 17, item 11): normalised to NFC, stripped of control and format
characters (right-to-left overrides, zero-width characters, BOM), refused when nothing
visible is left, and refused when another seat at the table already has the name."""

import unicodedata

import pytest
from django.core.validators import MaxLengthValidator
from django.test import Client
from django.utils import translation

from games import labels, services
from games.errors import Refused
from games.models import Seat, Table
from tests.tables import config

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("Ana\u202e", "Ana"),  # a right-to-left override
        ("\u202eanA", "anA"),
        ("Bo\u200bris", "Boris"),  # zero-width space
        ("Chlo\u200de", "Chloe"),  # zero-width joiner
        ("\ufeffDmitri", "Dmitri"),  # byte order mark
        ("Eva\x07\x1b", "Eva"),  # control characters
        ("  Jos\u00e9   Mar\u00eda ", "Jos\u00e9 Mar\u00eda"),
        ("Chloe\u0301", "Chlo\u00e9"),  # NFC: e + combining acute is é
        ("\u0391\u03bd\u03bd\u03b1", "\u0391\u03bd\u03bd\u03b1"),  # Greek unchanged
    ],
)
def test_names_are_normalised_and_stripped(raw, clean):
    assert services.clean_name(raw) == clean
    assert unicodedata.is_normalized("NFC", services.clean_name(raw))


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "\u200b",
        "\u200b\u200c\u200d",
        "\ufeff",
        "\u202e\u202d",
        "\x00\x01",
        "\u2060\u2063",  # word joiner, invisible separator
        "\u3164",  # Hangul filler: a letter that draws nothing
        "\u0301",  # a combining mark alone
        "x" * 25,
        "e\u0301" * 24 + "e",  # 25 characters once composed
    ],
)
def test_empty_invisible_or_long_names_are_refused(raw):
    with pytest.raises(Refused) as refused:
        services.clean_name(raw)
    assert refused.value.code == "bad_name"


def test_24_composed_characters_are_allowed():
    assert services.clean_name("e\u0301" * 24) == "\u00e9" * 24


def _table(host="Ana", players=3):
    table, _host, _token = services.create_table(
        "triggs", "companion", config("triggs", "companion", players), host
    )
    return table


@pytest.mark.parametrize("name", ["Ana", "ana", "ANA", " Ana ", "An\u200ba", "\u202eana"])
def test_a_name_already_at_the_table_is_refused(name):
    table = _table("Ana")
    with pytest.raises(Refused) as refused:
        services.claim_seat(table, 1, name)
    assert refused.value.code == "name_taken"
    assert not Seat.objects.get(table=table, index=1).taken


def test_names_compare_after_normalisation_and_case_folding():
    table = _table("Chlo\u00e9")
    with pytest.raises(Refused):
        services.claim_seat(table, 1, "CHLOE\u0301")
    table = _table("Stra\u00dfe")
    with pytest.raises(Refused):
        services.claim_seat(table, 1, "STRASSE")


def test_another_name_and_the_same_name_at_another_table_are_fine():
    table = _table("Ana")
    services.claim_seat(table, 1, "Boris")
    other = _table("Boris")
    services.claim_seat(other, 1, "Ana")
    assert [s.name for s in table.seats.order_by("index")][:2] == ["Ana", "Boris"]


def test_a_bot_has_no_name_to_clash_with():
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 3), "Ana"
    )
    services.seat_bot(table, host, 1, "greedy")
    services.claim_seat(table, 2, "Boris")
    assert Seat.objects.get(table=table, index=1).name == ""


def test_the_join_page_explains_a_taken_name_in_every_language():
    for lang in ("es", "el", "ru", "fr"):
        Table.objects.all().delete()
        host = Client()
        host.post(
            f"/{lang}/play/",
            {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"},
        )
        table = Table.objects.get()
        response = Client().post(f"/{lang}/join/{table.code}/", {"seat": "1", "name": "ana"})
        assert response.status_code == 400
        html = response.content.decode()
        with translation.override(lang):
            sentence = str(labels.REFUSALS["name_taken"])
        with translation.override("en"):
            english = str(labels.REFUSALS["name_taken"])
        assert sentence in html and sentence != english
        assert not Seat.objects.get(table=table, index=1).taken


def test_an_invisible_name_is_refused_on_the_join_page():
    Client().post("/es/play/", {"game": "triggs", "mode": "companion", "players": "2", "name": "A"})
    table = Table.objects.get()
    response = Client().post(f"/es/join/{table.code}/", {"seat": "1", "name": "\u200b\u202e"})
    assert response.status_code == 400
    with translation.override("es"):
        assert str(labels.REFUSALS["bad_name"]) in response.content.decode()
    assert not Seat.objects.get(table=table, index=1).taken


LONG = ["x" * 25, "Ж" * 25, "y" * 201]


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
@pytest.mark.parametrize("name", LONG)
def test_a_long_name_gets_the_sites_own_refusal_and_changes_nothing(lang, name):
    """Issue 39: the field said 24 characters, the server took 200 and answered a longer
    name with Django's own "at most 200 characters". Now 25 are refused as the site says
    it, in the page's language, on every form that asks for a name."""
    with translation.override(lang):
        sentence = str(labels.REFUSALS["bad_name"])
        djangos = [
            str(MaxLengthValidator.message % {"limit_value": limit, "show_value": len(name)})
            for limit in (24, 200)
        ]
    form = {"game": "triggs", "mode": "companion", "players": "2"}
    response = Client().post(f"/{lang}/play/", {**form, "name": name})
    assert response.status_code == 400
    html = response.content.decode()
    assert sentence in html and not any(django in html for django in djangos)
    assert Table.objects.count() == 0
    response = Client().post(f"/{lang}/open/play/", {"game": "triggs", "name": name})
    assert response.status_code == 400 and sentence in response.content.decode()
    assert Table.objects.count() == 0
    Client().post(f"/{lang}/play/", {**form, "name": "Ana"})
    table = Table.objects.get()
    response = Client().post(f"/{lang}/join/{table.code}/", {"seat": "1", "name": name})
    assert response.status_code == 400 and sentence in response.content.decode()
    assert not Seat.objects.get(table=table, index=1).taken
    response = Client().post(f"/{lang}/groups/new/", {"name": "Jueves", "player_name": name})
    assert sentence in response.content.decode()
    from players.models import Group, Player

    assert not Group.objects.exists() and not Player.objects.filter(name=name).exists()


def test_the_name_fields_say_24_in_the_html():
    for path in ("/es/play/", "/es/open/", "/es/groups/new/"):
        html = Client().get(path).content.decode()
        assert 'maxlength="24"' in html and 'maxlength="200"' not in html


def test_24_characters_are_taken_by_the_form():
    response = Client().post(
        "/fr/play/", {"game": "triggs", "mode": "companion", "players": "2", "name": "é" * 24}
    )
    assert response.status_code == 302
    assert Seat.objects.get(index=0).name == "é" * 24
    decomposed = "e\u0300" * 24  # 48 code points, 24 characters once composed
    table = Table.objects.get()
    response = Client().post(f"/fr/join/{table.code}/", {"seat": "1", "name": decomposed})
    assert response.status_code == 302
