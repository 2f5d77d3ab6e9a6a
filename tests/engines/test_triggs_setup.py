"""T-DECK, T-SHEET, T-SETUP-1, T-SETUP-2, T-SETUP-3."""

import json
import random
from collections import Counter

import pytest

from games.triggs.engine import apply, new_game
from games.triggs.sheet import ROW_SIZES, TOTAL_BOXES, cross_ways, open_boxes

from .test_triggs_positions import DECK, all_cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_has_nine_cards_of_each_value_1_to_12(players):
    # T-DECK
    state = new_game({"players": players}, 3)
    assert all_cards(state) == DECK
    assert sum(DECK.values()) == 108


def test_sheet_row_sizes_total_42():
    # T-SHEET: 1-3 two boxes, 4-6 three, 7-9 four, 10-12 five
    assert ROW_SIZES[1:] == (2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)
    assert TOTAL_BOXES == sum(ROW_SIZES) == 42
    state = new_game({"players": 3}, 1)
    assert state["sheets"] == [[0] * 12] * 3


def test_cross_ways_takes_every_single_then_every_pair_up_to_the_open_boxes():
    # T-C, T-C-CAP
    hand = [11, 11, 7, 4, 10, 1, 6, 6, 6]
    counts = [hand.count(v) for v in range(13)]
    present = sorted(set(hand))
    ways = cross_ways(counts, present, [0] * 12)
    assert ways[11] == [[11], [11], [1, 10], [4, 7]]
    assert ways[12] == [[1, 11], [6, 6]]
    assert ways[6] == [[6], [6], [6]]
    assert ways[10] == [[10], [4, 6]]
    assert ways[5] == [[1, 4]]
    assert 2 not in ways and 9 not in ways
    crossed = [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 5, 4]
    ways = cross_ways(counts, present, crossed)
    assert 11 not in ways  # full
    assert ways[6] == [[6]]  # one open box
    assert ways[12] == [[1, 11]]


def test_open_boxes():
    assert open_boxes([0] * 12, 12) == 5
    assert open_boxes([1] + [0] * 11, 1) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_is_dealt_five_cards(players):
    # T-SETUP-1
    state = new_game({"players": players}, 11)
    assert [len(hand) for hand in state["hands"]] == [5] * players
    assert state["players"] == players
    assert state["game"] == "triggs"
    assert state["phase"] == "play"
    assert state["winner"] is None
    assert state["discard"] == [] and state["box"] == [] and state["obsolete"] == []
    assert state["pending_extra"] == 0


@pytest.mark.parametrize(
    ("players", "left", "stock", "right"),
    [(2, 25, 49, 24), (3, 23, 47, 23), (4, 22, 44, 22)],
)
def test_rest_splits_stock_half_rounded_up_left_gets_extra(players, left, stock, right):
    # T-SETUP-2 ruling
    piles = new_game({"players": players}, 5)["piles"]
    assert [len(piles[p]) for p in ("left", "stock", "right")] == [left, stock, right]
    assert stock > left >= right


def test_the_shuffle_differs_between_seeds():
    # T-SETUP-1: a real shuffle, not a fixed order
    states = [new_game({"players": 2}, seed) for seed in range(20)]
    assert len({json.dumps(s["piles"]) for s in states}) == 20
    assert len({json.dumps(s["hands"]) for s in states}) == 20


def test_same_config_and_seed_give_the_same_state():
    assert new_game({"players": 4}, 99) == new_game({"players": 4}, 99)
    assert new_game({"players": 4}, 99) != new_game({"players": 4}, 100)


def test_new_game_ignores_and_keeps_global_random():
    random.seed(1)
    before = random.getstate()
    first = new_game({"players": 3}, 8)
    assert random.getstate() == before
    random.seed(2)
    assert new_game({"players": 3}, 8) == first


def test_starting_player_is_random_from_the_seed():
    # T-SETUP-3
    starters = Counter(new_game({"players": 4}, seed)["turn"] for seed in range(200))
    assert set(starters) == {0, 1, 2, 3}
    assert min(starters.values()) > 20


def test_play_goes_clockwise_in_seat_order():
    # T-SETUP-3
    state = new_game({"players": 3}, 21)
    seats = []
    for _ in range(6):
        seats.append(state["turn"])
        state = apply(state, state["turn"], {"type": "draw", "from": ["stock", "stock"]})
    first = seats[0]
    assert seats == [(first + i) % 3 for i in range(6)]


def test_state_is_plain_json():
    state = new_game({"players": 2}, 2**40 + 3)
    assert json.loads(json.dumps(state)) == state
    assert state["seed"] == 2**40 + 3
