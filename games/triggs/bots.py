"""Computer players for Triggs: each sees only its view and the legal actions.

Two levels, `LEVELS` (the names the tables store):

- `greedy`, the reference player: cross as many boxes as possible (counting the chain
  of extra crosses, T-C-BONUS), else draw (preferring visible cards it can use), else
  discard: cards it can no longer use first, otherwise its most numerous value. Extra
  crosses go to the row closest to full.
- `strong`: plans around T-EMPTY-HAND and T-C-BONUS (see `strong`); it beats greedy in
  most 2-player games (`python bench/bots.py` counts how many).

Ties are broken by `rng` when one is given, else by the order of `legal`.

Greedy folds its preferences into one int per action (larger is better) rather than
tuples: it is asked on every turn of the engine benchmark, so it must be quick.
"""

import random
from operator import sub

from games.triggs.engine import FACE_UP, ROW_SIZES, TOTAL_BOXES, VALUES

SIZES = ROW_SIZES[1:]


def greedy(view: dict, legal: list[dict], rng: random.Random | None = None) -> dict:
    if not legal:
        raise ValueError("no legal action: the game is over")
    sheet = view["sheets"][view["seat"]]
    if view["phase"] == "extra":
        # the row closest to full; on a tie the lowest value, the hardest to make
        best = legal[0]
        best_score = 99
        for action in legal:
            v = action["value"]
            score = (ROW_SIZES[v] - sheet[v - 1]) * 16 + v
            if score < best_score:
                best, best_score = action, score
        return best
    crosses = [a for a in legal if a["type"] == "cross"]
    if crosses:
        return _pick(crosses, _cross_scores(crosses, sheet, len(view["hand"])), rng)
    draws = [a for a in legal if a["type"] == "draw"]
    if draws:
        return _pick(draws, _draw_scores(draws, sheet, view), rng)
    return _pick(legal, _discard_scores(legal, sheet, view), rng)


def _cross_scores(crosses: list[dict], sheet: list[int], hand_size: int) -> list[int]:
    """Boxes crossed, counting the chain of extras; then emptying the hand; then fewer cards."""
    scores = []
    chain = None
    for action in crosses:
        v = action["value"]
        sets = action["sets"]
        boxes = len(sets)
        if boxes == ROW_SIZES[v] - sheet[v - 1]:
            if chain is None:
                room = list(map(sub, SIZES, sheet))
                chain = (room.count(1), sum(room))
            # one extra cross, and another for each other row with one box left
            boxes = min(chain[1], boxes + 1 + chain[0] - (boxes == 1))
        cards = sum(map(len, sets))
        scores.append(boxes * 64 + (cards == hand_size) * 32 - cards)
    return scores


def _draw_scores(draws: list[dict], sheet: list[int], view: dict) -> list[int]:
    """A visible card it can use is worth 2, an unseen card 1, a visible useless card 0."""
    obsolete = view["obsolete"]
    piles = view["piles"]
    worth = {"stock": 1}
    for name in FACE_UP:
        top = piles[name]["top"]
        useful = top is not None and sheet[top - 1] < ROW_SIZES[top] and top not in obsolete
        worth[name] = 2 if useful else 0
    scores = []
    for action in draws:
        sources = action["from"]
        score = worth[sources[0]]
        if len(sources) == 2:
            # the card under a face-up top is unseen
            score += 1 if sources[1] == sources[0] else worth[sources[1]]
        scores.append(score)
    return scores


def _discard_scores(discards: list[dict], sheet: list[int], view: dict) -> list[int]:
    """Dead cards first (obsolete, or above every open row), else the most numerous value;
    all cards of that value."""
    highest_open = max((v for v in VALUES if sheet[v - 1] < ROW_SIZES[v]), default=0)
    obsolete = view["obsolete"]
    hand = view["hand"]
    scores = []
    for action in discards:
        v = action["value"]
        dead = v > highest_open or v in obsolete
        scores.append(dead * 4096 + hand.count(v) * 256 + action["count"] * 16 + v)
    return scores


def _pick(actions: list[dict], scores: list[int], rng: random.Random | None) -> dict:
    best = max(scores)
    if rng is None:
        return actions[scores.index(best)]
    tied = [a for a, s in zip(actions, scores, strict=True) if s == best]
    # random() is several times cheaper than choice(), which matters in the benchmark
    return tied[0] if len(tied) == 1 else tied[int(rng.random() * len(tied))]


# -- the strong player ----------------------------------------------------------------

