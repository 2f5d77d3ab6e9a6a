"""D-AUCTION: the order of bids, re-entry, the end of the auction and the contract."""

import pytest

from games.triumfdrez import auction, engine
from games.triumfdrez.cards import FIGURES

from .test_triumfdrez_support import PASS, auction_state, bid, frozen

OPENING = bid(1, "pawn", 1)  # the lowest opening bid: a figure and a colour


@pytest.mark.parametrize(
    "opening", [bid(5), bid(5, "queen", None), bid(5, None, 3), bid(5, None, None, open_=True)]
)
def test_the_opening_bid_names_a_figure_and_a_colour(opening):  # D-AUCTION ruling
    state = auction_state(dealer=3)
    before = frozen(state)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 0, opening)
    assert error.value.code == "opening_bid_names_both" and state == before
    legal = [action for action in engine.legal_actions(state) if action["type"] == "bid"]
    assert legal and all(a["trump"] is not None and a["supertrump"] is not None for a in legal)
    assert engine.apply(state, 0, bid(5, "queen", 3, open_=True))["auction"][-1]["open"]
    # a later bid may drop either
    state = engine.apply(state, 0, bid(5, "queen", 3))
    assert engine.apply(state, 1, bid(5, None, None))["auction"][-1]["trump"] is None


def test_seed_example_sequence_is_legal_and_gives_the_contract():  # D-AUCTION
    state = auction_state(players=4, dealer=3)  # seat 0 bids first
    for seat, action in [
        (0, bid(8, "knight", 5)),
        (1, bid(9, "bishop", 2)),
        (2, bid(9, None, 9)),
        (3, bid(9, None, 7, open_=True)),
        (0, bid(10, "knight", 5)),
        (1, PASS),
        (2, PASS),
    ]:
        state = engine.apply(state, seat, action)
        assert state["phase"] == "auction"
    state = engine.apply(state, 3, PASS)
    assert state["phase"] == "play"
    assert state["contract"] == {
        "seat": 0,
        "tricks": 10,
        "trump": "knight",
        "supertrump": 5,
        "open": False,
    }
    assert state["turn"] == state["leader"] == 0  # D-PLAY: the declarer leads
    assert state["trick"] == []
    assert len(state["auction"]) == 8


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        (bid(9, "pawn", 1), bid(8, None, None, open_=True)),  # more tricks first
        (bid(8, "joker", 1, open_=True), bid(8, None, None)),  # then open
        (bid(8, None, 3), bid(8, "queen", 3)),  # then dropping one of the two
        (bid(8, "queen", None), bid(8, "queen", 3)),
        (bid(8, None, None), bid(8, None, 3)),  # dropping both beats dropping one
        (bid(8, None, None, open_=True), bid(8, "rook", None, open_=True)),
    ],
)
def test_order_of_bids(higher, lower):  # D-AUCTION ruling
    opened = engine.apply(auction_state(dealer=3), 0, OPENING)
    state = engine.apply(opened, 1, lower)
    assert engine.apply(state, 2, higher)["auction"][-1]["tricks"] == higher["tricks"]
    state = engine.apply(opened, 1, higher)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 2, lower)
    assert error.value.code == "bid_too_low"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (bid(8, "knight", 5), bid(8, "knight", 5)),  # the same bid
        (bid(8, "knight", 5), bid(8, "pawn", 9)),  # another figure and colour
        (bid(8, None, 5), bid(8, "knight", None)),  # no trump equals no super-trump
        (bid(8, None, None, open_=True), bid(8, None, None, open_=True)),
    ],
)
def test_equal_bids_do_not_beat_each_other(first, second):  # D-AUCTION ruling
    state = engine.apply(engine.apply(auction_state(dealer=3), 0, OPENING), 1, first)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 2, second)
    assert error.value.code == "bid_too_low"


def test_first_bidder_must_bid_and_others_may_pass():  # D-AUCTION
    state = auction_state(dealer=1)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, 2, PASS)
    assert error.value.code == "must_bid"
    assert PASS not in engine.legal_actions(state)
    state = engine.apply(state, 2, bid(1, "pawn", 1))
    assert engine.legal_actions(state)[0] == PASS
    assert engine.apply(state, 3, PASS)["turn"] == 0


