"""T-C-BONUS (the chain of extra crosses, phase "extra") and T-WIN."""

import pytest

from games.triggs.engine import IllegalAction, apply, legal_actions
from games.triggs.sheet import ROW_SIZES

from .test_triggs_positions import nearly_full, play, position, row_sheet


def extra(value):
    return {"type": "extra", "value": value}


def test_tomas_places_his_extra_cross_in_row_9():
    state = position(hands=[[7, 5, 2, 5, 2, 8], [1]], sheets=[row_sheet({7: 1}), row_sheet()])
    state = play(state, {"type": "cross", "value": 7, "sets": [[7], [5, 2], [5, 2]]})
    assert legal_actions(state) == [extra(v) for v in range(1, 13) if v != 7]
    after = play(state, extra(9))
    assert after["sheets"][0] == row_sheet({7: 4, 9: 1})
    assert after["phase"] == "play"
    assert after["pending_extra"] == 0
    assert after["turn"] == 1
    assert after["hands"] == state["hands"] and after["piles"] == state["piles"]


def test_sara_chains_row_10_then_row_8_then_row_5():
    # T-C-BONUS: an extra cross that fills a row earns another one
    sheet = row_sheet({10: 4, 8: 3, 5: 1})
    state = position(hands=[[10, 3], [1]], sheets=[sheet, row_sheet()])
    state = play(state, {"type": "cross", "value": 10, "sets": [[10]]})
    assert (state["phase"], state["pending_extra"], state["turn"]) == ("extra", 1, 0)
    state = play(state, extra(8))
    assert (state["phase"], state["pending_extra"], state["turn"]) == ("extra", 1, 0)
    state = play(state, extra(5))
    assert (state["phase"], state["pending_extra"], state["turn"]) == ("play", 0, 1)
    assert state["sheets"][0] == row_sheet({10: 5, 8: 4, 5: 2})


def test_eleven_extra_crosses_in_a_row_win_the_game():
    # T-C-BONUS + T-WIN: the rulebook's "eleven times in a row"
    sheet = nearly_full({v: 1 for v in range(1, 13)})
    state = position(hands=[[1, 4], [2]], sheets=[sheet, row_sheet()])
    state = play(state, {"type": "cross", "value": 1, "sets": [[1]]})
    for step, value in enumerate(range(2, 13), start=1):
        assert state["phase"] == "extra" and state["pending_extra"] == 1
        assert legal_actions(state) == [extra(v) for v in range(value, 13)]
        state = play(state, extra(value))
        assert sum(state["sheets"][0]) == 31 + step
    assert state["phase"] == "over"
    assert state["winner"] == 0
    assert state["pending_extra"] == 0
    assert state["sheets"][0] == list(ROW_SIZES[1:])
    assert legal_actions(state) == []


def test_extra_cross_is_mandatory_while_pending():
    # T-C-BONUS ruling
    state = position(hands=[[2, 5, 5], [1]], sheets=[row_sheet({2: 1}), row_sheet()])
    state = play(state, {"type": "cross", "value": 2, "sets": [[2]]})
    assert {a["type"] for a in legal_actions(state)} == {"extra"}
    for action in (
        {"type": "draw", "from": ["stock", "stock"]},
        {"type": "discard", "value": 5, "count": 1},
        {"type": "cross", "value": 10, "sets": [[5, 5]]},
    ):
        with pytest.raises(IllegalAction) as err:
            apply(state, 0, action)
        assert err.value.code == "extra_pending"


def test_extra_cross_cannot_go_on_a_full_row():
    state = position(hands=[[2], [1]], sheets=[row_sheet({2: 1, 4: 3}), row_sheet()], phase="extra")
    state["pending_extra"] = 1
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, extra(4))
    assert err.value.code == "row_full"
    assert extra(4) not in legal_actions(state)


def test_extra_cross_only_in_phase_extra():
    state = position(hands=[[2], [1]])
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, extra(4))
    assert err.value.code == "no_extra_pending"


def test_win_by_a_cross_ends_the_game_at_once():
    # T-WIN
    state = position(
        players=3,
        turn=1,
        hands=[[1], [9, 9, 2], [3]],
        sheets=[row_sheet(), nearly_full({9: 2}), row_sheet()],
    )
    after = play(state, {"type": "cross", "value": 9, "sets": [[9], [9]]})
    assert after["phase"] == "over" and after["winner"] == 1
    assert after["turn"] == 1
    assert legal_actions(after) == []
    for seat in range(3):
        with pytest.raises(IllegalAction) as err:
            apply(after, seat, {"type": "draw", "from": ["stock", "stock"]})
        assert err.value.code == "game_over"


def test_chain_ends_when_all_42_boxes_are_crossed():
    # T-C-BONUS ruling: with nothing left to cross there is no further extra
    state = position(hands=[[3, 7], [1]], sheets=[nearly_full({3: 1, 6: 1}), row_sheet()])
    state = play(state, {"type": "cross", "value": 3, "sets": [[3]]})
    assert legal_actions(state) == [extra(6)]
    state = play(state, extra(6))
    assert state["phase"] == "over" and state["winner"] == 0
    assert state["hands"][0] == [7]
