"""The PokerDrez deck (D-DECK) and the deal (D-DEAL).

Card ids are "<figure>-<number>" (the number is also the colour) plus "neutral-1" and
"neutral-2". The tables below are computed once so that the engine never parses ids.
"""

import random

# Highest rank first (D-DECK).
FIGURES = ("joker", "queen", "rook", "bishop", "knight", "pawn")
COLOURS = {
    1: "grey",
    2: "red",
    3: "magenta",
    4: "purple",
    5: "blue",
    6: "yellow",
    7: "cyan",
    8: "orange",
    9: "green",
}
NEUTRALS = ("neutral-1", "neutral-2")
# Sorted by figure rank (Joker first), then number; neutral cards last.
DECK = tuple(f"{figure}-{number}" for figure in FIGURES for number in range(1, 10)) + NEUTRALS
HAND_SIZE = 13

FIGURE: dict[str, str | None] = {card: None for card in NEUTRALS}
NUMBER: dict[str, int] = {card: 0 for card in NEUTRALS}
RANK: dict[str, int] = {card: -1 for card in NEUTRALS}  # Pawn 0 … Joker 5
# A figure's rank: Pawn 0 … Joker 5 (D-DECK).
FIGURE_RANK = {figure: len(FIGURES) - 1 - index for index, figure in enumerate(FIGURES)}
for _figure in FIGURES:
    for _number in range(1, 10):
        _card = f"{_figure}-{_number}"
        FIGURE[_card] = _figure
        NUMBER[_card] = _number
        RANK[_card] = FIGURE_RANK[_figure]
SORT_KEY = {card: position for position, card in enumerate(DECK)}


def sort_cards(cards: list[str]) -> list[str]:
    """Cards in display order: Joker … Pawn, each by number 1 … 9, neutral cards last."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def first_dealer(seed: int, players: int) -> int:
    """D-DEAL ruling: the first dealer is random (from the stored seed)."""
    return random.Random(f"{seed}:dealer").randrange(players)


def deal(seed: int, hand_no: int, players: int) -> tuple[list[list[str]], list[str]]:
    """D-DEAL: 13 cards to each seat, the rest stay hidden. Deterministic per seed and hand."""
    # Shuffle positions in DECK: sorting small ints and mapping them back is cheaper than
    # sorting card ids by key, and DECK order is display order.
    order = list(range(len(DECK)))
    random.Random(f"{seed}:deal:{hand_no}").shuffle(order)
    hands = [
        [DECK[i] for i in sorted(order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])]
        for seat in range(players)
    ]
    return hands, [DECK[i] for i in sorted(order[players * HAND_SIZE :])]
