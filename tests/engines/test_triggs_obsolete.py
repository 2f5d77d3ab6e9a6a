"""T-OBSOLETE-12 and T-OBSOLETE-11: 12s, then 11s, leave the game once every row is full."""

from collections import Counter

import pytest

from games.triggs.engine import IllegalAction, apply, legal_actions
from games.triggs.piles import next_obsolete

from .test_triggs_positions import DECK, all_cards, nearly_full, play, position, row_sheet

FULL_12 = row_sheet({12: 5})


def test_twelves_become_obsolete_when_the_last_player_fills_row_12():
    # T-OBSOLETE-12: the 12s on top of a face-up pile go to the box, repeatedly
    state = position(
        hands=[[12, 4], [1]],
        sheets=[row_sheet({12: 4}), FULL_12],
        left=[3, 12, 12],
        right=[12, 9],
        under="stock",
    )
    after = play(state, {"type": "cross", "value": 12, "sets": [[12]]})
    assert after["obsolete"] == [12]
    assert after["piles"]["left"] == [3]
    assert after["piles"]["right"] == [12, 9]  # a 12 under the top stays
    assert after["box"] == [12, 12]
    assert after["discard"] == [12]  # laid before they became obsolete
    assert all_cards(after) == DECK


def test_twelves_stay_while_one_player_has_not_filled_row_12():
    state = position(
        players=3,
        hands=[[12], [1], [1]],
        sheets=[row_sheet({12: 4}), FULL_12, row_sheet({12: 3})],
        left=[12],
        under="stock",
    )
    after = play(state, {"type": "cross", "value": 12, "sets": [[12]]})
    assert after["obsolete"] == []
    assert after["piles"]["left"] == [12]
    assert after["box"] == []


def test_an_extra_cross_can_make_twelves_obsolete():
    state = position(
        hands=[[2, 5], [1]],
        sheets=[row_sheet({2: 1, 12: 4}), FULL_12],
        right=[12],
        under="stock",
    )
    state = play(state, {"type": "cross", "value": 2, "sets": [[2]]})
    after = play(state, {"type": "extra", "value": 12})
    assert after["obsolete"] == [12]
    assert after["box"] == [12]
    assert after["piles"]["right"] == [2]  # refilled from the discard pile (the 2 laid)


def test_a_twelve_uncovered_by_a_draw_is_removed():
    state = position(
        hands=[[], [1]],
        sheets=[FULL_12, FULL_12],
        left=[5, 12, 12, 8],
        obsolete=[12],
        under="stock",
    )
    after = play(state, {"type": "draw", "from": ["left", "left"]})
    assert after["hands"][0] == [8, 5]
    assert after["box"] == [12, 12]


def test_a_pile_of_only_obsolete_cards_below_the_top_cannot_be_drawn_twice():
    state = position(
        hands=[[], [1]], sheets=[FULL_12, FULL_12], left=[12, 8], obsolete=[12], under="stock"
    )
    assert {"type": "draw", "from": ["left", "left"]} not in legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "draw", "from": ["left", "left"]})
    assert err.value.code == "pile_empty"


def test_obsolete_twelves_discarded_from_hand_go_to_the_box():
    state = position(
        hands=[[12, 12, 3], [1]], sheets=[FULL_12, FULL_12], obsolete=[12], discard=[6]
    )
    after = play(state, {"type": "discard", "value": 12, "count": 2})
    assert after["box"] == [12, 12]
    assert after["discard"] == [6]
    assert after["hands"][0] == [3]


def test_twelves_in_the_stock_can_still_be_drawn():
    state = position(
        hands=[[], [1]], sheets=[FULL_12, FULL_12], stock=[12], obsolete=[12], under="left"
    )
    after = play(state, {"type": "draw", "from": ["stock", "left"]})
    assert 12 in after["hands"][0]


def test_obsolete_cards_reshuffled_into_a_face_up_pile_are_removed_when_they_surface():
    state = position(
        hands=[[], [1]],
        sheets=[FULL_12, FULL_12],
        left=[7],
        discard=[12, 12, 12, 5, 6],
        obsolete=[12],
        under="stock",
    )
    after = play(state, {"type": "draw", "from": ["left", "left"]})
    assert after["hands"][0][0] == 7
    assert after["hands"][0][1] in (5, 6)
    assert not after["piles"]["left"] or after["piles"]["left"][-1] != 12
    assert Counter(after["box"]) == Counter({12: 3 - after["piles"]["left"].count(12)})
    assert all_cards(after) == DECK


def test_elevens_wait_for_the_twelves():
    # T-OBSOLETE-11: every row 11 full is not enough while 12s are still in play
    full_11 = row_sheet({11: 5})
    state = position(
        hands=[[11, 2], [1]],
        sheets=[row_sheet({11: 4}), full_11],
        left=[11],
        under="stock",
    )
    after = play(state, {"type": "cross", "value": 11, "sets": [[11]]})
    assert after["obsolete"] == []
    assert after["piles"]["left"] == [11]


def test_elevens_follow_at_once_when_the_twelves_go():
    both = row_sheet({11: 5, 12: 5})
    state = position(
        hands=[[12, 2], [1]],
        sheets=[row_sheet({11: 5, 12: 4}), both],
        left=[12, 11],
        right=[11, 12],
        under="stock",
    )
    after = play(state, {"type": "cross", "value": 12, "sets": [[12]]})
    assert after["obsolete"] == [12, 11]
    # left loses 11 then 12, right 12 then 11; the emptied left pile takes the
    # discard pile (the 12 just laid), which is obsolete too
    assert after["box"] == [11, 12, 12, 11, 12]
    assert after["piles"]["left"] == [] and after["piles"]["right"] == []
    assert after["discard"] == []
    assert all_cards(after) == DECK


def test_elevens_become_obsolete_after_the_twelves():
    state = position(
        hands=[[11, 10, 1, 4], [1]],
        sheets=[row_sheet({11: 3, 12: 5}), row_sheet({11: 5, 12: 5})],
        obsolete=[12],
        left=[11],
        under="stock",
    )
    after = play(state, {"type": "cross", "value": 11, "sets": [[11], [10, 1]]})
    assert after["obsolete"] == [12, 11]
    assert after["box"] == [11]
    after = play(after, {"type": "extra", "value": 4})
    assert after["phase"] == "play"


def test_values_one_to_ten_never_become_obsolete():
    full = nearly_full({})
    assert next_obsolete([full, full], []) == [12, 11]
    assert next_obsolete([full, row_sheet({12: 5})], []) == [12]
    assert next_obsolete([full, row_sheet({11: 5})], []) == []
