"""Greedy reference player for Triggs: sees only its view and the legal actions.

Cross as many boxes as possible (counting the chain of extra crosses, T-C-BONUS), else
draw (preferring visible cards it can use), else discard: cards it can no longer use
first, otherwise its most numerous value. Extra crosses go to the row closest to full.
Ties are broken by `rng` when one is given, else by the order of `legal`.
"""

import random
from operator import sub

from games.triggs.sheet import ROW_SIZES, VALUES

SIZES = ROW_SIZES[1:]


def greedy(view: dict, legal: list[dict], rng: random.Random | None = None) -> dict:
    if not legal:
        raise ValueError("no legal action: the game is over")
    sheet = view["sheets"][view["seat"]]
    room = [0, *map(sub, SIZES, sheet)]
    if view["phase"] == "extra":
        # the row closest to full; on a tie the lowest value, the hardest to make
        best = legal[0]
        best_key = (room[best["value"]], best["value"])
        for action in legal:
            key = (room[action["value"]], action["value"])
            if key < best_key:
                best, best_key = action, key
        return best

    crosses = []
    draws = []
    for action in legal:
        kind = action["type"]
        if kind == "cross":
            crosses.append(action)
        elif kind == "draw":
            draws.append(action)
    if crosses:
        return _pick(crosses, _cross_keys(crosses, room, len(view["hand"])), rng)
    if draws:
        return _pick(draws, _draw_keys(draws, room, view), rng)
    return _pick(legal, _discard_keys(legal, room, view), rng)


def _cross_keys(crosses: list[dict], room: list[int], hand_size: int) -> list[tuple]:
    """Boxes crossed, counting the chain of extras; then emptying the hand; then fewer cards."""
    last_boxes = room.count(1)
    total = sum(room)
    keys = []
    for action in crosses:
        v = action["value"]
        sets = action["sets"]
        boxes = len(sets)
        if boxes == room[v]:
            # one extra cross, and another for each other row with one box left
            boxes = min(total, boxes + 1 + last_boxes - (room[v] == 1))
        cards = sum(map(len, sets))
        keys.append((boxes, cards == hand_size, -cards))
    return keys


def _draw_keys(draws: list[dict], room: list[int], view: dict) -> list[float]:
    """Visible cards it can use count 1, unseen cards 0.5, visible useless cards 0."""
    obsolete = view["obsolete"]
    piles = view["piles"]
    worth = {"stock": 0.5}
    for name in ("left", "right"):
        top = piles[name]["top"]
        worth[name] = 1.0 if top is not None and room[top] > 0 and top not in obsolete else 0.0
    keys = []
    for action in draws:
        sources = action["from"]
        score = worth[sources[0]]
        if len(sources) == 2:
            # the card under a face-up top is unseen
            score += 0.5 if sources[1] == sources[0] else worth[sources[1]]
        keys.append(score)
    return keys


def _discard_keys(discards: list[dict], room: list[int], view: dict) -> list[tuple]:
    """Dead cards first (obsolete, or above every open row), else the most numerous value,
    all of them."""
    highest_open = max((v for v in VALUES if room[v] > 0), default=0)
    obsolete = view["obsolete"]
    hand = view["hand"]
    return [
        (
            a["value"] > highest_open or a["value"] in obsolete,
            hand.count(a["value"]),
            a["count"],
            a["value"],
        )
        for a in discards
    ]


def _pick(actions: list[dict], keys: list, rng: random.Random | None) -> dict:
    best = max(keys)
    if rng is None:
        return actions[keys.index(best)]
    tied = [a for a, k in zip(actions, keys, strict=True) if k == best]
    # random() is several times cheaper than choice(), which matters in the benchmark
    return tied[0] if len(tied) == 1 else tied[int(rng.random() * len(tied))]
