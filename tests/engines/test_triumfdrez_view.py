"""view(): hidden information (D-DEAL) and open contracts (D-OPEN)."""

import json

import pytest

from games.triumfdrez import engine

from .test_triumfdrez_support import PASS, auction_state, bid, play, play_position, redeal_unseen

PUBLIC = {
    "game",
    "players",
    "target",
    "teams",
    "dealer",
    "turn",
    "hand_no",
    "phase",
    "auction",
    "contract",
    "trick",
    "leader",
    "tricks_won",
    "scores",
    "winner",
    "last_trick",
    "played_tricks",
    "last_result",
    "history",
}


def test_view_keys_for_a_seat_and_a_spectator():
    state = engine.new_game({"players": 3}, 4)
    seen = engine.view(state, 1)
    assert set(seen) == PUBLIC | {
        *("seat", "hand", "hand_sizes", "hidden_count", "open_hands"),
        *("current_bid", "lowest_beating", "playable", "unplayable"),
    }
    assert seen["current_bid"] is None and seen["lowest_beating"] == [1, 14, 14, 14, 1, 14, 14, 14]
    assert seen["playable"] == [] and seen["unplayable"] == {}  # the auction
    assert seen["seat"] == 1
    assert seen["hand"] == state["hands"][1]
    assert seen["hand_sizes"] == [13, 13, 13]
    assert seen["hidden_count"] == 17
    assert seen["open_hands"] == [None, None, None]
    spectator = engine.view(state, None)
    assert "hand" not in spectator and spectator["seat"] is None
    assert json.loads(json.dumps(spectator)) == spectator


def test_own_hand_is_sorted_by_figure_rank_then_number():
    state = play_position([["pawn-2", "neutral-1", "joker-9", "pawn-1", "joker-3"], ["rook-1"]])
    assert engine.view(state, 0)["hand"] == ["joker-3", "joker-9", "pawn-1", "pawn-2", "neutral-1"]


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_seed_hidden_cards_and_other_hands_never_in_the_view(seat):  # D-DEAL
    state = engine.new_game({"players": 4}, 123456789)
    text = json.dumps(engine.view(state, seat))
    assert "123456789" not in text and "seed" not in text
    for other in range(4):
        for card in state["hands"][other]:
            assert (f'"{card}"' in text) == (other == seat)
    for card in state["hidden"]:
        assert f'"{card}"' not in text


@pytest.mark.parametrize("seat", [None, 0, 2])
def test_states_differing_only_in_unseen_cards_look_the_same(seat):  # D-DEAL
    state = engine.new_game({"players": 4}, 9)
    other = redeal_unseen(state, seat)
    assert other["hands"] != state["hands"]
    assert engine.view(other, seat) == engine.view(state, seat)
    if seat is not None:  # the same change seen from a seat whose cards moved
        assert engine.view(other, (seat + 1) % 4) != engine.view(state, (seat + 1) % 4)


def _open_contract_in_play():
    state = auction_state(players=4, dealer=0)
    state = engine.apply(state, 1, bid(3, "rook", 2))
    state = engine.apply(state, 2, bid(3, "rook", 2, open_=True))
    during_auction = state
    for seat in (3, 0, 1):
        state = engine.apply(state, seat, PASS)
    return during_auction, state


def test_open_contract_shows_the_declaring_side_from_the_start_of_play():  # D-OPEN
    during_auction, state = _open_contract_in_play()
    assert state["phase"] == "play" and state["contract"]["open"] is True
    assert state["contract"]["seat"] == 2  # partners 2 and 0
    for seat in (None, 0, 1, 2, 3):
        assert engine.view(during_auction, seat)["open_hands"] == [None] * 4  # never in auction
        seen = engine.view(state, seat)
        assert seen["open_hands"] == [state["hands"][0], None, state["hands"][2], None]
    # Cards of an open hand now count as seen: moving them changes the opponents' view.
    assert engine.view(redeal_unseen(state, 1), 1) != engine.view(state, 1)
    assert engine.view(redeal_unseen(state, 1, open_seats=(0, 2)), 1) == engine.view(state, 1)


def test_open_hands_follow_the_play_until_the_end_of_the_hand():  # D-OPEN
    state = play_position(
        [["rook-1", "pawn-1"], ["rook-2", "pawn-2"], ["rook-3", "pawn-3"]],
        declarer=1,
        tricks=1,
        open_=True,
        tricks_won=[5, 4, 2],
    )
    assert engine.view(state, 0)["open_hands"] == [None, ["rook-2", "pawn-2"], None]
    state = engine.apply(state, 1, play("pawn-2"))
    assert engine.view(state, 2)["open_hands"] == [None, ["rook-2"], None]
    while state["phase"] == "play":
        state = engine.apply(state, state["turn"], engine.legal_actions(state)[0])
    assert state["phase"] == "hand_over"
    assert engine.view(state, 0)["open_hands"] == [None, [], None]
    state = engine.apply(state, 0, {"type": "next_hand"})
    assert engine.view(state, 0)["open_hands"] == [None, None, None]


def test_closed_contract_shows_no_hand():  # D-OPEN
    state = play_position([["rook-1"], ["rook-2"]], declarer=1, open_=False)
    assert engine.view(state, 0)["open_hands"] == [None, None]
    assert engine.view(state, 0)["hand_sizes"] == [1, 1]
    assert "rook-2" not in json.dumps(engine.view(state, 0))


@pytest.mark.parametrize("seat", [4, -1, True, "0", 1.0])
def test_view_of_a_seat_that_does_not_exist(seat):
    with pytest.raises(engine.IllegalAction) as error:
        engine.view(engine.new_game({"players": 4}, 1), seat)
    assert error.value.code == "bad_seat"


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_what_the_view_works_out_in_play_depends_only_on_what_the_seat_sees(seat):
    """playable, unplayable, last_trick's reason and last_result's value (D-DEAL)."""
    state = engine.new_game({"players": 4}, 31)
    declarer = 2
    state.update(
        phase="play",
        contract={"seat": declarer, "tricks": 7, "trump": "rook", "supertrump": 4, "open": False},
        turn=declarer,
        leader=declarer,
    )
    for _ in range(6):  # a trick won and two cards of the next one
        state = engine.apply(state, state["turn"], engine.legal_actions(state)[-1])
    assert state["last_trick"] and len(state["trick"]) == 2
    seen = engine.view(state, seat)
    assert seen["last_trick"]["reason"]
    assert seen["playable"] or seen["unplayable"]
    assert engine.view(redeal_unseen(state, seat), seat) == seen
