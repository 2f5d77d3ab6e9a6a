"""TriumfDrez companion corrections (issue 36): any recorded hand corrected at a real
table, proposed on one phone and confirmed on a phone of the other side; the dealer set
before the first bid; a side's score adjusted with a reason; each hand's history with
who entered a correction and when, in the four languages."""

import re

import pytest
from django.test import Client

from games.models import Table

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Boris", "Chloé", "Dmitri")


def table_of_four(lang="es"):
    """Ana and Chloé against Boris and Dmitri; Dmitri deals the first hand."""
    phones = [Client() for _ in NAMES]
    fields = {"game": "triumfdrez", "mode": "companion", "players": "4", "name": NAMES[0]}
    fields |= {"target": "200", "first": "3"}
    code = phones[0].post(f"/{lang}/play/", fields)["Location"].split("/")[3]
    for seat in (1, 2, 3):
        phones[seat].post(f"/{lang}/join/{code}/", {"seat": str(seat), "name": NAMES[seat]})
    phones[0].post(f"/{lang}/t/{code}/start/", {"action_id": "start-0001"})
    return code, phones


def move(phones, code, seat, lang="es", **fields):
    version = Table.objects.get(code=code).version
    data = {"seat": str(seat), "version": str(version), "action_id": f"id-{version:012d}"}
    return phones[seat].post(f"/{lang}/t/{code}/act/", {**data, **fields})


def page(client, code, lang="es"):
    return " ".join(client.get(f"/{lang}/t/{code}/").content.decode().split())


def four_hands(code, phones, lang="es"):
    """Declarers 0, 1, 2, 3 each contract 7 tricks; the declaring sides win 8, 5, 7, 9."""
    for declarer, won in ((0, 8), (1, 5), (2, 7), (3, 9)):
        contract = {"declarer": str(declarer), "tricks": "7", "trump": "", "supertrump": ""}
        assert move(phones, code, 0, lang, kind="contract", **contract).status_code == 302
        assert move(phones, code, 0, lang, kind="result", tricks=str(won)).status_code == 302


def state(code):
    return Table.objects.get(code=code).state


FIX = {
    "kind": "correct_hand",
    "hand_no": "2",
    "declarer": "1",
    "tricks": "7",
    "trump": "",
    "supertrump": "",
    "won": "9",
}

HISTORY = {
    "es": "Boris corrigió la partida 2, confirmada por Ana",
    "el": "Boris διόρθωσε τη μοιρασιά 2, με επιβεβαίωση από Ana",
    "ru": "Boris исправляет раздачу 2, подтверждает Ana",
    "fr": "Boris corrige la donne 2, confirmée par Ana",
}


@pytest.mark.parametrize("lang", sorted(HISTORY))
def test_hand_two_of_four_corrected_on_one_phone_and_confirmed_on_another(lang):
    code, phones = table_of_four(lang)
    four_hands(code, phones, lang)
    assert state(code)["scores"] == [27, 11]
    assert move(phones, code, 1, lang, **FIX).status_code == 302
    assert state(code)["scores"] == [27, 11]  # not yet
    on_ana = page(phones[0], code, lang)
    assert 'value="confirm"' in on_ana and 'data-moment="correction"' in on_ana
    on_boris = page(phones[1], code, lang)
    assert 'value="confirm"' not in on_boris and 'value="reject"' in on_boris
    on_chloe = page(phones[2], code, lang)  # Boris's opponent, but Ana's partner: may confirm
    assert 'value="confirm"' in on_chloe
    on_dmitri = page(phones[3], code, lang)  # Boris's partner: may not
    assert 'value="confirm"' not in on_dmitri and 'value="reject"' not in on_dmitri
    # Boris's partner cannot confirm it: a refusal in words, nothing changed
    refused = move(phones, code, 3, lang, kind="confirm")
    assert refused.status_code == 409
    assert state(code)["correction"] is not None
    assert move(phones, code, 0, lang, kind="confirm").status_code == 302
    table = state(code)
    assert table["scores"] == [16, 22] and table["correction"] is None
    for phone in phones:
        html = page(phone, code, lang)
        assert HISTORY[lang] in html
        assert re.search(r"<time>\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>", html)
        assert 'id="hand-correction"' not in html


def test_a_rejected_correction_changes_nothing():
    code, phones = table_of_four()
    four_hands(code, phones)
    before = state(code)
    assert move(phones, code, 1, **FIX).status_code == 302
    assert "Retirarla" in page(phones[1], code)
    assert move(phones, code, 1, kind="reject").status_code == 302
    after = state(code)
    assert after["history"] == before["history"] and after["scores"] == before["scores"]
    assert after["correction"] is None


def test_the_dealer_is_set_before_the_first_bid():
    code, phones = table_of_four()
    assert move(phones, code, 2, kind="set_dealer", dealer="1").status_code == 302
    assert (state(code)["dealer"], state(code)["turn"]) == (1, 2)
    html = page(phones[0], code)
    assert "Reparte: Boris" in html
    assert "Chloé eligió quién reparte: Boris (antes Dmitri)." in html
    bid = {"tricks": "5", "trump": "queen", "supertrump": "3"}
    assert move(phones, code, 0, kind="bid", **bid).status_code == 302
    assert state(code)["auction"][0]["seat"] == 2
    refused = move(phones, code, 0, kind="set_dealer", dealer="0")
    assert refused.status_code == 409
    assert "antes de la primera propuesta" in refused.content.decode()


