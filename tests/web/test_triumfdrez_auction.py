"""The bid to beat on the game tab (issue 39): during a TriumfDrez auction, at any number of
players and in both modes, the game tab says in words who made the bid to beat and what it
is; the auction's entries keep their numbers when the tab shows only the last ones; and
the bid form chooses beforehand the lowest bid that beats the current one (D-AUCTION),
never one that does not."""

import re
import uuid

import pytest
from django.test import Client
from django.utils import translation

from games import live, render, services
from games.models import Table
from games.triumfdrez import auction
from games.triumfdrez.web import screens
from tests.tables import config

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bo", "Cy", "Di")


def companion_table(players: int, lang: str = "es"):
    """A companion table of `players` phones, the last seat dealing: Ana (seat 0) bids
    first. Ana's client (the host), and the table's code."""
    host = Client()
    fields = {"game": "triumfdrez", "mode": "companion", "players": str(players)}
    created = host.post(
        f"/{lang}/play/", {**fields, "name": NAMES[0], "target": "50", "first": str(players - 1)}
    )
    code = created["Location"].split("/")[3]
    for seat in range(1, players):
        Client().post(f"/{lang}/join/{code}/", {"seat": str(seat), "name": NAMES[seat]})
    host.post(f"/{lang}/t/{code}/start/", {"action_id": "start-0001"})
    assert Table.objects.get(code=code).state["turn"] == 0
    return host, code


def enter(client, code, lang="es", **fields):
    """A move entered from the host's phone (the tracker's bid or pass is the turn's)."""
    version = Table.objects.get(code=code).version
    data = {"seat": "0", "version": str(version), "action_id": f"id-{version:012d}", **fields}
    return client.post(f"/{lang}/t/{code}/act/", data)


KNIGHT_7 = {"kind": "bid", "tricks": "7", "trump": "knight", "supertrump": "5"}


def chosen(html: str, name: str) -> str | None:
    """The value the bid form (#bid-form) shows chosen in its field `name`."""
    form = html[html.index('id="bid-form"') :]
    form = form[: form.index("</form>")]
    if name == "open":
        return "on" if re.search(r'name="open"[^>]*\bchecked\b', form) else None
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', form, re.S).group(1)
    # an option without a value sends its text (the tricks' options: their number)
    picked = [
        value.group(1) if (value := re.search(r'value="([^"]*)"', attrs)) else text.strip()
        for attrs, text in re.findall(r"<option([^>]*)\bselected\s*>([^<]*)<", select)
    ]
    assert len(picked) <= 1, picked
    return picked[0] if picked else None


def test_the_fourth_bidder_sees_the_bid_to_beat_and_a_bid_that_beats_it():
    ana, code = companion_table(4)
    assert enter(ana, code, **KNIGHT_7).status_code == 302
    assert enter(ana, code, kind="pass").status_code == 302
    assert enter(ana, code, kind="pass").status_code == 302
    html = ana.get(f"/es/t/{code}/").content.decode()
    # in words, who and what: on the game tab, above the auction's entries
    to_beat = re.search(r'<p class="to-beat" id="to-beat">(.*?)</p>', html, re.S).group(1)
    assert " ".join(to_beat.split()) == (
        "Propuesta a superar: Ana — 7 bazas · ♞\ufe0e Caballo · 5 azul"
    )
    play_pane = html[html.index('class="pane pane-play') :]
    assert 'id="to-beat"' in play_pane[: play_pane.index('class="pane pane-players')]
    # each entry numbered by its place in the auction, whichever the screen shows
    entries = re.findall(r'<li value="(\d+)"[^>]*><strong\s*>(\w+)</strong>', html)
    assert entries == [("1", "Ana"), ("2", "Bo"), ("3", "Cy")]
    # the form: 7 with the same figure and no super-trump, the lowest bid beating it
    assert [chosen(html, f) for f in ("tricks", "trump", "supertrump", "open")] == [
        "7",
        "knight",
        "",
        None,
    ]
    # and that bid is taken as it is chosen
    choice = {"kind": "bid", "tricks": "7", "trump": "knight", "supertrump": ""}
    assert enter(ana, code, **choice).status_code == 302
    state = Table.objects.get(code=code).state
    assert state["auction"][-1] == {
        "seat": 3,
        "tricks": 7,
        "trump": "knight",
        "supertrump": None,
        "open": False,
    }