# Weights of the strong player's cross score, in tenths of a crossed box.
BOX = 10
EMPTY_HAND = 25  # emptying the hand brings five new cards at once (T-EMPTY-HAND)
CARD = -1  # a laid card is one card fewer for later
KEEP = 2  # a card left in hand that can still be laid
# With this many boxes or fewer left to any player, the strong player stops keeping
# cards for later and crosses what it can now.
RACE = 6


def strong(view: dict, legal: list[dict], rng: random.Random | None = None) -> dict:
    """A stronger player, its rules measured against greedy over seeded games:

    - extra crosses (T-C-BONUS) go to the row the hand can serve least, then the row with
      the most open boxes: the cards in hand keep their rows, and nearly full rows stay
      for later crosses to fill, each bringing another extra cross (greedy's habit of
      chaining through nearly full rows at once is what loses it most games);
    - crosses: the most boxes, emptying the hand (five new cards, T-EMPTY-HAND), and the
      sets that keep the most cards that can still be laid — it chooses which cards make
      the sets, not only how many; close to the end (`RACE`) only boxes count;
    - with nothing to cross: a hand of one value is discarded whole, which brings five
      new cards instead of drawing two; otherwise it draws, valuing a visible card by
      what it can be laid in; forced to discard, it gives up dead cards first, then the
      cards its hand needs least.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    seat = view["seat"]
    sheet = view["sheets"][seat]
    hand = view["hand"]
    counts = [0] * 13
    for card in hand:
        counts[card] += 1
    if view["phase"] == "extra":
        return max(legal, key=lambda action: _extra_key(action["value"], counts, sheet))
    crosses = [a for a in legal if a["type"] == "cross"]
    if crosses:
        racing = any(sum(s) >= TOTAL_BOXES - RACE for s in view["sheets"])
        return _best_cross(crosses, counts, sheet, len(hand), racing)
    draws = [a for a in legal if a["type"] == "draw"]
    if draws and sum(1 for n in counts if n) > 1:
        return _pick(draws, _strong_draw_scores(draws, counts, sheet, view), rng)
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return greedy(view, legal, rng)
    return max(discards, key=lambda action: _discard_key(action, counts, sheet, view))


def _open(sheet: list[int], value: int) -> bool:
    return sheet[value - 1] < ROW_SIZES[value]


# The pairs of two different cards that add up to each value (T-C), by value.
PAIRS = tuple(tuple((a, value - a) for a in range(1, (value + 1) // 2)) for value in range(13))


def _set_kinds(counts: list[int], value: int) -> list[tuple[list[int], int]]:
    """Each kind of set for `value` the hand can make (T-C), with how many of it."""
    kinds = [([value], counts[value])] if counts[value] else []
    for a, b in PAIRS[value]:
        n = min(counts[a], counts[b])
        if n:
            kinds.append(([a, b], n))
    if value % 2 == 0 and counts[value // 2] >= 2:
        kinds.append(([value // 2, value // 2], counts[value // 2] // 2))
    return kinds


def _ready_sets(counts: list[int], value: int) -> int:
    """How many sets for `value` the hand can make at once (T-C)."""
    ready = counts[value]
    for a, b in PAIRS[value]:
        ready += min(counts[a], counts[b])
    if value % 2 == 0:
        ready += counts[value // 2] // 2
    return ready


def _extra_key(value: int, counts: list[int], sheet: list[int]) -> tuple:
    return (-_ready_sets(counts, value), ROW_SIZES[value] - sheet[value - 1], -value)


def _open_rows(sheet: list[int]) -> int:
    """The rows with a box left as bits of an int: bit v for row v."""
    rows = 0
    for value in VALUES:
        if sheet[value - 1] < ROW_SIZES[value]:
            rows |= 1 << value
    return rows


def _layable(counts: list[int], open_rows: int, held: list[int]) -> int:
    """Cards of the hand that can still be laid: alone in an open row, or with another
    held card in the open row of their sum. `open_rows` is `_open_rows`' bits; `held`
    lists the values the hand may hold (no other value is looked at).

    Rows as bits make the test one shift: bit b of `partners` stands for laying the card
    with a held b, bit 0 for laying it alone, and shifted by the card's value they fall
    on the rows of the sums."""
    values = 0
    for a in held:
        if counts[a]:
            values |= 1 << a
    total = 0
    for a in held:
        n = counts[a]
        if n:
            # another card of its own value only if the hand holds two
            partners = (values if n > 1 else values & ~(1 << a)) | 1
            if (partners << a) & open_rows:
                total += n
    return total


def _ways(kinds: list[tuple[list[int], int]], sets: int) -> list[list[list[int]]]:
    """Every choice of `sets` sets among `kinds` (`_set_kinds`), more of the earlier
    kinds first. The sets are the kinds' own lists, repeated: callers copy them."""
    if sets == 1:
        return [[kind] for kind, _n in kinds]
    total = sum(n for _kind, n in kinds)
    if sets >= total:
        return [[kind for kind, n in kinds for _ in range(n)]] if sets == total else []
    ways = []

    def choose(i: int, left: int, chosen: list[list[int]]) -> None:
        if not left:
            ways.append(chosen)
        elif i < len(kinds):
            kind, n = kinds[i]
            for m in range(min(n, left), -1, -1):
                choose(i + 1, left - m, chosen + [kind] * m)

    choose(0, sets, [])
    return ways


