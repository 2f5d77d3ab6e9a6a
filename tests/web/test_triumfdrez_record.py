"""TriumfDrez companion: each hand in full shows, for every entry of a recorded hand (each
bid and pass, a contract entered directly, the tricks), who entered it and when, from
the table's log (issue 36): the bidder's name, «(entered by …)» when another phone entered
it for them, as the log says it, and the time in UTC as the corrections show theirs."""

import re

import pytest

from games.models import Action
from tests.web.test_triumfdrez_corrections import move, page, state, table_of_four

pytestmark = pytest.mark.django_db

BID = {"tricks": "7", "trump": "queen", "supertrump": "3"}
# the first entry of a hand with its date, the next ones of the same day the time alone
AT = r' · <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\dZ">(?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC</time>'
DATED = r' · <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\dZ">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>'
TRICKS = {
    "es": "Bazas introducidas por Chloé",
    "el": "Καταχώριση των λεβέ: Chloé",
    "ru": "Взятки внесены игроком Chloé",
    "fr": "Plis saisis par Chloé",
}
FOR_BORIS = {
    "es": "Boris (jugada introducida por Ana)",
    "el": "Boris (καταχώριση: Ana)",
    "ru": "Boris (ход внесён игроком Ana)",
    "fr": "Boris (coup saisi par Ana)",
}


def record(html: str, hand_no: int) -> str:
    """One recorded hand of the page's record (its <details>)."""
    found = re.search(
        rf'<details class="hand-record" id="hand-record-{hand_no}">.*?</details>', html
    )
    assert found, html
    return found.group(0)


def auction_hand(code, phones, lang="es"):
    """Dmitri deals: Ana bids on her phone, Ana enters Boris's pass for him, Chloé and
    Dmitri pass on theirs; Chloé enters the tricks."""
    assert move(phones, code, 0, lang, kind="bid", **BID).status_code == 302
    assert move(phones, code, 0, lang, kind="pass").status_code == 302  # Boris's turn
    assert move(phones, code, 2, lang, kind="pass").status_code == 302
    assert move(phones, code, 3, lang, kind="pass").status_code == 302
    assert move(phones, code, 2, lang, kind="result", tricks="8").status_code == 302


@pytest.mark.parametrize("lang", sorted(TRICKS))
def test_each_bid_and_the_tricks_say_who_entered_them_and_when(lang):
    code, phones = table_of_four(lang)
    auction_hand(code, phones, lang)
    logged = Action.objects.get(table__code=code, version=3)  # Boris's pass, by Ana's phone
    assert (logged.seat, logged.acted_by) == (1, 0)
    for phone in phones:
        hand = record(page(phone, code, lang), 1)
        # Ana's own bid: her name, and when (the hand's first entry, with its date)
        assert re.search(rf"<li><strong >Ana</strong>: 7 [^<]*{DATED}</li>", hand), hand
        # Boris's pass entered on Ana's phone says so, as the log does
        assert re.search(
            rf'<li class="pass"><strong >{re.escape(FOR_BORIS[lang])}</strong>: [^<]*{AT}</li>',
            hand,
        )
        assert re.search(rf'<li class="pass"><strong >Chloé</strong>: [^<]*{AT}</li>', hand)
        assert re.search(rf'<p class="entered">{re.escape(TRICKS[lang])}{AT}</p>', hand), hand
        assert hand.count("<time ") == 5


def test_a_contract_entered_directly_says_who_entered_it():
    code, phones = table_of_four()
    contract = {"declarer": "1", "tricks": "7", "trump": "", "supertrump": ""}
    assert move(phones, code, 3, kind="contract", **contract).status_code == 302
    assert move(phones, code, 0, kind="result", tricks="5").status_code == 302
    hand = record(page(phones[1], code), 1)
    assert re.search(rf'<p class="entered">Contrato introducido por Dmitri{DATED}</p>', hand), hand
    assert re.search(rf'<p class="entered">Bazas introducidas por Ana{AT}</p>', hand), hand
    assert '<ol class="auction">' not in hand


def test_entries_taken_back_and_entered_again_show_who_entered_them_last():
    code, phones = table_of_four()
    # Ana bids on her phone, takes it back, and Chloé enters Ana's bid again
    assert move(phones, code, 0, kind="bid", **BID).status_code == 302
    assert move(phones, code, 0, kind="undo_bid").status_code == 302
    assert move(phones, code, 2, kind="bid", **BID).status_code == 302
    for seat in (1, 2, 3):
        assert move(phones, code, seat, kind="pass").status_code == 302
    # the tricks entered by Boris, the hand taken back, and entered again by Dmitri
    assert move(phones, code, 1, kind="result", tricks="6").status_code == 302
    assert move(phones, code, 1, kind="undo_hand").status_code == 302
    assert move(phones, code, 3, kind="result", tricks="9").status_code == 302
    assert state(code)["history"][0]["tricks_won"] == 9
    hand = record(page(phones[0], code), 1)
    assert re.search(
        rf"<li><strong >Ana \(jugada introducida por Chloé\)</strong>: 7 [^<]*{DATED}</li>", hand
    )
    assert re.search(rf'<p class="entered">Bazas introducidas por Dmitri{AT}</p>', hand), hand
    assert "por Boris" not in hand
    # the second hand is under way: the first stays as it was recorded
    assert move(phones, code, 1, kind="bid", **BID).status_code == 302
    assert record(page(phones[0], code), 1) == hand


def test_a_log_that_does_not_lead_to_the_state_shows_the_hand_without_who_and_when():
    code, phones = table_of_four()
    auction_hand(code, phones)
    # Boris's pass logged as a bid that does not beat Ana's: the log no longer replays
    same_bid = {"type": "bid", "tricks": 7, "trump": "queen", "supertrump": 3, "open": False}
    Action.objects.filter(table__code=code, version=3).update(action=same_bid)
    hand = record(page(phones[0], code), 1)
    assert "<time " not in hand and "jugada introducida" not in hand
    assert "<strong >Ana</strong>: 7 " in hand  # the auction itself, from the state


def test_a_change_takes_the_log_through_the_engine_once_for_all_its_languages(monkeypatch):
    """The board is built once per language of a change's phones, from the change's rows:
    the log is taken through the engine for the first and kept for the others."""
    from django.utils import translation

    from games import live
    from games.context import shared_context
    from games.models import Table
    from games.triumfdrez import companion

    code, phones = table_of_four()
    auction_hand(code, phones)
    steps = []
    real = companion.apply
    monkeypatch.setattr(companion, "apply", lambda *a: steps.append(1) or real(*a))
    snap = live.snapshot(Table.objects.get(code=code))
    boards = []
    for lang in ("es", "el", "ru", "fr"):
        with translation.override(lang):
            boards.append(shared_context(snap, lang)["board"])
    assert len(steps) == 5  # the hand's five entries, once
    assert all(board["record"][0]["result_by"]["name"] == "Chloé" for board in boards)