def test_a_bid_that_does_not_beat_is_refused_in_words_and_changes_nothing():
    ana, code = companion_table(4, "fr")
    enter(ana, code, "fr", **KNIGHT_7)
    before = Table.objects.get(code=code)
    refused = enter(ana, code, "fr", **KNIGHT_7)  # the same bid again: it does not beat
    assert refused.status_code == 409
    assert "Cette annonce ne bat pas l’actuelle\u00a0:" in refused.content.decode()
    after = Table.objects.get(code=code)
    assert (after.version, after.state) == (before.version, before.state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_opening_bid_names_a_figure_and_a_colour_and_nothing_is_to_beat(players):
    ana, code = companion_table(players)
    html = ana.get(f"/es/t/{code}/").content.decode()
    assert 'id="to-beat"' not in html  # no auction yet: the form's title says whose bid
    # D-AUCTION ruling: the opening bid names both, and the lowest such is chosen
    assert [chosen(html, f) for f in ("tricks", "trump", "supertrump", "open")] == [
        "1",
        "joker",
        "1",
        None,
    ]
    form = html[html.index('id="bid-form"') :]
    assert "sin triunfo" not in form[: form.index("</form>")]
    assert enter(ana, code, kind="bid", tricks="7", trump="", supertrump="5").status_code == 409
    assert Table.objects.get(code=code).state["auction"] == []
    enter(ana, code, **KNIGHT_7)
    html = ana.get(f"/es/t/{code}/").content.decode()
    assert "Propuesta a superar: Ana — 7 bazas" in html


def every_top_bid():
    """A bid of each level of the order of bids, the opening ones first."""
    seen = {}
    for bid in auction.BIDS:
        seen.setdefault(auction.entry_level(bid), bid)
    return [None, *seen.values()]


def test_the_chosen_bid_is_the_lowest_that_beats_every_possible_bid():
    for top in every_top_bid():
        lowest = auction.lowest_bid_above(top)
        if top is None:
            assert auction.names_both(lowest) and lowest["tricks"] == 1
            continue
        if auction.entry_level(top) == auction.TOP_LEVEL:
            assert lowest is None  # 13 open, neither trump nor super-trump: nothing beats it
            continue
        auction.check_beats(top, lowest)  # it beats the bid: raises if not
        assert auction.entry_level(lowest) == auction.entry_level(top) + 1
        with translation.override("es"):
            fields = screens.beating_choices(1, top)
        assert (fields["default"], fields["trump"], fields["supertrump"], fields["open"]) == (
            lowest["tricks"],
            lowest["trump"],
            lowest["supertrump"],
            lowest["open"],
        )


def test_when_no_bid_beats_the_current_one_no_tricks_are_chosen():
    top = {"seat": 0, "tricks": 13, "trump": None, "supertrump": None, "open": True}
    with translation.override("es"):
        fields = screens.beating_choices(1, top)
    assert fields["blank"] and fields["default"] is None


@pytest.mark.parametrize("players", [2, 4])
def test_a_digital_table_shows_the_bid_to_beat_and_chooses_a_bid_that_beats_it(players):
    table, host, _token = services.create_table(
        "triumfdrez", "digital", config("triumfdrez", "digital", players), NAMES[0]
    )
    for seat in range(1, players):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    first = table.state["turn"]
    bid = {"type": "bid", "tricks": 7, "trump": "knight", "supertrump": 5, "open": False}
    services.apply_action(table, first, bid, table.version, "bid-" + uuid.uuid4().hex)
    table.refresh_from_db()
    second = table.state["turn"]
    screen = render.screen(live.snapshot(table), [second], second, False, "es")
    regions = {name: html for name, html, _pane in screen.regions}
    assert " ".join(regions["auction"].split()).count(
        f"Propuesta a superar: {NAMES[first]} — 7 bazas · ♞\ufe0e Caballo · 5 azul"
    )
    html = regions["bid"]
    assert [chosen(html, f) for f in ("tricks", "trump", "supertrump", "open")] == [
        "7",
        "knight",
        "",
        None,
    ]
