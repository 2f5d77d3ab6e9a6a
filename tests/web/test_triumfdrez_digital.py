"""Digital TriumfDrez over plain form POSTs: bots sit, bid and play through the same
service as people (a bot partner with a person at 4 players), illegal moves are refused
with the rule, the scoring is explained and the next hand moves the dealer on."""

import html as htmllib
import re

import pytest
from django.test import Client

from games import phones
from games.models import Action, Table
from games.triumfdrez import engine

pytestmark = pytest.mark.django_db(transaction=True)  # bots move on commit


@pytest.fixture(autouse=True)
def bots_move_at_once(settings):
    settings.BOT_DELAY = 0


def fields(html):
    return {
        "version": re.search(r'name="version" value="(\d+)"', html).group(1),
        "action_id": re.search(r'name="action_id" value="(\w+)"', html).group(1),
    }


@pytest.fixture
def people_and_bots():
    """Ana (seat 0) and Boris (seat 1) are people; seats 2 (Ana's partner) and 3 are bots."""
    ana, boris = Client(), Client()
    response = ana.post(
        "/es/play/",
        {"game": "triumfdrez", "mode": "digital", "players": "4", "name": "Ana", "target": "50"},
    )
    code = response["Location"].split("/")[3]
    boris.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    for index in (2, 3):
        assert (
            ana.post(f"/es/t/{code}/bot/", {"index": str(index), "level": "heuristic"}).status_code
            == 302
        )
    assert ana.post(f"/es/t/{code}/start/", {"action_id": "start-web-1"}).status_code == 302
    return Table.objects.get(code=code), {0: ana, 1: boris}


def play(phone, table, seat, **action):
    html = phone.get(f"/es/t/{table.code}/?seat={seat}").content.decode()
    return phone.post(f"/es/t/{table.code}/act/", {"seat": str(seat), **fields(html), **action})


def test_a_whole_hand_with_a_bot_partner(people_and_bots):
    table, phones = people_and_bots
    for _ in range(80):
        table.refresh_from_db()
        state = table.state
        if state["phase"] not in ("auction", "play"):
            break
        seat = state["turn"]
        assert seat in phones, "a bot's turn was left waiting"
        legal = engine.legal_actions(state)
        action = next((a for a in legal if a["type"] == "pass"), None) or legal[0]
        if action["type"] == "play":
            response = play(phones[seat], table, seat, kind="play", card=action["card"])
        elif action["type"] == "pass":
            response = play(phones[seat], table, seat, kind="pass")
        else:
            response = play(
                phones[seat], table, seat, kind="bid", tricks="1", trump="rook", supertrump="3"
            )
        assert response.status_code == 302
    assert table.state["phase"] == "hand_over"
    assert sum(table.state["tricks_won"]) == 13
    bot_moves = Action.objects.filter(table=table, seat__in=(2, 3)).count()
    assert bot_moves >= 26  # the bots played their 13 cards each (and bid or passed)
    html = phones[0].get(f"/es/t/{table.code}/").content.decode()
    assert 'id="hand-result"' in html and "#D-SCORE" in html
    dealer = table.state["dealer"]
    assert play(phones[0], table, 0, kind="next_hand").status_code == 302
    table.refresh_from_db()
    assert table.state["hand_no"] == 2 and table.state["dealer"] == (dealer + 1) % 4


def test_a_bid_that_does_not_beat_the_current_one_is_refused_with_the_rule(people_and_bots):
    table, phones = people_and_bots
    state = dict(table.state)
    bid = {"seat": 3, "tricks": 5, "trump": "rook", "supertrump": 3, "open": False}
    state.update(phase="auction", turn=0, auction=[bid])
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    html = phones[0].get(f"/es/t/{table.code}/").content.decode()
    # the form enables only bids above 5 rook/3: 5 tricks if open or dropping both
    # trump and super-trump, else 6 (the engine's lowest_beating, by shape of bid)
    assert 'data-lowest-beating="6,5,5,5,5,5,5,5"' in html
    tricks = re.search(
        r'<select id="bid-tricks" name="tricks"[^>]*>(.*?)</select>', html, re.S
    ).group(1)
    # each option's value is its number
    assert re.findall(r">(\d+)</option>", tricks) == [str(n) for n in range(5, 14)]
    for tricks, trump in (("4", ""), ("5", "queen")):
        response = phones[0].post(
            f"/es/t/{table.code}/act/",
            {
                "seat": "0",
                **fields(html),
                "kind": "bid",
                "tricks": tricks,
                "trump": trump,
                "supertrump": "3",
            },
        )
        assert response.status_code == 409
        assert 'href="/es/rules/triumfdrez/#D-AUCTION"' in response.content.decode()
    assert Table.objects.get(pk=table.pk).state == table.state
    # As many tricks but without a trump figure beats it.
    response = play(phones[0], table, 0, kind="bid", tricks="5", trump="", supertrump="3")
    assert response.status_code == 302


