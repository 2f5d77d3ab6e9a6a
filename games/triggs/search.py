"""The hard Triggs player: search over deals of the cards its seat cannot see.

Both players here decide from their seat's `engine.view(state, seat)` and the legal
actions only, like the levels of `bots.py`, and both deal the cards the seat cannot see
at random (`determinize`: the other hands, the stock, the face-up piles under their top
cards and the discard pile under its top card, from the deck less its hand, the visible
tops and the box), then play on with the chain-aware `strong` policy for a number of
turns and score the result: 1 for a win, 0 for a loss, or, when no one has won by then,
how far ahead the seat is in crossed boxes and boxes its hand can cross (`_results`).

- `hard`: a shortlist of actions judged on the same deals and the same later draws
  (common random numbers), the worse half dropped round by round (sequential halving);
  it departs from `strong`'s choice only when the best one left beats it clearly.
- `ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012, the
  shape of OpenSpiel's `ismcts.py`): one tree shared by every deal, UCB with availability
  counts. Within the budget the luck of each deal drowns the differences between
  actions, and the tree follows that noise: it lost most games to `strong`
  (bench/RESULTS.md), so `hard` is the level.

Every rule comes from the engine (legal_actions, apply, view): a deal is a state the
engine plays like any other. Neither is one of `bots.LEVELS`: they think for up to a
second.
"""

import math
import random
from collections import Counter

from .bots import _best_cross, _discard_key, _ready_sets, greedy, strong
from .engine import ROW_SIZES, TOTAL_BOXES, VALUES, apply, legal_actions, view

# Defaults; each can be passed to `hard` as a keyword (tests pass small ones).
ITERATIONS = 160  # deals searched per decision (ismcts)
MIN_DEALS = 4  # deals per candidate and round at least (hard)
DISCARDS = 3  # discards searched besides the players' own choices (hard)
CONFIDENCE = 2.0  # standard errors by which a search must beat strong's choice (hard)
WORK = 9000  # turns played on per decision (hard), all candidates together
HORIZON = 24  # turns (plies) played on by the rollout policy after the tree (ismcts)
HORIZON_TURNS = 12  # hard's horizon in the seat's own turns: 12 per player, 24-48 plies
EXPLORATION = 0.7  # UCB's exploration constant, results in [0, 1]
SCALE = 4.0  # crossed boxes of lead worth most of a win at the horizon
READY = 0.5  # a box the hand can cross now, counted against a crossed one

DECK_COUNT = 9  # cards of each value (T-DECK)


def _key(action: dict):
    """A hashable name of an action (the sets of a cross in a fixed order)."""
    kind = action["type"]
    if kind == "cross":
        return (kind, action["value"], tuple(sorted(tuple(s) for s in action["sets"])))
    if kind == "draw":
        return (kind, tuple(action["from"]))
    if kind == "discard":
        return (kind, action["value"], action["count"])
    return (kind, action["value"])


def _unseen(seen: dict) -> list[int]:
    """The cards a seat cannot see: the deck less its hand, the visible tops and the box."""
    counts = Counter({value: DECK_COUNT for value in VALUES})
    counts.subtract(seen["hand"])
    counts.subtract(seen["box"])
    for top in (
        seen["piles"]["left"]["top"],
        seen["piles"]["right"]["top"],
        seen["discard"]["top"],
    ):
        if top is not None:
            counts[top] -= 1
    return sorted(counts.elements())


def determinize(seen: dict, rng: random.Random) -> dict:
    """A full state consistent with a seat's view: the cards it cannot see dealt at random
    to where they may be, at their sizes; a fresh seed for later refill shuffles."""
    pool = _unseen(seen)
    rng.shuffle(pool)
    me = seen["seat"]

    def take(count: int) -> list[int]:
        taken = pool[len(pool) - count :] if count > 0 else []
        del pool[len(pool) - len(taken) :]
        return taken

    hands = [
        list(seen["hand"]) if seat == me else take(size)
        for seat, size in enumerate(seen["hand_sizes"])
    ]
    piles = {}
    for name in ("left", "right"):
        shown = seen["piles"][name]
        piles[name] = take(shown["count"] - 1) + [shown["top"]] if shown["count"] else []
    piles["stock"] = take(seen["piles"]["stock"]["count"])
    shown = seen["discard"]
    discard = take(shown["count"] - 1) + [shown["top"]] if shown["count"] else []
    return {
        "game": "triggs",
        "players": seen["players"],
        "seed": rng.randrange(1 << 30),
        "turn": seen["turn"],
        "phase": seen["phase"],
        "winner": seen["winner"],
        "hands": hands,
        "sheets": [list(sheet) for sheet in seen["sheets"]],
        "piles": piles,
        "discard": discard,
        "box": list(seen["box"]),
        "obsolete": list(seen["obsolete"]),
        "pending_extra": seen["pending_extra"],
        "refills": 0,
    }


