"""T-C (announce a value, lay singles and pairs) and T-C-CAP (no more sets than open boxes)."""

import pytest

from games.triggs.engine import IllegalAction, apply, legal_actions

from .test_triggs_positions import DECK, all_cards, play, position, row_sheet


def crosses(state):
    return [a for a in legal_actions(state) if a["type"] == "cross"]


def test_maria_crosses_four_boxes_of_row_11():
    # T-C: two single 11s, 7+4 and 10+1
    state = position(hands=[[11, 11, 7, 4, 10, 1, 3], [2]])
    action = {"type": "cross", "value": 11, "sets": [[11], [11], [7, 4], [10, 1]]}
    after = play(state, action)
    assert after["sheets"][0] == row_sheet({11: 4})
    assert after["hands"][0] == [3]
    assert after["discard"] == [11, 11, 7, 4, 10, 1]
    assert after["phase"] == "play" and after["pending_extra"] == 0
    assert after["turn"] == 1
    assert all_cards(after) == DECK


def test_maria_position_lists_every_number_of_sets_for_row_11():
    state = position(hands=[[11, 11, 7, 4, 10, 1, 3], [2]])
    counts = sorted(len(a["sets"]) for a in crosses(state) if a["value"] == 11)
    assert counts == [1, 2, 3, 4]


def test_tomas_finishes_row_7_with_a_seven_and_two_five_plus_two():
    # T-C + T-C-BONUS: three open boxes of row 7, then an extra cross
    state = position(hands=[[7, 5, 2, 5, 2, 8], [1]], sheets=[row_sheet({7: 1}), row_sheet()])
    after = play(state, {"type": "cross", "value": 7, "sets": [[7], [5, 2], [5, 2]]})
    assert after["sheets"][0][6] == 4
    assert after["phase"] == "extra"
    assert after["pending_extra"] == 1
    assert after["turn"] == 0
    assert after["hands"][0] == [8]


def test_a_pair_of_equal_cards_makes_double_its_value():
    state = position(hands=[[6, 6], [1]])
    assert {"type": "cross", "value": 12, "sets": [[6, 6]]} in crosses(state)
    after = play(state, {"type": "cross", "value": 12, "sets": [[6, 6]]})
    assert after["sheets"][0][11] == 1


def test_sets_are_never_three_cards():
    # T-C
    state = position(hands=[[2, 2, 3], [1]])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "cross", "value": 7, "sets": [[2, 2, 3]]})
    assert err.value.code == "set_too_large"
    assert all(len(s) <= 2 for a in crosses(state) for s in a["sets"])


def test_a_set_must_make_the_announced_value():
    state = position(hands=[[3, 5, 8], [1]])
    for value, sets in ((9, [[3, 5]]), (8, [[5]]), (8, [[8], [3]])):
        with pytest.raises(IllegalAction) as err:
            apply(state, 0, {"type": "cross", "value": value, "sets": sets})
        assert err.value.code == "set_wrong_sum"


def test_cards_must_be_in_hand_counting_repeats():
    state = position(hands=[[4, 4, 8], [1]])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "cross", "value": 8, "sets": [[8], [4, 4], [8]]})
    assert err.value.code == "cards_not_in_hand"


def test_no_more_sets_than_open_boxes():
    # T-C-CAP: row 3 has two boxes, one crossed
    state = position(hands=[[3, 3, 2, 1], [1]], sheets=[row_sheet({3: 1}), row_sheet()])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "cross", "value": 3, "sets": [[3], [3]]})
    assert err.value.code == "too_many_sets"
    assert [len(a["sets"]) for a in crosses(state) if a["value"] == 3] == [1]


def test_a_full_row_cannot_be_announced():
    # T-C-CAP
    state = position(hands=[[5, 5], [1]], sheets=[row_sheet({5: 3}), row_sheet()])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "cross", "value": 5, "sets": [[5]]})
    assert err.value.code == "row_full"
    assert not [a for a in crosses(state) if a["value"] == 5]


def test_cards_laid_go_to_the_discard_pile_in_order():
    state = position(hands=[[9, 4, 5, 6, 3], [1]], discard=[12])
    after = play(state, {"type": "cross", "value": 9, "sets": [[9], [4, 5], [6, 3]]})
    assert after["discard"] == [12, 9, 4, 5, 6, 3]
    assert len(after["hands"][0]) == 5  # the hand emptied: five new cards (T-EMPTY-HAND)


def test_crossing_without_filling_the_row_passes_the_turn():
    state = position(players=3, turn=2, hands=[[1], [1], [10, 2, 8]])
    after = play(state, {"type": "cross", "value": 10, "sets": [[10], [2, 8]]})
    assert after["turn"] == 0
    assert after["sheets"][2][9] == 2
    assert after["phase"] == "play"
