"""Triggs companion mode (games/triggs/companion.py): the score-sheet engine.

T-SHEET, T-C-CAP, T-C-BONUS, T-OBSOLETE-12/11, T-WIN, the turn marker (T-SETUP-3 order),
pass and undo; one test per error code; random legal play as a property.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.triggs import companion, errors
from games.triggs.sheet import ROW_SIZES

FULL = list(ROW_SIZES[1:])  # a sheet with every row full
PASS = {"type": "pass"}
UNDO = {"type": "undo"}


def cross(value, sets):
    return {"type": "cross", "value": value, "sets": sets}


def extra(value):
    return {"type": "extra", "value": value}


def frozen(state):
    return json.loads(json.dumps(state))


def game(players=2, **config):
    return companion.new_game({"players": players, **config}, 7)


def with_sheets(state, *sheets):
    """`state` with the given sheets (one per seat, the rest blank)."""
    state = frozen(state)
    for seat, sheet in enumerate(sheets):
        state["sheets"][seat] = list(sheet)
    return state


def sheet_with(**rows):
    """A sheet whose rows are given as r1=…, r12=… (boxes crossed), the rest 0."""
    sheet = [0] * 12
    for name, crossed in rows.items():
        sheet[int(name[1:]) - 1] = crossed
    return sheet


def almost_full(*open_rows):
    """A full sheet except one open box in each of `open_rows`."""
    sheet = FULL[:]
    for value in open_rows:
        sheet[value - 1] -= 1
    return sheet


def illegal(state, seat, action):
    before = frozen(state)
    with pytest.raises(companion.IllegalAction) as error:
        companion.apply(state, seat, action)
    assert state == before
    return error.value.code


# -- setup and the sheet ---------------------------------------------------------------


def test_new_game_gives_blank_sheets_and_the_contract_keys():  # T-SHEET
    state = game(3)
    assert state == {
        "game": "triggs-companion",
        "players": 3,
        "seed": 7,
        "turn_marker": True,
        "turn": 0,
        "phase": "play",
        "winner": None,
        "sheets": [[0] * 12] * 3,
        "obsolete": [],
        "pending_extra": 0,
        "extra_seat": None,
        "undo": None,
        "correction": None,
        "last": None,
    }
    assert companion.new_game({"players": 3}, 7) == state
    assert game(4, first=2, turn_marker=False)["turn"] == 2


def test_legal_crosses_follow_the_row_sizes():  # T-SHEET, T-C-CAP
    crosses = [a for a in companion.legal_actions(game()) if a["type"] == "cross"]
    assert len(crosses) == 42
    for value in range(1, 13):
        sets = [a["sets"] for a in crosses if a["value"] == value]
        assert sets == list(range(1, ROW_SIZES[value] + 1))


def test_cross_marks_the_row_and_passes_the_turn():  # T-C, T-SETUP-3
    state = companion.apply(game(3, first=2), 2, cross(10, 3))
    assert state["sheets"][2] == sheet_with(r10=3)
    assert state["turn"] == 0  # wraps around
    assert state["phase"] == "play"
    assert state["last"] == {"seat": 2, "type": "cross", "value": 10, "sets": 3, "extras": []}


def test_sets_are_capped_by_the_open_boxes():  # T-C-CAP
    state = with_sheets(game(), sheet_with(r10=3))
    assert illegal(state, 0, cross(10, 3)) == "too_many_sets"
    assert companion.apply(state, 0, cross(10, 2))["sheets"][0][9] == 5


# -- extra crosses (T-C-BONUS) ---------------------------------------------------------


def test_a_full_row_starts_a_chain_that_runs_until_a_row_stays_open():  # T-C-BONUS
    state = with_sheets(game(3), sheet_with(r2=1, r5=2, r11=4))
    state = companion.apply(state, 0, cross(2, 1))
    assert (state["phase"], state["pending_extra"], state["extra_seat"]) == ("extra", 1, 0)
    assert state["turn"] == 0  # the turn waits for the chain
    assert companion.legal_actions(state) == [extra(v) for v in range(1, 13) if v != 2] + [UNDO]
    state = companion.apply(state, 0, extra(5))  # fills row 5: the chain goes on
    assert state["phase"] == "extra" and state["pending_extra"] == 1
    state = companion.apply(state, 0, extra(11))  # fills row 11 too
    state = companion.apply(state, 0, extra(12))  # row 12 stays open: the chain ends
    assert (state["phase"], state["pending_extra"], state["extra_seat"]) == ("play", 0, None)
    assert state["turn"] == 1
    assert state["sheets"][0] == sheet_with(r2=2, r5=3, r11=5, r12=1)
    assert state["last"] == {
        "seat": 0,
        "type": "cross",
        "value": 2,
        "sets": 1,
        "extras": [5, 11, 12],
    }


def test_the_chain_is_mandatory_for_its_player():  # T-C-BONUS ruling
    state = companion.apply(with_sheets(game(), sheet_with(r1=1)), 0, cross(1, 1))
    assert illegal(state, 0, cross(5, 1)) == "extra_pending"
    assert illegal(state, 0, PASS) == "extra_pending"
    assert illegal(state, 0, extra(1)) == "row_full"


def test_without_turn_marker_others_wait_for_the_chain():  # T-C-BONUS
    state = with_sheets(game(3, turn_marker=False), sheet_with(r1=1))
    state = companion.apply(state, 0, cross(1, 1))
    assert illegal(state, 2, cross(5, 1)) == "extra_pending"
    assert companion.legal_actions(state, 2) == []
    state = companion.apply(state, 0, extra(5))
    assert companion.apply(state, 2, cross(5, 1))["sheets"][2][4] == 1


def test_the_chain_ends_the_moment_all_42_boxes_are_crossed():  # T-C-BONUS ruling, T-WIN
    state = with_sheets(game(), almost_full(1, 2))
    state = companion.apply(state, 0, cross(1, 1))
    assert state["phase"] == "extra"
    state = companion.apply(state, 0, extra(2))
    assert (state["phase"], state["winner"], state["pending_extra"]) == ("over", 0, 0)
    assert state["extra_seat"] is None
    assert state["last"]["extras"] == [2]


# -- obsolete values and the end -------------------------------------------------------


def test_12s_become_obsolete_once_every_row_12_is_full():  # T-OBSOLETE-12
    state = with_sheets(game(), sheet_with(r12=5), sheet_with(r12=3))
    state = companion.apply(state, 0, PASS)
    state = companion.apply(state, 1, cross(12, 1))
    assert state["obsolete"] == []
    state = companion.apply(state, 0, PASS)
    state = companion.apply(state, 1, cross(12, 1))  # fills row 12: extra cross first
    assert state["obsolete"] == [12]
    assert state["phase"] == "extra"


def test_11s_become_obsolete_only_after_12s():  # T-OBSOLETE-11
    state = with_sheets(game(), sheet_with(r11=5, r12=5), sheet_with(r11=5, r12=4))
    assert state["obsolete"] == []
    state = companion.apply(state, 0, PASS)
    state = companion.apply(state, 1, cross(12, 1))  # both at once
    assert state["obsolete"] == [12, 11]

    state = with_sheets(game(), sheet_with(r11=5), sheet_with(r11=4, r12=4))
    state = companion.apply(state, 0, PASS)
    state = companion.apply(state, 1, cross(11, 1))
    assert state["obsolete"] == []  # every 11 row full, but 12s are not obsolete yet
    state = companion.apply(state, 1, extra(12))  # the extra cross can do it
    assert state["obsolete"] == []  # seat 0's row 12 is still open


def test_a_full_sheet_wins_and_ends_the_game():  # T-WIN
    state = with_sheets(game(3), sheet_with(), almost_full(12))
    state = companion.apply(state, 0, PASS)
    state = companion.apply(state, 1, cross(12, 1))
    assert (state["phase"], state["winner"]) == ("over", 1)
    assert state["undo"] is None
    assert companion.legal_actions(state) == []
    assert companion.legal_actions(state, 2) == []
    assert companion.view(state, 0)["can_undo"] is None


# -- corrections -----------------------------------------------------------------------


def correct(seat, value, crosses):
    return {"type": "correct", "seat": seat, "value": value, "crosses": crosses}


CONFIRM = {"type": "confirm"}
REJECT = {"type": "reject"}


def test_a_mistake_two_turns_back_is_corrected_once_its_owner_confirms():
    state = game(3)
    state = companion.apply(state, 0, cross(7, 2))  # Ana meant row 8
    state = companion.apply(state, 1, cross(5, 1))
    state = companion.apply(state, 2, cross(9, 1))
    assert illegal(state, 0, UNDO) == "nothing_to_undo"  # too late for undo
    # Boris spots it and proposes the fix of Ana's row 7; nothing changes yet
    proposed = companion.apply(state, 1, correct(0, 7, 0))
    assert proposed["sheets"] == state["sheets"] and proposed["turn"] == state["turn"]
    assert proposed["correction"] == {"by": 1, "seat": 0, "value": 7, "crosses": 0}
    assert proposed["last"] == {
        "seat": 1,
        "type": "correct",
        "by": 1,
        "target": 0,
        "value": 7,
        "from": 2,
        "to": 0,
    }
    assert companion.legal_actions(proposed, 0)[-2:] == [CONFIRM, REJECT]
    assert companion.legal_actions(proposed, 1)[-1:] == [REJECT]
    assert CONFIRM not in companion.legal_actions(proposed, 1)
    assert illegal(proposed, 1, CONFIRM) == "no_correction"  # only the owner confirms
    assert illegal(proposed, 2, REJECT) == "no_correction"
    # play goes on meanwhile, and Ana confirms on her phone
    proposed = companion.apply(proposed, 0, cross(3, 1))
    done = companion.apply(proposed, 0, CONFIRM)
    assert done["sheets"][0] == sheet_with(r3=1)
    assert done["correction"] is None and done["undo"] is None
    assert done["last"]["type"] == "confirm" and done["last"]["to"] == 0
    assert done["turn"] == proposed["turn"]
    # her own sheet needs nobody's confirmation: the 2 crosses go to row 8
    own = companion.apply(done, 0, correct(0, 8, 2))
    assert own["sheets"][0] == sheet_with(r3=1, r8=2) and own["correction"] is None


def test_a_correction_can_be_rejected_by_its_owner_or_withdrawn_by_its_proposer():
    state = companion.apply(game(), 0, cross(4, 1))
    proposed = companion.apply(state, 0, correct(1, 4, 1))
    for seat in (0, 1):
        rejected = companion.apply(proposed, seat, REJECT)
        assert rejected["sheets"] == state["sheets"] and rejected["correction"] is None
        assert rejected["last"]["type"] == "reject"


def test_a_taken_back_win_resumes_the_game_with_the_next_seat():  # T-WIN
    state = with_sheets(game(3), sheet_with(), almost_full(12))
    state = companion.apply(state, 0, PASS)
    won = companion.apply(state, 1, cross(12, 1))  # a mistaken tap on the last box
    assert (won["phase"], won["winner"]) == ("over", 1)
    assert illegal(won, 2, cross(3, 1)) == "game_over"
    back = companion.apply(won, 1, correct(1, 12, ROW_SIZES[12] - 1))
    assert (back["phase"], back["winner"], back["turn"]) == ("play", None, 2)
    assert back["sheets"][1] == almost_full(12)
    assert companion.apply(back, 2, cross(3, 1))["turn"] == 0


def test_a_correction_recomputes_obsolete_rows_and_can_win():  # T-OBSOLETE-12, T-WIN
    state = with_sheets(game(), sheet_with(r12=ROW_SIZES[12]), almost_full(12))
    state = companion.apply(state, 0, PASS)
    assert state["obsolete"] == []
    won = companion.apply(state, 1, correct(1, 12, ROW_SIZES[12]))  # its own: at once, full
    assert (won["phase"], won["winner"], won["obsolete"]) == ("over", 1, [12])
    fixed = companion.apply(won, 0, correct(1, 12, ROW_SIZES[12] - 1))
    assert fixed["phase"] == "over"  # until its owner confirms
    fixed = companion.apply(fixed, 1, CONFIRM)
    assert (fixed["phase"], fixed["winner"], fixed["obsolete"]) == ("play", None, [])


def test_no_correction_during_a_chain_of_extra_crosses():  # T-C-BONUS
    state = with_sheets(game(), sheet_with(r2=1))
    state = companion.apply(state, 0, cross(2, 1))
    assert state["phase"] == "extra"
    assert illegal(state, 1, correct(0, 5, 1)) == "extra_pending"


# -- turn marker, pass, undo -----------------------------------------------------------


def test_turn_marker_off_lets_any_seat_cross_and_forbids_pass():  # T-SETUP-3
    state = game(3, turn_marker=False)
    state = companion.apply(state, 2, cross(4, 1))
    state = companion.apply(state, 2, cross(4, 1))
    state = companion.apply(state, 1, cross(7, 2))
    assert [sheet[3] for sheet in state["sheets"]] == [0, 0, 2]
    assert state["sheets"][1][6] == 2
    assert {"type": "pass"} not in companion.legal_actions(state, 0)
    assert illegal(state, 0, PASS) == "no_turns"


def test_pass_moves_the_turn_and_is_logged():  # T-SETUP-3
    state = companion.apply(game(2, first=1), 1, PASS)
    assert state["turn"] == 0
    assert state["sheets"] == [[0] * 12] * 2
    assert state["last"] == {"seat": 1, "type": "pass"}


def test_undo_takes_back_the_whole_entry_with_its_extras():
    start = with_sheets(game(3), sheet_with(r1=1, r4=2))
    state = companion.apply(start, 0, cross(1, 1))
    state = companion.apply(state, 0, extra(4))
    state = companion.apply(state, 0, extra(9))
    assert state["turn"] == 1
    assert companion.view(state, 1)["can_undo"] == 0
    assert UNDO in companion.legal_actions(state, 0)
    assert UNDO not in companion.legal_actions(state, 1)
    undone = companion.apply(state, 0, UNDO)
    assert {k: v for k, v in undone.items() if k not in ("undo", "last")} == {
        k: v for k, v in start.items() if k not in ("undo", "last")
    }
    assert undone["undo"] is None
    assert undone["last"] == {"seat": 0, "type": "undo", "undone": state["last"]}
    assert illegal(undone, 0, UNDO) == "nothing_to_undo"


def test_undo_works_in_the_middle_of_a_chain_and_after_a_pass():
    start = with_sheets(game(), sheet_with(r1=1))
    state = companion.apply(start, 0, cross(1, 1))
    assert companion.apply(state, 0, UNDO)["sheets"] == start["sheets"]
    state = companion.apply(game(), 0, PASS)
    undone = companion.apply(state, 0, UNDO)
    assert undone["turn"] == 0
    assert undone["last"] == {"seat": 0, "type": "undo", "undone": {"seat": 0, "type": "pass"}}


def test_undo_is_lost_once_another_seat_enters_something():
    state = companion.apply(game(), 0, cross(5, 1))
    state = companion.apply(state, 1, PASS)
    assert illegal(state, 0, UNDO) == "nothing_to_undo"
    assert companion.apply(state, 1, UNDO)["turn"] == 1


def test_legal_actions_of_a_seat_waiting_for_its_turn():
    state = companion.apply(game(3), 0, PASS)
    assert companion.legal_actions(state, 2) == []
    assert companion.legal_actions(state, 0) == [UNDO]
    assert companion.legal_actions(state) == companion.legal_actions(state, 1)
    assert companion.legal_actions(state)[-1] == PASS  # seat 1 may not undo seat 0's pass


def test_view_hides_the_seed_and_the_undo_snapshot():
    state = companion.apply(game(), 0, cross(3, 2))
    seen = companion.view(state, 1)
    assert set(seen) == (set(state) - {"seed", "undo"}) | {"seat", "can_undo"}
    assert (seen["seat"], seen["can_undo"]) == (1, 0)
    assert companion.view(state, None)["seat"] is None
    seen["sheets"][0][2] = 0
    assert state["sheets"][0][2] == 2  # the view is a copy


# -- error codes -----------------------------------------------------------------------


def _chain(turn_marker=True):
    """Seat 0 placing an extra cross, 3 players."""
    state = with_sheets(game(3, turn_marker=turn_marker), sheet_with(r1=1))
    return companion.apply(state, 0, cross(1, 1))


ERRORS = {
    "bad_action": (game(), 0, ["not", "a", "dict"]),
    "unknown_action": (game(), 0, {"type": "draw"}),
    "missing_field": (game(), 0, {"type": "cross", "value": 3}),
    "unexpected_field": (game(), 0, {"type": "pass", "value": 3}),
    "game_over": (with_sheets(game(), FULL) | {"phase": "over", "winner": 0}, 1, PASS),
    "bad_seat": (game(), 2, PASS),
    "not_your_turn": (game(), 1, cross(3, 1)),
    "extra_pending": (_chain(turn_marker=False), 1, cross(3, 1)),
    "no_extra_pending": (game(), 0, extra(3)),
    "bad_value": (game(), 0, cross(13, 1)),
    "row_full": (with_sheets(game(), sheet_with(r3=2)), 0, cross(3, 1)),
    "too_many_sets": (game(), 0, cross(3, 3)),
    "bad_sets": (game(), 0, cross(3, 0)),
    "no_turns": (game(turn_marker=False), 0, PASS),
    "nothing_to_undo": (game(), 0, UNDO),
    "bad_crosses": (game(), 0, {"type": "correct", "seat": 1, "value": 2, "crosses": 3}),
    "no_change": (game(), 0, {"type": "correct", "seat": 1, "value": 2, "crosses": 0}),
    "correction_pending": (
        companion.apply(game(), 0, {"type": "correct", "seat": 1, "value": 2, "crosses": 1}),
        1,
        {"type": "correct", "seat": 0, "value": 3, "crosses": 1},
    ),
    "no_correction": (game(), 1, {"type": "confirm"}),
}


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_error_code(code):
    state, seat, action = ERRORS[code]
    assert illegal(state, seat, action) == code


def test_every_code_is_tested_and_documented():
    assert set(ERRORS) | {"bad_config"} == set(companion.CODES)
    for code, (rule, text) in companion.CODES.items():
        assert rule.startswith("T-") and text, code


def test_the_error_class_is_the_triggs_one():
    assert issubclass(companion.IllegalAction, errors.IllegalAction)
    with pytest.raises(errors.IllegalAction) as error:
        companion.apply(game(), 0, UNDO)
    assert error.value.rule == "T-SHEET"


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (True, PASS, "bad_seat"),  # bools are not ints
        (0, cross(True, 1), "bad_value"),
        (0, cross(3, True), "bad_sets"),
        (0, cross(3, "2"), "bad_sets"),
        (0, extra(3.0), "bad_value"),
        (0, {"type": 3}, "bad_action"),
        (0, {"value": 3}, "bad_action"),
        (0, {"type": "cross", "value": 3, "sets": 1, "cards": []}, "unexpected_field"),
    ],
)
def test_malformed_actions(seat, action, code):
    assert illegal(game(), seat, action) == code


@pytest.mark.parametrize(
    "config",
    [
        None,
        {},
        {"players": 1},
        {"players": 5},
        {"players": True},
        {"players": 2, "turn_marker": 1},
        {"players": 2, "first": 2},
        {"players": 2, "first": False},
    ],
)
def test_bad_config(config):
    with pytest.raises(companion.IllegalAction) as error:
        companion.new_game(config, 1)
    assert error.value.code == "bad_config"
    with pytest.raises(companion.IllegalAction):
        companion.new_game({"players": 2}, "1")


# -- random play -----------------------------------------------------------------------


def _check_cross_list(state, seat, legal):
    """Every cross apply accepts is listed, and nothing else."""
    for value in range(1, 13):
        for sets in range(1, 6):
            action = cross(value, sets)
            try:
                companion.apply(state, seat, action)
            except companion.IllegalAction:
                assert action not in legal
            else:
                assert action in legal


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    turn_marker=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_legal_play_reaches_the_end(players, turn_marker, seed):
    rng = random.Random(seed)
    state = companion.new_game({"players": players, "turn_marker": turn_marker}, seed)
    for step in range(3000):
        if state["phase"] == "over":
            break
        if state["extra_seat"] is not None:
            seat = state["extra_seat"]
        else:
            seat = state["turn"] if turn_marker else rng.randrange(players)
        legal = companion.legal_actions(state, seat)
        assert legal, "a legal action exists until the end"
        if step % 25 == 0:
            _check_cross_list(state, seat, legal)
        choices = [a for a in legal if a != UNDO] if rng.random() < 0.9 else legal
        before = frozen(state)
        new = companion.apply(state, seat, rng.choice(choices))
        assert state == before  # no mutation
        assert frozen(new) == new  # plain JSON
        assert "seed" not in companion.view(new, 0)
        state = new
    assert state["phase"] == "over"
    assert sum(state["sheets"][state["winner"]]) == 42
    assert all(c <= size for sheet in state["sheets"] for c, size in zip(sheet, FULL, strict=True))
