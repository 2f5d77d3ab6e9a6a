"""The auction (D-AUCTION): the order of bids, the legal bids and the end of the auction.

The opening bid of a hand names a trump figure and a super-trump colour (ruling of
2026-11-27: the book's first player «deberá indicar una figura … y un color … y la
cantidad de bazas»); only a later bid may drop either to improve on it.

A bid's *level* encodes the ruling on the order of bids in one small int: more tricks
first, then open over not open, then dropping more of {trump, super-trump}. Bid A beats
bid B exactly when level(A) > level(B); equal levels do not beat each other.
"""

from .cards import FIGURES
from .errors import IllegalAction

MAX_TRICKS = 13
_PER_TRICKS = 6  # 2 (open or not) × 3 (dropped none, one, both)
TOP_LEVEL = MAX_TRICKS * _PER_TRICKS - 1


def level(tricks: int, trump: str | None, supertrump: int | None, open_: bool) -> int:
    """The bid's place in the order of bids (0 … 77)."""
    return (tricks - 1) * _PER_TRICKS + (3 if open_ else 0) + (trump is None) + (supertrump is None)


def entry_level(entry: dict) -> int:
    return level(entry["tricks"], entry["trump"], entry["supertrump"], entry["open"])


def _all_bids() -> list[dict]:
    bids = [
        {"type": "bid", "tricks": tricks, "trump": trump, "supertrump": supertrump, "open": open_}
        for tricks in range(1, MAX_TRICKS + 1)
        for open_ in (False, True)
        for trump in (*FIGURES, None)
        for supertrump in (*range(1, 10), None)
    ]
    # Stable sort: within a level, figures by rank then no trump, colours 1 … 9 then none.
    bids.sort(key=lambda bid: level(bid["tricks"], bid["trump"], bid["supertrump"], bid["open"]))
    return bids


# Every possible bid, in the order of bids; BIDS_FROM[n] is the index of the first bid of
# level >= n, so the bids beating level n are BIDS[BIDS_FROM[n + 1]:].
BIDS = tuple(_all_bids())
BIDS_FROM = [0] * (TOP_LEVEL + 2)
for _n in range(TOP_LEVEL + 2):
    BIDS_FROM[_n] = next(
        (i for i, bid in enumerate(BIDS) if entry_level(bid) >= _n),
        len(BIDS),
    )


def current_bid(auction: list[dict]) -> dict | None:
    """The latest bid of the auction (None before the first bid)."""
    for entry in reversed(auction):
        if not entry.get("pass"):
            return entry
    return None


def names_both(bid: dict) -> bool:
    """Whether a bid names a trump figure and a super-trump colour, as an opening bid must."""
    return bid["trump"] is not None and bid["supertrump"] is not None


OPENING_BIDS = tuple(bid for bid in BIDS if names_both(bid))


def bids_above(top: dict | None) -> list[dict]:
    """Fresh dicts for every bid that beats `top`; with none yet, every opening bid."""
    if top is None:
        return list(map(dict.copy, OPENING_BIDS))
    return list(map(dict.copy, BIDS[BIDS_FROM[entry_level(top) + 1] :]))


def lowest_bid_above(top: dict | None) -> dict | None:
    """The lowest bid that beats `top` (with none yet, the lowest opening bid), naming
    `top`'s own figure and colour where that bid names a figure or a colour: «7 ♞ 5»
    → «7 ♞, no super-trump». None when no bid beats `top`. A fresh dict."""
    first = 0 if top is None else BIDS_FROM[entry_level(top) + 1]
    if first >= len(BIDS):
        return None
    bid = dict(BIDS[first])  # the order of bids keeps a figure before dropping it
    if top is not None:
        # level() reads only whether a figure and a colour are named, not which
        if bid["trump"] is not None and top["trump"] is not None:
            bid["trump"] = top["trump"]
        if bid["supertrump"] is not None and top["supertrump"] is not None:
            bid["supertrump"] = top["supertrump"]
    return bid


def check_beats(top: dict | None, entry: dict) -> None:
    """Refuse a bid that does not beat `top`, or an opening bid that drops the trump
    figure or the super-trump colour."""
    if top is None:
        if not names_both(entry):
            raise IllegalAction("opening_bid_names_both")
    elif entry_level(entry) <= entry_level(top):
        raise IllegalAction("bid_too_low")


def _lowest_beating(floor: int) -> tuple[int, ...]:
    lowest = []
    for shape in range(8):
        open_, no_trump, no_super = bool(shape & 4), bool(shape & 2), bool(shape & 1)
        # level() reads only whether trump and super-trump are given, not which they are
        trump, supertrump = (None if no_trump else FIGURES[0]), (None if no_super else 1)
        lowest.append(
            next(
                (n for n in range(1, MAX_TRICKS + 1) if level(n, trump, supertrump, open_) > floor),
                MAX_TRICKS + 1,
            )
        )
    return tuple(lowest)


# _LOWEST[n + 1]: lowest_beating for a top bid of level n (index 0: no bid yet, when only
# the shapes naming both a figure and a colour open)
_LOWEST = (
    tuple(1 if shape & 3 == 0 else MAX_TRICKS + 1 for shape in range(8)),
    *(_lowest_beating(floor) for floor in range(0, TOP_LEVEL + 1)),
)


def lowest_beating(top: dict | None) -> list[int]:
    """For each shape of bid — index open*4 + (trump is None)*2 + (supertrump is None) —
    the fewest tricks (1-13) a bid of that shape needs to beat `top`; 14 when no bid of
    that shape does; with no bid yet, 1 for the shapes naming both, 14 for the others. A
    fresh list."""
    return list(_LOWEST[0 if top is None else entry_level(top) + 1])


def is_over(auction: list[dict], players: int) -> bool:
    """True when every other player has passed in succession after the latest bid."""
    for passes, entry in enumerate(reversed(auction)):
        if not entry.get("pass"):
            return passes >= players - 1
    return False


_TRUMPS = frozenset(FIGURES)


def check_bid(action: dict) -> None:
    """The fields of a bid (or a companion contract): tricks 1-13, a figure or None, a colour
    1-9 or None, open a bool. Bools are not ints here."""
    tricks = action["tricks"]
    if type(tricks) is not int or not 1 <= tricks <= MAX_TRICKS:
        raise IllegalAction("bad_tricks")
    trump = action["trump"]
    if trump is not None and (type(trump) is not str or trump not in _TRUMPS):
        raise IllegalAction("bad_trump")
    supertrump = action["supertrump"]
    if supertrump is not None and (type(supertrump) is not int or not 1 <= supertrump <= 9):
        raise IllegalAction("bad_supertrump")
    if type(action["open"]) is not bool:
        raise IllegalAction("bad_action")
