"""What the Triggs engines give a screen: is_over and to_act (both engines), the view's
draw_count (T-A, T-A-LIMIT), cross_options (T-C, T-C-CAP), sets_from_cards (T-C), and
the first card of a two-tap draw (T-A, T-REFILL)."""

import pytest

from games.triggs import companion, engine
from tests.engines.test_triggs_positions import position, row_sheet


def test_to_act_is_the_turns_seat_until_the_game_is_over():
    state = position(players=3, turn=2, hands=[[1], [2], [3]])
    assert engine.to_act(state) == [2] and not engine.is_over(state)
    state.update(phase="over", winner=2)
    assert engine.to_act(state) == [] and engine.is_over(state)


def test_companion_waits_for_every_seat_without_the_turn_marker_and_for_the_extra_seat():
    marked = companion.new_game({"players": 3, "turn_marker": True}, 1)
    assert companion.to_act(marked) == [marked["turn"]]
    free = companion.new_game({"players": 3, "turn_marker": False}, 1)
    assert companion.to_act(free) == [0, 1, 2]
    state = companion.apply(free, 1, {"type": "cross", "value": 1, "sets": 2})  # row 1 full
    assert state["phase"] == "extra" and companion.to_act(state) == [1]
    assert not companion.is_over(state)


@pytest.mark.parametrize("held, count", [(5, 2), (8, 2), (9, 1), (10, 0)])
def test_the_view_says_how_many_cards_the_seat_may_draw(held, count):
    state = position(hands=[[1] * min(held, 9) + [2] * max(0, held - 9), [3]])
    assert engine.view(state, 0)["draw_count"] == count
    assert engine.view(state, 1)["draw_count"] == 0  # not its turn


def test_cross_options_are_the_most_sets_per_row_within_its_open_boxes():
    state = position(hands=[[11, 11, 7, 4, 10, 1, 3], [2]], sheets=[row_sheet({4: 2}), row_sheet()])
    options = {o["value"]: o for o in engine.cross_options(engine.view(state, 0))}
    assert options[11]["sets"] == [[11], [11], [1, 10], [4, 7]] and options[11]["room"] == 5
    assert options[4] == {"value": 4, "sets": [[4]], "room": 1}  # row 4 has one box open
    assert options[3]["sets"] == [[3]]
    assert engine.cross_options(engine.view(state, None)) == []  # a spectator has no hand


def test_ticked_cards_become_sets_or_are_refused_with_their_rule():
    assert engine.sets_from_cards(6, [4, 6, 2]) == [[6], [2, 4]]
    with pytest.raises(engine.IllegalAction) as refused:
        engine.sets_from_cards(6, [4, 3])
    assert (refused.value.code, refused.value.rule) == ("set_wrong_sum", "T-C")


def test_the_first_card_of_a_draw_shows_what_it_uncovered():
    state = position(hands=[[1], [2]], left=[5, 9, 7], under="stock")
    assert engine.draw_preview(state, 0, "left") == {"pile": "left", "first": 7, "uncovered": 9}
    assert engine.draw_preview(state, 0, "stock")["first"] is None
    assert engine.first_draw_refusal(state, 0, "left") is None
    assert engine.first_draw_refusal(state, 1, "left").code == "not_your_turn"


def test_the_rules_constants_are_exported_by_the_engine_and_used_by_the_bot():
    from games.triggs import bots, sheet

    assert engine.HAND_LIMIT == 10
    assert engine.PILE_NAMES == ("left", "stock", "right")
    assert engine.ROW_SIZES == (0, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)  # index = value
    assert list(engine.VALUES) == list(range(1, 13))
    assert sum(engine.ROW_SIZES) == engine.TOTAL_BOXES
    assert bots.ROW_SIZES is sheet.ROW_SIZES is engine.ROW_SIZES


def test_what_a_screen_offers_comes_from_the_engine():
    sheet = [2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 5]
    assert engine.open_rows(sheet) == [2, 3, 4, 5, 6, 7, 8, 10, 11]
    assert engine.open_boxes(sheet, 11) == 5
    assert engine.discard_options([3, 7, 7]) == [
        {"value": 3, "count": 1},
        {"value": 7, "count": 1},
        {"value": 7, "count": 2},
    ]
    # every choice among a row's most sets: a kind taken fewer times, or not at all
    choices = engine.cross_choices({"value": 11, "sets": [[11], [11], [1, 10]], "room": 3})
    assert choices == [[[11]], [[11], [11]], [[1, 10]], [[1, 10], [11]], [[1, 10], [11], [11]]]
    state = engine.new_game({"players": 2}, 4)
    seat = state["turn"]
    view = engine.view(state, seat)
    assert engine.first_draw_piles(view) == list(engine.PILE_NAMES)
    assert engine.first_draw_piles(engine.view(state, 1 - seat)) == []  # not its turn
    assert engine.first_draw_piles(engine.view(state, None)) == []  # a spectator
    assert engine.second_draw_piles(state, seat, "left") == list(engine.PILE_NAMES)
    assert engine.second_draw_piles(state, 1 - seat, "left") == []


def test_the_bots_use_only_the_engines_public_names():
    import ast
    from pathlib import Path

    from games.triggs import bots

    tree = ast.parse(Path(bots.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games"):
            assert node.module == "games.triggs.engine", node.module
            assert all(alias.name in engine.__all__ for alias in node.names)
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "engine":
            assert not node.attr.startswith("_"), node.attr