def _progress(state: dict, seat: int) -> float:
    """Crossed boxes, and READY for each box the hand could cross now (T-C, T-C-CAP)."""
    sheet = state["sheets"][seat]
    counts = [0] * 13
    for card in state["hands"][seat]:
        counts[card] += 1
    ready = 0
    for value in VALUES:
        room = ROW_SIZES[value] - sheet[value - 1]
        if room:
            ready += min(room, _ready_sets(counts, value))
    return sum(sheet) + READY * min(ready, TOTAL_BOXES - sum(sheet))


def _results(state: dict) -> list[float]:
    """Each seat's result in [0, 1]: the winner 1, the others 0; before the end, a
    logistic of its `_progress` lead over the best other seat."""
    players = state["players"]
    if state["phase"] == "over":
        return [1.0 if seat == state["winner"] else 0.0 for seat in range(players)]
    progress = [_progress(state, seat) for seat in range(players)]
    results = []
    for seat in range(players):
        lead = progress[seat] - max(p for other, p in enumerate(progress) if other != seat)
        results.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    return results


def _candidates(state: dict, legal: list[dict] | None = None) -> list[dict]:
    """The legal actions (`legal` if given), plus the cross `strong` would build, which
    chooses which cards make the sets (legal_actions lists one way per value and count)."""
    if legal is None:
        legal = legal_actions(state)
    crosses = [a for a in legal if a["type"] == "cross"]
    if not crosses or state["phase"] != "play":
        return legal
    seat = state["turn"]
    hand = state["hands"][seat]
    counts = [0] * 13
    for card in hand:
        counts[card] += 1
    chosen = _best_cross(crosses, counts, state["sheets"][seat], len(hand), False)
    if any(_key(chosen) == _key(a) for a in crosses):
        return legal
    return [*legal, chosen]


class _Node:
    """Statistics of a node's actions: visits, summed result and availability, by key."""

    __slots__ = ("visits", "totals", "available", "children")

    def __init__(self) -> None:
        self.visits: dict = {}
        self.totals: dict = {}
        self.available: dict = {}
        self.children: dict = {}


def _select(node: _Node, actions: list[dict], exploration: float):
    """The untried action first (in order), else the best UCB with availability counts."""
    best, best_score = None, -1.0
    for action in actions:
        key = _key(action)
        node.available[key] = node.available.get(key, 0) + 1
    for action in actions:
        key = _key(action)
        visits = node.visits.get(key, 0)
        if not visits:
            return action, key
        score = node.totals[key] / visits + exploration * math.sqrt(
            math.log(node.available[key]) / visits
        )
        if score > best_score:
            best, best_score = (action, key), score
    return best


def _rollout(state: dict, rng: random.Random, horizon: int) -> dict:
    """Play on with the `strong` policy for every seat for `horizon` turns."""
    for _ in range(horizon):
        if state["phase"] == "over":
            break
        seat = state["turn"]
        state = apply(state, seat, strong(view(state, seat), legal_actions(state), rng))
    return state