def test_an_illegal_card_is_refused_with_the_rule_and_changes_nothing(people_and_bots):
    table, phones = people_and_bots
    # Ana, about to follow a knight, holds a knight but tries a rook.
    state = dict(table.state)
    state.update(
        phase="play",
        turn=0,
        leader=3,
        contract={"seat": 3, "tricks": 1, "trump": None, "supertrump": None, "open": False},
        auction=[],
        trick=[{"seat": 3, "card": "knight-2"}],
        hands=[["knight-5", "rook-9"], *table.state["hands"][1:3], table.state["hands"][3]],
    )
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    html = phones[0].get(f"/fr/t/{table.code}/").content.decode()
    assert 'data-card="rook-9"' in html and 'data-reason="' in html  # shown, not playable
    # why, in words, once for the hand (the card carries the reason's code)
    reasons = re.search(r'data-reasons="([^"]*)"', html).group(1)
    assert "Vous avez une carte de la figure d’entame" in htmllib.unescape(reasons)
    response = phones[0].post(
        f"/fr/t/{table.code}/act/", {"seat": "0", **fields(html), "kind": "play", "card": "rook-9"}
    )
    assert response.status_code == 409
    assert 'href="/fr/rules/triumfdrez/#D-FOLLOW"' in response.content.decode()
    assert Table.objects.get(pk=table.pk).state == table.state


@pytest.mark.parametrize("card", ["rook-0", "neutral-3", "king-5", "<b>", ""])
def test_forged_cards_are_refused_as_malformed(people_and_bots, card):
    table, phones = people_and_bots
    html = phones[0].get(f"/es/t/{table.code}/").content.decode()
    response = phones[0].post(
        f"/es/t/{table.code}/act/", {"seat": "0", **fields(html), "kind": "play", "card": card}
    )
    assert response.status_code == 400
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_spectator_sees_no_hand(people_and_bots):
    table, _phones = people_and_bots
    html = Client().get(f"/es/t/{table.code}/").content.decode()
    assert "data-card=" not in html
    assert not phones.seats_for_tokens(table, [])


def rendered(template, lang="es", **context):
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override(lang):
        html = render_to_string(f"games/triumfdrez/{template}", context)
    return re.sub(r"\s+>", ">", html)  # a tag's end on a line of its own


def card_of(card_id, lang):
    from django.utils import translation

    from games.triumfdrez.web import words

    with translation.override(lang):
        return words.card(card_id)


def keyed(item):
    from games.triumfdrez.web.screens import keyed

    return keyed(item)


def trick(lang="es", slots=(), last=None, phase="play", **context):
    """The table region (_digital.html#trick) with these seats' places and last trick."""
    board = {
        "trick_seats": [keyed({"cards": 0, "won": 0, "dealer": False} | slot) for slot in slots],
        "led": None,
        "last_trick": last,
        "phase": phase,
    }
    return rendered("_digital.html#trick", lang, board=board, **context)


def test_a_seats_place_in_the_trick_is_rendered_from_plain_data():
    card = card_of("knight-9", "es")
    slot = trick(slots=[{"seat": 1, "name": "<b>Ana</b>", "turn": True, "card": card}])
    assert 'id="slot-1" class="slot their-turn"' in slot
    assert rendered("_card.html", card=card).strip() in slot
    # the card played moves in once (data-anim: static/js/table.js)
    assert '<span class="played" data-anim="knight-9">' in slot
    assert "&lt;b&gt;Ana&lt;/b&gt;" in slot and "<b>Ana" not in slot
    empty = trick(slots=[{"seat": 0, "name": "Boris", "turn": False, "card": None}])
    assert 'id="slot-0" class="slot"' in empty and 'class="d-card empty"' in empty
    # in the auction the seats sit round the table, with no trick yet
    auction = trick(
        slots=[{"seat": 0, "name": "Boris", "turn": True, "card": None}], phase="auction"
    )
    assert 'id="slot-0" class="slot their-turn"' in auction and "d-card" not in auction


def states(*rows):
    """`seat_states` (games.context) of these seats' rows."""
    return {
        r["index"]: {
            "presence": r["presence"],
            "symbol": r["presence_symbol"],
            "label": r["presence_label"],
        }
        for r in rows
    }


def seat_of(lang, context=None, **slot):
    """One seat at the table (_digital.html#trick): its name, cards, tricks, phone, clock."""
    html = trick(lang, slots=[slot], phase="auction", **(context or {}))
    return re.search(r'<p class="seat">.*?</p>', html, re.S).group()


