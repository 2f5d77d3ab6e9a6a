"""Greedy reference player for Triggs: sees only its view and the legal actions.

Cross as many boxes as possible (counting the chain of extra crosses, T-C-BONUS), else
draw (preferring visible cards it can use), else discard: cards it can no longer use
first, otherwise its most numerous value. Extra crosses go to the row closest to full.
Ties are broken by `rng` when one is given, else by the order of `legal`.

Preferences are folded into one int per action (larger is better) rather than tuples:
the bot runs on every turn of the engine benchmark.
"""

import random
from operator import sub

from games.triggs.sheet import ROW_SIZES, VALUES

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
    for name in ("left", "right"):
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