def _best_cross(
    crosses: list[dict], counts: list[int], sheet: list[int], hand_size: int, racing: bool
) -> dict:
    """The best scored cross, the first on a tie; unless racing, each one's every choice
    of cards (`_ways`), scored with the cards it leaves that can still be laid.

    A cross that cannot beat the best so far is not looked into: its sets take at least
    `fewest` cards (its singles first), and at best every card left can be laid. (A bound
    while EMPTY_HAND and KEEP are not negative and CARD is at most KEEP.)"""
    best, best_score = None, None
    held = [value for value in VALUES if counts[value]]
    cards_held = sum(counts)
    open_rows = _open_rows(sheet)
    kinds = {}  # by value: the same for every number of sets
    for action in crosses:
        value, sets = action["value"], len(action["sets"])
        if racing:
            ways = [action["sets"]]
        else:
            fewest = 2 * sets - min(counts[value], sets)
            most = sets * BOX + (2 * sets >= hand_size) * EMPTY_HAND + fewest * CARD
            if best_score is not None and most + KEEP * (cards_held - fewest) <= best_score:
                continue
            if value not in kinds:
                kinds[value] = _set_kinds(counts, value)
            ways = _ways(kinds[value], sets)
            # the row's bit stays only if it has a box left after this cross
            still_open = sheet[value - 1] + sets < ROW_SIZES[value]
            open_after = open_rows if still_open else open_rows & ~(1 << value)
        for way in ways:
            cards = sum(map(len, way))
            score = sets * BOX + (cards == hand_size) * EMPTY_HAND + cards * CARD
            if not racing:
                rest = counts[:]
                for cards_of_set in way:
                    for card in cards_of_set:
                        rest[card] -= 1
                score += KEEP * _layable(rest, open_after, held)
            if best_score is None or score > best_score:
                best_score = score
                best = value, way
    if best is None:
        return crosses[0]
    value, way = best
    return {"type": "cross", "value": value, "sets": [s[:] for s in way]}


def _card_worth(card: int | None, counts: list[int], sheet: list[int], obsolete) -> int:
    """A visible card: 2 if it can be laid alone, plus 1 for each of up to two held
    values it adds up with to an open row; -1 for no card."""
    if card is None:
        return -1
    if card in obsolete:
        return 0
    partners = sum(1 for b in range(1, 13 - card) if counts[b] and _open(sheet, card + b))
    return 2 * _open(sheet, card) + min(partners, 2)


def _strong_draw_scores(
    draws: list[dict], counts: list[int], sheet: list[int], view: dict
) -> list[int]:
    piles, obsolete = view["piles"], view["obsolete"]
    worth = {"stock": 1}
    for name in FACE_UP:
        worth[name] = _card_worth(piles[name]["top"], counts, sheet, obsolete)
    scores = []
    for action in draws:
        first, *second = action["from"]
        score = worth[first]
        if second:
            # the card under a face-up top is unseen: worth a card from the stock
            score += 1 if second[0] == first else worth[second[0]]
        scores.append(score)
    return scores


def _discard_key(action: dict, counts: list[int], sheet: list[int], view: dict) -> tuple:
    """Dead cards first, then the value the hand needs least, then the most cards."""
    value = action["value"]
    dead = not _open(sheet, value) and not any(
        counts[b] > (b == value) and _open(sheet, value + b) for b in range(1, 13 - value)
    )
    dead = dead or value in view["obsolete"]
    worth = _card_worth(value, counts, sheet, view["obsolete"])
    return (dead, -worth, action["count"] == counts[value], counts[value], value)


LEVELS = {"greedy": greedy, "strong": strong}
