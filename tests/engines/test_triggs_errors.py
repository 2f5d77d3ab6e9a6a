"""Every IllegalAction code (errors.CODES): one test each, raising it and changing nothing."""

import copy
import re

import pytest

from games.triggs.engine import CODES, IllegalAction, apply, new_game

from .test_triggs_positions import nearly_full, position, row_sheet

DRAW = {"type": "draw", "from": ["stock", "stock"]}
RULE_IDS = {
    "T-DECK", "T-SHEET", "T-SETUP-1", "T-SETUP-2", "T-SETUP-3", "T-A", "T-A-LIMIT", "T-B",
    "T-C", "T-C-CAP", "T-C-BONUS", "T-EMPTY-HAND", "T-REFILL", "T-OBSOLETE-12",
    "T-OBSOLETE-11", "T-WIN",
}  # fmt: skip


def playing():
    """Seat 0 to play, with a few cards and a partly crossed sheet."""
    return position(
        hands=[[7, 5, 2, 3, 3, 12], [1, 1]],
        sheets=[row_sheet({3: 2, 7: 1}), row_sheet()],
        left=[],
        under="stock",
    )


def extra_phase():
    state = position(hands=[[4], [1]], sheets=[row_sheet({2: 2, 5: 3}), row_sheet()])
    state.update(phase="extra", pending_extra=1)
    return state


def finished():
    state = position(hands=[[4], [1]], sheets=[nearly_full({}), row_sheet()])
    state.update(phase="over", winner=0)
    return state


def hand_of(size):
    return position(hands=[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10][:size], [1]])


# code -> (state factory, seat, action): the canonical case of each code
CASES = {
    "bad_action": (playing, 0, ["draw", "stock", "stock"]),
    "unknown_action": (playing, 0, {"type": "pass"}),
    "missing_field": (playing, 0, {"type": "discard", "value": 3}),
    "unexpected_field": (playing, 0, {**DRAW, "seat": 0}),
    "game_over": (finished, 0, DRAW),
    "bad_seat": (playing, 2, DRAW),
    "not_your_turn": (playing, 1, DRAW),
    "extra_pending": (extra_phase, 0, DRAW),
    "no_extra_pending": (playing, 0, {"type": "extra", "value": 9}),
    "bad_sources": (playing, 0, {"type": "draw", "from": ["stock", "middle"]}),
    "hand_full": (lambda: hand_of(10), 0, {"type": "draw", "from": ["stock"]}),
    "wrong_draw_count": (playing, 0, {"type": "draw", "from": ["stock", "stock", "right"]}),
    "pile_empty": (playing, 0, {"type": "draw", "from": ["left", "stock"]}),
    "bad_value": (playing, 0, {"type": "discard", "value": 13, "count": 1}),
    "bad_count": (playing, 0, {"type": "discard", "value": 3, "count": 0}),
    "cards_not_in_hand": (playing, 0, {"type": "discard", "value": 3, "count": 3}),
    "row_full": (playing, 0, {"type": "cross", "value": 3, "sets": [[3]]}),
    "bad_sets": (playing, 0, {"type": "cross", "value": 7, "sets": []}),
    "set_too_large": (playing, 0, {"type": "cross", "value": 7, "sets": [[2, 2, 3]]}),
    "set_wrong_sum": (playing, 0, {"type": "cross", "value": 7, "sets": [[5, 3]]}),
    "too_many_sets": (
        playing,
        0,
        {"type": "cross", "value": 7, "sets": [[7], [5, 2], [3, 4], [3, 4]]},
    ),
}