def test_a_score_adjusted_with_a_reason_is_shown_in_the_history():
    code, phones = table_of_four("fr")
    four_hands(code, phones, "fr")
    adjust = {"kind": "adjust", "team": "1", "points": "-4", "reason": "compté deux fois"}
    assert move(phones, code, 2, "fr", **adjust).status_code == 302
    assert state(code)["scores"] == [27, 7]
    html = page(phones[3], code, "fr")
    # (the page is read with its white space, the no-break space too, made single spaces)
    assert "Chloé ajuste le score de Boris + Dmitri de -4 : compté deux fois" in html


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"team": "1", "points": "3", "reason": "x" * 81}, "1 à 80 caractères"),
        ({"team": "1", "points": "3", "reason": "   "}, "1 à 80 caractères"),
        ({"team": "1", "points": "0", "reason": "oubli"}, "autre que 0"),
        ({"team": "1", "points": "5000", "reason": "oubli"}, "autre que 0"),
        ({"team": "1", "points": "trois", "reason": "oubli"}, "pas été comprise"),
        ({"team": "3", "points": "3", "reason": "oubli"}, "Choisissez un camp"),
    ],
)
def test_bad_adjustments_are_refused_in_words_and_change_nothing(fields, words):
    code, phones = table_of_four("fr")
    before = Table.objects.get(code=code)
    response = move(phones, code, 0, "fr", kind="adjust", **fields)
    assert response.status_code in (400, 409)
    assert words in " ".join(response.content.decode().split())
    after = Table.objects.get(code=code)
    assert (after.version, after.state) == (before.version, before.state)


def test_bad_corrections_are_refused_in_words():
    code, phones = table_of_four("ru")
    four_hands(code, phones, "ru")
    response = move(phones, code, 1, "ru", **{**FIX, "hand_no": "9"})
    assert response.status_code == 409
    assert "Раздача с таким номером не записана." in response.content.decode()
    response = move(phones, code, 1, "ru", **{**FIX, "won": "5"})
    assert "Это исправление ничего не меняет в раздаче." in response.content.decode()


@pytest.mark.parametrize("players", [2, 4])
def test_the_new_regions_render_from_what_they_declare(players):
    """A correction waiting, a dealer set, an adjustment and a confirmed correction: every
    region of every seat renders from its declared reads alone (tests/declared.py)."""
    from django.utils import translation

    from games.triumfdrez import companion
    from tests.web.test_triumfdrez_regions import check, new_table

    table = new_table("companion", players)
    steps = [
        (1, {"type": "set_dealer", "seat": 0, "at": "2026-11-27 13:00"}),
        (0, {"type": "contract", "seat": 0, "tricks": 7, "trump": None, "supertrump": None}),
        (0, {"type": "result", "tricks": 8}),
        (1, {"type": "adjust", "team": 1, "points": 3, "reason": "<i>oubli</i>", "at": "x"}),
        (1, {**FIXED, "hand_no": 1, "seat": 1, "won": 9}),
    ]
    seen: set = set()
    with translation.override("el"):
        for seat, action in steps:
            if action["type"] == "contract":
                action = {**action, "open": False}
            table.state = companion.apply(table.state, seat, action)
            check(table, seen)
        table.state = companion.apply(table.state, 0, {"type": "confirm", "at": "y"})
        check(table, seen)
    assert table.state["events"][-1]["type"] == "correction"


FIXED = {
    "type": "correct_hand",
    "tricks": 7,
    "trump": "rook",
    "supertrump": 2,
    "open": True,
    "at": "2026-11-27 13:02",
}


def test_a_won_match_corrected_goes_on_with_the_next_hand():
    phones = [Client(), Client()]
    fields = {"game": "triumfdrez", "mode": "companion", "players": "2", "name": "Ana"}
    code = phones[0].post("/es/play/", {**fields, "target": "10", "first": "1"})["Location"]
    code = code.split("/")[3]
    phones[1].post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    phones[0].post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    contract = {"declarer": "0", "tricks": "7", "trump": "", "supertrump": ""}
    assert move(phones, code, 0, kind="contract", **contract).status_code == 302
    assert move(phones, code, 0, kind="result", tricks="9").status_code == 302
    table = Table.objects.get(code=code)
    assert table.status == Table.Status.FINISHED and table.state["winner"] == 0
    # the tricks were 7, not 9: 7 points, short of the target
    fix = {**FIX, "hand_no": "1", "declarer": "0", "won": "7"}
    assert move(phones, code, 1, **fix).status_code == 302
    assert 'value="confirm"' in page(phones[0], code)
    assert move(phones, code, 0, kind="confirm").status_code == 302
    table = Table.objects.get(code=code)
    assert table.status == Table.Status.PLAYING
    assert (table.state["phase"], table.state["hand_no"], table.state["scores"]) == (
        "auction",
        2,
        [7, 0],
    )