def ismcts(
    view_: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    iterations: int = ITERATIONS,
    horizon: int = HORIZON,
    exploration: float = EXPLORATION,
) -> dict:
    """Information-set MCTS from the seat's view (see the module's docstring).

    `iterations` deals are searched; after the tree, each is played on for `horizon`
    turns (extra crosses count as turns) by the `strong` policy. Only `legal` and the
    cross `strong` would choose are played at the root.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    if len(legal) == 1:
        return legal[0]
    root = _Node()
    me = view_["seat"]
    # the root's candidates read only the seat's own hand and sheet
    root_actions = _candidates({**view_, "hands": {me: view_["hand"]}, "turn": me}, legal)
    for _ in range(iterations):
        state = determinize(view_, rng)
        node, path = root, []
        actions = root_actions
        while state["phase"] != "over":
            seat = state["turn"]
            action, key = _select(node, actions, exploration)
            path.append((node, key, seat))
            state = apply(state, seat, action)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
            if state["phase"] != "over":
                actions = _candidates(state)
        results = _results(_rollout(state, rng, horizon))
        for visited, key, seat in path:
            visited.visits[key] = visited.visits.get(key, 0) + 1
            visited.totals[key] = visited.totals.get(key, 0.0) + results[seat]
    counts = root.visits
    best_key = max(counts, key=lambda k: (counts[k], root.totals[k]))
    return next(action for action in root_actions if _key(action) == best_key)


def _shortlist(seen: dict, legal: list[dict], rng: random.Random) -> list[dict]:
    """The actions worth searching: `strong`'s and `greedy`'s choices, every cross (and
    the cross `strong` would build), every draw, every extra cross, and the DISCARDS
    discards `strong` rates best (bots._discard_key)."""
    me = seen["seat"]
    first = [strong(seen, legal, rng), greedy(seen, legal, rng)]
    every = _candidates({**seen, "hands": {me: seen["hand"]}, "turn": me}, legal)
    counts = [0] * 13
    for card in seen["hand"]:
        counts[card] += 1
    discards = sorted(
        (a for a in every if a["type"] == "discard"),
        key=lambda a: _discard_key(a, counts, seen["sheets"][me], seen),
        reverse=True,
    )
    chosen, keys = [], set()
    for action in first + [a for a in every if a["type"] != "discard"] + discards[:DISCARDS]:
        key = _key(action)
        if key not in keys:
            keys.add(key)
            chosen.append(action)
    return chosen


def _on_deals(
    view_: dict, actions: list[dict], rng: random.Random, deals: int, horizon: int
) -> list[list[float]]:
    """Each action's result (`_results`) on `deals` new deals (`determinize`), every
    action on the same deals followed by the same `horizon` turns of the `strong` policy
    (the same random draws: common random numbers)."""
    me = view_["seat"]
    results: list[list[float]] = [[] for _ in actions]
    for _ in range(deals):
        state = determinize(view_, rng)
        seed = rng.randrange(1 << 30)
        for action, found in zip(actions, results, strict=True):
            after = apply(state, me, action)
            found.append(_results(_rollout(after, random.Random(seed), horizon))[me])
    return results


def _horizon(view_: dict, horizon: int | None) -> int:
    """`horizon`, or HORIZON_TURNS of the seat's own turns at this table's size: at 3-4
    players 24 plies left the search too few turns of its own to tell the moves apart."""
    return horizon if horizon is not None else HORIZON_TURNS * view_["players"]


def hard(
    view_: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    work: int = WORK,
    horizon: int | None = None,
    confidence: float = CONFIDENCE,
) -> dict:
    """Sequential halving over the root's actions on shared deals, from the seat's view.

    The candidates are `_shortlist`'s, `strong`'s choice first. In each round every
    candidate still in is played on the same new deals (`determinize`), each followed by
    the same `horizon` turns (`_horizon`) of the `strong` policy (the same random draws
    for every candidate, so that the candidates' differences are not drowned by the luck
    of the deal), and the better half by mean result (`_results`) goes on; `strong`'s choice
    stays in throughout. About `work` turns are played in all. The best one left is
    played only if it beats `strong`'s choice deal by deal by `confidence` standard
    errors of the mean difference: with a few dozen deals most differences are noise,
    and following the noise lost more games than `strong` does.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    if len(legal) == 1:
        return legal[0]
    horizon = _horizon(view_, horizon)
    alive = _shortlist(view_, legal, rng)
    if len(alive) == 1:
        return alive[0]
    results: list[list[float]] = [[] for _ in alive]
    rounds = max(1, math.ceil(math.log2(len(alive))))
    index = list(range(len(alive)))
    while True:
        deals = max(MIN_DEALS, work // (horizon * len(index) * rounds))
        found = _on_deals(view_, [alive[i] for i in index], rng, deals, horizon)
        for i, more in zip(index, found, strict=True):
            results[i].extend(more)
        if len(index) <= 2:
            break
        others = sorted(index[1:], key=lambda i: -sum(results[i]))
        index = [0, *others[: len(others) // 2]]
    best = max(index[1:], key=lambda i: sum(results[i]))
    # results[0] and results[best] hold the same deals, in the same order
    differences = [b - a for a, b in zip(results[0], results[best], strict=True)]
    mean = sum(differences) / len(differences)
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
    if mean > 0 and mean * math.sqrt(len(differences)) > confidence * spread:
        return alive[best]
    return alive[0]


# The review after a game (games.review): a game holds a hundred decisions or so.
REVIEW = {"work": 12_000}


def values(
    view_: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    work: int = WORK,
    horizon: int | None = None,
    **_unused,
) -> list[float]:
    """The seat's estimated chance to win (in [0, 1], `_results`) after each of `legal`
    (actions it may take now, e.g. `_shortlist`'s), each played on the same deals and the
    same later draws (common random numbers) as `hard` plays its candidates, about `work`
    turns in all, so that the differences between actions are not the luck of the deal."""
    if not legal:
        raise ValueError("no legal action: the game is over")
    horizon = _horizon(view_, horizon)
    deals = max(MIN_DEALS, work // (horizon * len(legal)))
    found = _on_deals(view_, legal, rng, deals, horizon)
    return [sum(results) / len(results) for results in found]


def judge(view_: dict, legal: list[dict], played: dict, rng: random.Random, **budget):
    """The review of one decision: [(action, value)] for the action `played` and the
    alternatives `hard` weighs (`_shortlist`), valued by `values` on the same deals."""
    mine = _key(played)
    # the move played itself (a cross's sets in its own order), so that callers find it
    candidates = [played if _key(a) == mine else a for a in _shortlist(view_, legal, rng)]
    if played not in candidates:
        candidates.append(played)
    return list(zip(candidates, values(view_, candidates, rng, **budget), strict=True))