def test_passed_player_may_bid_again_and_auction_ends_after_all_others_pass():  # D-AUCTION
    state = auction_state(players=3, dealer=2)  # seat 0 first
    state = engine.apply(state, 0, bid(5, "rook", 4))
    state = engine.apply(state, 1, PASS)
    state = engine.apply(state, 2, bid(6, "rook", 4))
    state = engine.apply(state, 0, PASS)
    state = engine.apply(state, 1, bid(6, None, 4))  # seat 1 passed before
    state = engine.apply(state, 2, PASS)
    assert state["phase"] == "auction"
    state = engine.apply(state, 0, PASS)
    assert state["phase"] == "play"
    assert state["contract"]["seat"] == 1 and state["turn"] == 1


def test_two_players_one_pass_ends_the_auction():  # D-AUCTION
    state = auction_state(players=2, dealer=0)
    state = engine.apply(state, 1, bid(4, "joker", 9, open_=True))
    state = engine.apply(state, 0, PASS)
    assert state["phase"] == "play"
    assert state["contract"] == {
        "seat": 1,
        "tricks": 4,
        "trump": "joker",
        "supertrump": 9,
        "open": True,
    }


def test_bids_are_taken_in_turn_order():  # D-AUCTION, D-DEAL
    state = auction_state(dealer=0)
    for seat in (0, 2, 3):
        with pytest.raises(engine.IllegalAction) as error:
            engine.apply(state, seat, bid(3, "pawn", 2))
        assert error.value.code == "not_your_turn"


def test_full_bid_list_in_order_of_bids():  # D-AUCTION
    bids = auction.BIDS
    assert len(bids) == 13 * 7 * 10 * 2 == 1820
    combos = {(b["tricks"], b["trump"], b["supertrump"], b["open"]) for b in bids}
    assert len(combos) == 1820
    assert {b["trump"] for b in bids} == {*FIGURES, None}
    assert {b["supertrump"] for b in bids} == {*range(1, 10), None}
    # the opening bids: each names a figure and a colour (D-AUCTION ruling)
    opening = engine.legal_actions(auction_state())
    assert len(opening) == 13 * 6 * 9 * 2 == 1404
    assert all(action["type"] == "bid" for action in opening)
    levels = [auction.entry_level(action) for action in opening]
    assert levels == sorted(levels)
    assert opening[0] == bid(1, "joker", 1)
    assert opening[-1] == bid(13, "pawn", 9, open_=True)


def test_legal_bids_are_exactly_those_that_beat_the_current_bid():  # D-AUCTION
    state = engine.apply(auction_state(dealer=3), 0, bid(9, "rook", 7, open_=True))
    state = engine.apply(state, 1, PASS)
    state = engine.apply(state, 2, bid(9, None, 7, open_=True))
    legal = engine.legal_actions(state)
    assert legal[0] == PASS
    assert legal[1:] == [b for b in auction.BIDS if auction.entry_level(b) > 52]
    assert bid(10, "knight", 5) in legal and bid(9, None, 7, open_=True) not in legal
    for action in legal[1:]:
        engine.apply(state, 3, action)
    assert engine.legal_actions(engine.apply(state, 3, bid(13, None, None, True))) == [PASS]


def test_legal_bids_are_fresh_dicts():  # the caller may keep or change them
    state = auction_state()
    first = engine.legal_actions(state)
    first[0]["tricks"] = 13
    assert engine.legal_actions(state)[0]["tricks"] == 1


def test_open_bid_and_auction_do_not_change_hands():  # D-AUCTION
    state = auction_state(dealer=3)
    before = frozen(state)
    after = engine.apply(state, 0, bid(2, "queen", 3, open_=True))
    assert state == before
    assert after["hands"] == before["hands"]
    assert after["auction"] == [
        {"seat": 0, "tricks": 2, "trump": "queen", "supertrump": 3, "open": True}
    ]
