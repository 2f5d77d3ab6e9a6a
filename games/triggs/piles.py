"""Draw piles, discard pile and box (T-SETUP-2, T-REFILL, T-OBSOLETE-12, T-OBSOLETE-11).

`CardPiles` holds the movable cards while one `apply` call moves them: it copies each list
before changing it, so the caller's state is never touched, and `store` writes the
lists into the new state.
"""

import random

from .errors import IllegalAction
from .sheet import ROW_SIZES

PILE_NAMES = ("left", "stock", "right")
FACE_UP = ("left", "right")


def split_rest(rest: list[int]) -> tuple[list[int], list[int], list[int]]:
    """T-SETUP-2 ruling: the stock gets half (rounded up); left gets the odd extra card."""
    stock_n = (len(rest) + 1) // 2
    left_n = (len(rest) - stock_n + 1) // 2
    return rest[:left_n], rest[left_n : left_n + stock_n], rest[left_n + stock_n :]


def refill_rng(seed: int, number: int) -> random.Random:
    """The generator of the `number`-th refill shuffle of a game (T-REFILL ruling)."""
    return random.Random(f"triggs:{seed}:refill:{number}")


def next_obsolete(sheets: list[list[int]], obsolete: list[int]) -> list[int]:
    """T-OBSOLETE-12/11: 12s once every row 12 is full; then 11s once every row 11 is."""
    if 12 not in obsolete:
        if any(sheet[11] < ROW_SIZES[12] for sheet in sheets):
            return obsolete
        obsolete = [*obsolete, 12]
    if 11 not in obsolete and all(sheet[10] == ROW_SIZES[11] for sheet in sheets):
        obsolete = [*obsolete, 11]
    return obsolete


def is_settled(piles: dict, discard: list[int], obsolete: list[int]) -> bool:
    """No refill or removal is due: what every state between actions looks like."""
    left, stock, right = piles["left"], piles["stock"], piles["right"]
    if discard and not (left and stock and right):
        return False
    return not (obsolete and ((left and left[-1] in obsolete) or (right and right[-1] in obsolete)))


class CardPiles:
    """The piles, discard pile and box of one state while an action moves cards.

    Lists are copied on first write, so the state it was made from is never changed;
    a position still owing a refill or a removal (only hand-edited ones) is settled
    first.
    """

    __slots__ = ("piles", "discard", "box", "obsolete", "seed", "refills", "owned")

    def __init__(self, state: dict) -> None:
        self.piles = dict(state["piles"])
        self.discard = state["discard"]
        self.box = state["box"]
        self.obsolete = state["obsolete"]
        self.seed = state["seed"]
        self.refills = state.get("refills", 0)
        self.owned: set[str] = set()
        if not is_settled(self.piles, self.discard, self.obsolete):
            self.settle()

    def _own_pile(self, name: str) -> list[int]:
        pile = self.piles[name]
        if name not in self.owned:
            pile = self.piles[name] = pile[:]
            self.owned.add(name)
        return pile

    def _to_box(self, card: int) -> None:
        if "box" not in self.owned:
            self.box = self.box[:]
            self.owned.add("box")
        self.box.append(card)

    def settle(self) -> None:
        """Refill empty piles (T-REFILL) and remove obsolete face-up tops (T-OBSOLETE-*),
        until neither is due; called after every card that moves."""
        piles = self.piles
        obsolete = self.obsolete
        while True:
            if self.discard:
                for name in PILE_NAMES:
                    if not piles[name]:
                        cards = self.discard[:]
                        refill_rng(self.seed, self.refills).shuffle(cards)
                        self.refills += 1
                        piles[name] = cards
                        self.owned.add(name)
                        self.discard = []
                        self.owned.add("discard")
                        break
            if not obsolete:
                return
            moved = False
            for name in FACE_UP:
                while piles[name] and piles[name][-1] in obsolete:
                    self._to_box(self._own_pile(name).pop())
                    moved = True
            if not moved:
                return

    def draw(self, name: str) -> int:
        """Take the top card of a pile (T-A); the next card of a face-up pile shows."""
        if not self.piles[name]:
            raise IllegalAction("pile_empty", name)
        pile = self._own_pile(name)
        card = pile.pop()
        if not pile or (self.obsolete and name != "stock" and pile[-1] in self.obsolete):
            self.settle()
        return card

    def draw_from_stock(self, wanted: int) -> list[int]:
        """T-EMPTY-HAND: up to `wanted` cards from the stock, refilled as it runs out."""
        cards = []
        while len(cards) < wanted and self.piles["stock"]:
            stock = self._own_pile("stock")
            cards.append(stock.pop())
            if not stock:
                self.settle()
        return cards

    def lay(self, card: int) -> None:
        """A card goes onto the discard pile (T-B, T-C), or into the box if obsolete."""
        if card in self.obsolete:
            self._to_box(card)
            return
        if "discard" not in self.owned:
            self.discard = self.discard[:]
            self.owned.add("discard")
        self.discard.append(card)
        piles = self.piles
        if not (piles["left"] and piles["stock"] and piles["right"]):
            self.settle()

    def set_obsolete(self, obsolete: list[int]) -> None:
        if obsolete is not self.obsolete:
            self.obsolete = obsolete
            self.settle()

    def store(self, state: dict) -> None:
        state["piles"] = self.piles
        state["discard"] = self.discard
        state["box"] = self.box
        state["obsolete"] = self.obsolete
        state["refills"] = self.refills
