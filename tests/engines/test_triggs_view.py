"""view(): what a seat (or a spectator) may see; nothing hidden leaks."""

import copy
import json
import random

import pytest

from games.triggs.engine import IllegalAction, new_game, view

from .test_triggs_positions import position, row_sheet

PUBLIC = {
    "game", "players", "seat", "turn", "phase", "winner", "sheets", "obsolete",
    "pending_extra", "box", "hand_sizes", "piles", "discard",
}  # fmt: skip


def sample():
    return position(
        players=3,
        turn=1,
        hands=[[9, 1, 5], [12, 12], [3]],
        sheets=[row_sheet({4: 2}), row_sheet(), row_sheet({12: 5})],
        left=[2, 8],
        stock=[4, 6, 7],
        right=[10],
        discard=[3, 11],
        box=[],
        under="stock",
    )


def test_view_of_a_seat_shows_its_sorted_hand_and_public_facts():
    state = sample()
    seen = view(state, 0)
    assert set(seen) == PUBLIC | {"hand", "draw_count"}
    assert seen["draw_count"] == 0  # not its turn
    assert seen["seat"] == 0
    assert seen["hand"] == [1, 5, 9]
    assert seen["hand_sizes"] == [3, 2, 1]
    assert seen["piles"] == {
        "left": {"top": 8, "count": 2},
        "stock": {"count": len(state["piles"]["stock"])},
        "right": {"top": 10, "count": 1},
    }
    assert seen["discard"] == {"top": 11, "count": 2}
    assert seen["sheets"] == state["sheets"]
    assert (seen["turn"], seen["phase"], seen["winner"]) == (1, "play", None)
    assert (seen["game"], seen["players"], seen["pending_extra"]) == ("triggs", 3, 0)
    assert seen["obsolete"] == [] and seen["box"] == []
    assert json.loads(json.dumps(seen)) == seen


def test_spectator_view_has_no_hand():
    seen = view(sample(), None)
    assert set(seen) == PUBLIC
    assert seen["seat"] is None


def test_empty_piles_show_no_top():
    state = position(hands=[[1], [2]], left=[], right=[], discard=[], under="stock")
    seen = view(state, 1)
    assert seen["piles"]["left"] == {"top": None, "count": 0}
    assert seen["piles"]["right"] == {"top": None, "count": 0}
    assert seen["discard"] == {"top": None, "count": 0}


def test_view_never_holds_the_seed_or_the_stock():
    state = new_game({"players": 4}, 918273645)
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(view(state, seat))
        assert "918273645" not in text
        assert "seed" not in text and "refills" not in text
        assert json.dumps(state["piles"]["stock"])[1:-1] not in text


def test_view_is_a_copy():
    state = sample()
    before = copy.deepcopy(state)
    seen = view(state, 0)
    seen["hand"].append(4)
    seen["sheets"][0][0] = 2
    seen["box"].append(12)
    seen["obsolete"].append(12)
    assert state == before


@pytest.mark.parametrize("seat", [3, -1, True, "0", 1.0])
def test_view_of_an_unknown_seat_is_refused(seat):
    with pytest.raises(IllegalAction) as err:
        view(sample(), seat)
    assert err.value.code == "bad_seat"


def scramble(state, seat, rng):
    """Change everything `seat` may not see, keeping what it may: other hands (same
    sizes), the stock's order and contents, cards below the face-up tops, the discard
    pile below its top, the seed and the refill counter."""
    other = copy.deepcopy(state)
    piles = other["piles"]
    hidden = [card for s, hand in enumerate(other["hands"]) if s != seat for card in hand]
    hidden += piles["stock"]
    for name in ("left", "right"):
        hidden += piles[name][:-1]
    hidden += other["discard"][:-1]
    rng.shuffle(hidden)

    def take(n):
        taken = hidden[:n]
        del hidden[:n]
        return taken

    for s, hand in enumerate(other["hands"]):
        if s != seat:
            other["hands"][s] = take(len(hand))
    piles["stock"] = take(len(piles["stock"]))
    for name in ("left", "right"):
        pile = piles[name]
        piles[name] = take(max(len(pile) - 1, 0)) + pile[-1:]
    other["discard"] = take(max(len(other["discard"]) - 1, 0)) + other["discard"][-1:]
    if seat is not None:
        rng.shuffle(other["hands"][seat])
    other["seed"] = rng.randrange(10**9)
    other["refills"] = rng.randrange(50)
    assert not hidden
    return other


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_changing_what_a_seat_may_not_see_leaves_its_view_identical(seat):
    rng = random.Random(seat)
    state = sample()
    changed = [scramble(state, seat, rng) for _ in range(20)]
    # the scrambles really change hidden things ...
    assert any(c["piles"]["stock"] != state["piles"]["stock"] for c in changed)
    assert any(
        c["hands"][2 if seat != 2 else 0] != state["hands"][2 if seat != 2 else 0] for c in changed
    )
    # ... and the view does not notice
    for other in changed:
        assert view(other, seat) == view(state, seat)


def test_the_view_changes_with_what_the_seat_may_see():
    state = sample()
    moved = copy.deepcopy(state)
    moved["hands"][0] = [9, 1, 6]
    moved["hands"][1].append(5)
    assert view(moved, 0) != view(state, 0)
    assert view(moved, 2)["hand_sizes"] != view(state, 2)["hand_sizes"]
