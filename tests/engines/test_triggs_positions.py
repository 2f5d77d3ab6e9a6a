"""Helpers that build Triggs positions by editing a fresh state's contract keys, as
engines.md allows, plus the tests that keep those helpers honest."""

import copy
import json
from collections import Counter

import pytest

from games.triggs.engine import apply, legal_actions, new_game
from games.triggs.sheet import ROW_SIZES

DECK = Counter({value: 9 for value in range(1, 13)})


def row_sheet(crossed: dict[int, int] | None = None) -> list[int]:
    """A sheet with `crossed[v]` boxes crossed in row v, the other rows empty."""
    crossed = crossed or {}
    return [crossed.get(v, 0) for v in range(1, 13)]


def nearly_full(open_boxes: dict[int, int]) -> list[int]:
    """A sheet where every row is full except row v, which has `open_boxes[v]` open."""
    return [ROW_SIZES[v] - open_boxes.get(v, 0) for v in range(1, 13)]


def position(
    *,
    players: int = 2,
    turn: int = 0,
    hands: list[list[int]] | None = None,
    sheets: list[list[int]] | None = None,
    left: list[int] | None = None,
    stock: list[int] | None = None,
    right: list[int] | None = None,
    discard: list[int] | None = None,
    box: list[int] | None = None,
    obsolete: list[int] | None = None,
    phase: str = "play",
    pending_extra: int = 0,
    under: str | None = None,
    seed: int = 4242,
) -> dict:
    """A consistent position with all 108 cards accounted for.

    Cards not placed explicitly are split evenly between the piles left as None and
    the pile named by `under`, whose given cards stay on top of them.
    """
    state = new_game({"players": players}, seed)
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    piles = {"left": left, "stock": stock, "right": right}
    placed = Counter()
    for cards in [*hands, *(p for p in piles.values() if p is not None), discard or [], box or []]:
        placed.update(cards)
    if placed - DECK:
        raise ValueError(f"more than nine of {sorted((placed - DECK).elements())}")
    # high values at the bottom: an unspecified pile shows a low, never obsolete, top
    leftover = sorted((DECK - placed).elements(), reverse=True)
    takers = [name for name, cards in piles.items() if cards is None or name == under]
    if leftover and not takers:
        raise ValueError("no pile takes the leftover cards: pass under=")
    for i, name in enumerate(takers):
        piles[name] = leftover[i :: len(takers)] + list(piles[name] or [])
    state.update(
        turn=turn,
        phase=phase,
        hands=hands,
        sheets=[list(s) for s in (sheets or [row_sheet() for _ in range(players)])],
        piles={name: list(cards) for name, cards in piles.items()},
        discard=list(discard or []),
        box=list(box or []),
        obsolete=list(obsolete or []),
        pending_extra=pending_extra,
    )
    return state


def all_cards(state: dict) -> Counter:
    cards = Counter()
    for hand in state["hands"]:
        cards.update(hand)
    for pile in state["piles"].values():
        cards.update(pile)
    cards.update(state["discard"])
    cards.update(state["box"])
    return cards


def play(state: dict, action: dict, seat: int | None = None) -> dict:
    """apply() for the seat to act, checking that the input state is left untouched."""
    before = copy.deepcopy(state)
    after = apply(state, state["turn"] if seat is None else seat, action)
    assert state == before
    return after


def test_position_accounts_for_every_card():
    state = position(players=3, hands=[[1, 1], [12], []], left=[5], discard=[7, 7])
    assert all_cards(state) == DECK
    assert state["piles"]["left"] == [5]
    assert len(state["piles"]["stock"]) + len(state["piles"]["right"]) == 108 - 6
    assert json.loads(json.dumps(state)) == state


def test_position_puts_leftovers_under_the_named_pile():
    state = position(hands=[[3], [4]], left=[9], stock=[], right=[10, 11], under="left")
    assert state["piles"]["left"][-1] == 9
    assert state["piles"]["stock"] == []
    assert all_cards(state) == DECK


def test_position_refuses_impossible_cards():
    with pytest.raises(ValueError):
        position(hands=[[5] * 10, []])
    with pytest.raises(ValueError):
        position(left=[1], stock=[2], right=[3])


def test_position_is_playable():
    state = position(hands=[[4, 4], [2]], sheets=[nearly_full({4: 2}), row_sheet({4: 1})])
    assert {"type": "cross", "value": 4, "sets": [[4], [4]]} in legal_actions(state)
    assert nearly_full({4: 2})[3] == 1
    assert row_sheet({4: 1})[3] == 1