# more ways to get some codes, each also changing nothing
VARIANTS = [
    ("bad_action", playing, 0, {"from": ["stock", "stock"]}),
    ("bad_action", playing, 0, {"type": 1}),
    ("bad_action", playing, 0, None),
    ("unknown_action", playing, 0, {"type": "Draw", "from": ["stock", "stock"]}),
    ("missing_field", playing, 0, {"type": "cross", "sets": [[7]]}),
    ("unexpected_field", extra_phase, 0, {"type": "extra", "value": 4, "count": 1}),
    ("game_over", finished, 1, {"type": "discard", "value": 1, "count": 1}),
    ("bad_seat", playing, True, DRAW),
    ("bad_seat", playing, "0", DRAW),
    ("bad_seat", playing, None, DRAW),
    ("bad_seat", playing, -1, DRAW),
    ("not_your_turn", extra_phase, 1, {"type": "extra", "value": 4}),
    ("extra_pending", extra_phase, 0, {"type": "discard", "value": 4, "count": 1}),
    ("extra_pending", extra_phase, 0, {"type": "cross", "value": 4, "sets": [[4]]}),
    ("bad_sources", playing, 0, {"type": "draw", "from": "stock"}),
    ("bad_sources", playing, 0, {"type": "draw", "from": [0, 1]}),
    ("bad_sources", playing, 0, {"type": "draw", "from": None}),
    ("bad_sources", playing, 0, {"type": "draw", "from": ("stock", "stock")}),
    ("bad_sources", playing, 0, {"type": "draw", "from": [["stock"], "stock"]}),
    ("wrong_draw_count", playing, 0, {"type": "draw", "from": ["stock"]}),
    ("wrong_draw_count", playing, 0, {"type": "draw", "from": []}),
    ("wrong_draw_count", lambda: hand_of(9), 0, DRAW),
    ("pile_empty", playing, 0, {"type": "draw", "from": ["stock", "left"]}),
    ("bad_value", playing, 0, {"type": "discard", "value": True, "count": 1}),
    ("bad_value", playing, 0, {"type": "discard", "value": 0, "count": 1}),
    ("bad_value", playing, 0, {"type": "discard", "value": "3", "count": 1}),
    ("bad_value", playing, 0, {"type": "discard", "value": 3.0, "count": 1}),
    ("bad_value", playing, 0, {"type": "discard", "value": [3, 5], "count": 2}),
    ("bad_value", playing, 0, {"type": "cross", "value": None, "sets": [[7]]}),
    ("bad_value", extra_phase, 0, {"type": "extra", "value": 0}),
    ("bad_value", extra_phase, 0, {"type": "extra", "value": False}),
    ("bad_count", playing, 0, {"type": "discard", "value": 3, "count": -2}),
    ("bad_count", playing, 0, {"type": "discard", "value": 3, "count": True}),
    ("bad_count", playing, 0, {"type": "discard", "value": 3, "count": 1.0}),
    ("bad_count", playing, 0, {"type": "discard", "value": 3, "count": "1"}),
    ("cards_not_in_hand", playing, 0, {"type": "discard", "value": 9, "count": 1}),
    ("cards_not_in_hand", playing, 0, {"type": "cross", "value": 7, "sets": [[7], [7]]}),
    ("cards_not_in_hand", playing, 0, {"type": "cross", "value": 6, "sets": [[3, 3], [3, 3]]}),
    ("row_full", extra_phase, 0, {"type": "extra", "value": 5}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [7]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [[]]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": "7"}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [[7.0]]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 2, "sets": [[True, True]]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [[0, 7]]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [[13, -6]]}),
    ("bad_sets", playing, 0, {"type": "cross", "value": 7, "sets": [(5, 2)]}),
    ("set_too_large", playing, 0, {"type": "cross", "value": 7, "sets": [[7], [1, 1, 1, 4]]}),
    ("set_wrong_sum", playing, 0, {"type": "cross", "value": 7, "sets": [[5]]}),
    ("set_wrong_sum", playing, 0, {"type": "cross", "value": 5, "sets": [[5, 5]]}),
    ("set_wrong_sum", playing, 0, {"type": "cross", "value": 12, "sets": [[12], [7, 2]]}),
]


def raised(factory, seat, action):
    state = factory()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, action)
    assert state == before
    return err.value


@pytest.mark.parametrize("code", sorted(CASES))
def test_illegal_action_raises_its_code_and_changes_nothing(code):
    factory, seat, action = CASES[code]
    error = raised(factory, seat, action)
    assert error.code == code
    assert error.rule == CODES[code][0]
    assert code in str(error)


@pytest.mark.parametrize(("code", "factory", "seat", "action"), VARIANTS)
def test_more_illegal_actions(code, factory, seat, action):
    assert raised(factory, seat, action).code == code


@pytest.mark.parametrize(
    "config", [{}, {"players": 1}, {"players": 5}, {"players": "2"}, {"players": True}, None]
)
def test_bad_config(config):
    with pytest.raises(IllegalAction) as err:
        new_game(config, 1)
    assert err.value.code == "bad_config"


def test_bad_config_seed_must_be_an_int():
    for seed in ("1", 1.0, None, True):
        with pytest.raises(IllegalAction) as err:
            new_game({"players": 2}, seed)
        assert err.value.code == "bad_config"


def test_every_code_has_a_test_and_a_rule_of_record():
    # The companion score sheet's own codes are tested in test_triggs_companion.py.
    companion_only = {
        "no_turns",
        "nothing_to_undo",
        "bad_crosses",
        "no_change",
        "correction_pending",
        "no_correction",
    }
    assert set(CASES) | {"bad_config"} | companion_only == set(CODES)
    for code, (rule, text) in CODES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code)
        assert rule in RULE_IDS
        assert text


def test_error_message_names_code_rule_and_detail():
    error = IllegalAction("row_full", "7")
    assert error.code == "row_full"
    assert error.rule == "T-C-CAP"
    assert error.message == "that row is already full (7)"
    assert str(error) == "row_full [T-C-CAP]: that row is already full (7)"