def test_a_seat_at_the_table_shows_its_cards_tricks_turn_and_phone_in_words():
    seat = {"seat": 2, "name": "<b>Ana</b>", "turn": True, "card": None}
    spanish = seat_of("es", cards=5, won=2, dealer=True, **seat)
    assert "&lt;b&gt;Ana&lt;/b&gt;" in spanish
    # whose turn: the seat's frame and ▶ (the style), and words for screen readers
    assert '<span class="visually-hidden"> · su turno</span>' in spanish
    assert '<span class="backs" role="img" aria-label="5 cartas">5</span>' in spanish
    assert '<span class="won" data-anim="w2-2">2 bazas</span>' in spanish
    assert '<span class="tag">reparte</span>' in spanish
    assert [
        re.search(r'aria-label="([^"]+)"', seat_of("ru", cards=n, **seat)).group(1)
        for n in (1, 2, 5, 21)
    ] == ["1 карта", "2 карты", "5 карт", "21 карта"]
    assert ">1 λεβέ</span>" in seat_of("el", cards=3, won=1, **seat)
    assert "data-anim" not in seat_of("fr", cards=3, won=0, **seat)  # no trick: nothing moves
    # its phone, in a symbol and words, and its turn clock, counted down by the page
    away = {"index": 2, "presence": "away", "presence_symbol": "◐", "presence_label": "ausente"}
    clock = {"seat": 2, "name": "Ana", "left": "0:42", "deadline": 1234}
    shown = seat_of("es", {"seat_states": states(away), "clock": clock}, cards=3, won=0, **seat)
    assert '<span aria-hidden="true">◐</span><span> ausente</span>' in shown
    assert 'data-deadline="1234"' in shown and '<span class="clock-left">0:42</span>' in shown
    here = away | {"presence": "here", "presence_symbol": "●", "presence_label": "en línea"}
    shown = seat_of("es", {"seat_states": states(here)}, cards=3, won=0, **seat)
    assert '<span class="visually-hidden"> en línea</span>' in shown
    assert "data-deadline" not in shown


def test_the_tricks_of_each_side_and_what_the_contract_needs_are_on_the_play_screen():
    sides = [
        {"index": 0, "names": ["Ana", "Chloé"], "tricks": 4, "declaring": True, "need": 7},
        {"index": 1, "names": ["Boris", "Dmitri"], "tricks": 1, "declaring": False, "need": None},
    ]
    board = {
        "sides": [keyed(side | {"score": 0}) for side in sides],
        "contract_words": "7 bazas",
        "declarer_name": "Ana",
        "dealer_name": "Boris",
        "phase": "play",
        "hand_no": 1,
        "target": 50,
    }
    html = rendered("_digital.html#status", "es", board=board, panel={})
    tally = re.search(r'<ul class="tally" id="tally">.*?</ul>', html, re.S).group()
    assert "Ana + Chloé" in tally and "4 de 7 bazas" in tally and "★" in tally
    assert "Boris + Dmitri" in tally and "1 baza" in tally
    assert "4 sur 7 plis" in rendered("_digital.html#status", "fr", board=board)


def hand_card(lang, **entry):
    """The hand region (_digital.html#hand) with this one card."""
    return rendered("_digital.html#hand", lang, panel={"hand": [keyed(entry)], "reasons": "{}"})


def test_a_card_of_ones_hand_is_a_button_that_plays_it_or_says_why_not():
    card = card_of("knight-9", "fr")
    drawing = rendered("_card.html", "fr", card=card).strip()
    playable = hand_card("fr", card=card, legal=True, reason=None)
    assert (
        '<button name="card" value="knight-9" class="card-button" data-card="knight-9">' in playable
    )
    assert drawing in playable
    refused = hand_card("fr", card=card, legal=False, reason="must_follow")
    assert 'type="button" class="card-button unplayable" aria-disabled="true"' in refused
    assert 'data-reason="must_follow"' in refused and 'name="card"' not in refused
    assert drawing in refused
    silent = hand_card("fr", card=card, legal=False, reason=None)
    assert "data-reason=" not in silent
    # the card's words in the hand's language
    russian = card_of("knight-9", "ru")
    assert rendered("_card.html", "ru", card=russian).strip() in hand_card(
        "ru", card=russian, legal=True, reason=None
    )


def test_the_last_trick_says_who_won_it_and_why():
    plays = [
        {"name": "<b>Ana</b>", "card": card_of("knight-9", "ru")},
        {"name": "Boris", "card": card_of("pawn-2", "ru")},
    ]
    last = trick(
        "ru",
        last=keyed({"moment": "trick-1-3", "winner": "Boris", "reason": "козырь", "plays": plays}),
        phase="hand_over",
    )
    assert 'id="last-trick" data-moment="trick-1-3"' in last
    assert "<strong data-headline>Boris взял(а) последнюю взятку</strong>" in last
    assert "козырь." in last
    assert "&lt;b&gt;Ana&lt;/b&gt;" in last and "<b>Ana" not in last
    for play in plays:
        assert rendered("_card.html", "ru", card=play["card"]).strip() in last
    assert '<!--part--><div class="last-trick"' in last and "</div><!--/part-->" in last
