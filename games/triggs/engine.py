"""Triggs engine: the public contract of engines.md (new_game, legal_actions, apply, view,
is_over, to_act), the rules' constants, and what a screen needs that follows from the
rules (cross_options, cross_choices, discard_options, open_rows, first_draw_piles,
second_draw_piles, sets_from_cards, first_draw_refusal, draw_preview, the view's
draw_count).

Rules implemented (ids from rules.md): T-DECK, T-SHEET, T-SETUP-1..3, T-A, T-A-LIMIT,
T-B, T-C, T-C-CAP, T-C-BONUS, T-EMPTY-HAND, T-REFILL, T-OBSOLETE-12, T-OBSOLETE-11,
T-WIN, with their rulings.

Besides the contract keys a state holds `refills`: how many refill shuffles have
happened, so that the next one derives its own generator from the seed.
"""

import itertools
import random
from collections import Counter

from .errors import CODES, IllegalAction, check_shape
from .piles import FACE_UP, PILE_NAMES, CardPiles, is_settled, next_obsolete, split_rest
from .sheet import ROW_SIZES, TOTAL_BOXES, VALUES, cross_ways, open_boxes, open_rows

__all__ = [
    "CODES",
    "FACE_UP",
    "HAND_LIMIT",
    "MAX_SET_CARDS",
    "PILE_NAMES",
    "ROW_SIZES",
    "TOTAL_BOXES",
    "VALUES",
    "IllegalAction",
    "apply",
    "cross_choices",
    "cross_options",
    "discard_options",
    "draw_preview",
    "first_draw_piles",
    "first_draw_refusal",
    "is_over",
    "legal_actions",
    "new_game",
    "open_boxes",
    "open_rows",
    "second_draw_piles",
    "sets_from_cards",
    "to_act",
    "view",
]

HAND_LIMIT = 10
MAX_SET_CARDS = 2  # a set is one card of the row's value or two adding up to it (T-C)
EMPTY_HAND_DRAW = 5
DEAL = 5

FIELDS = {
    "draw": frozenset(("type", "from")),
    "discard": frozenset(("type", "value", "count")),
    "cross": frozenset(("type", "value", "sets")),
    "extra": frozenset(("type", "value")),
}


def new_game(config: dict, seed: int) -> dict:
    """T-DECK, T-SETUP-1..3: shuffle 108 cards, deal 5 each, split the rest, pick a starter."""
    players = config.get("players") if isinstance(config, dict) else None
    if type(players) is not int or not 2 <= players <= 4 or type(seed) is not int:
        raise IllegalAction("bad_config")
    rng = random.Random(f"triggs:{seed}:deal")
    deck = [value for value in VALUES for _ in range(9)]
    rng.shuffle(deck)
    hands = [deck[DEAL * p : DEAL * (p + 1)] for p in range(players)]
    left, stock, right = split_rest(deck[DEAL * players :])
    return {
        "game": "triggs",
        "players": players,
        "seed": seed,
        "turn": rng.randrange(players),
        "phase": "play",
        "winner": None,
        "hands": hands,
        "sheets": [[0] * 12 for _ in range(players)],
        "piles": {"left": left, "stock": stock, "right": right},
        "discard": [],
        "box": [],
        "obsolete": [],
        "pending_extra": 0,
        "refills": 0,
    }


def is_over(state: dict) -> bool:
    """T-WIN: a player has crossed every box."""
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    """The seat whose move the game waits for ([] once it is over)."""
    return [] if state["phase"] == "over" else [state["turn"]]


# -- legal actions ---------------------------------------------------------------------


def legal_actions(state: dict) -> list[dict]:
    """All legal actions of the seat to act; for a cross, one way per (value, sets)."""
    phase = state["phase"]
    if phase == "over":
        return []
    seat = state["turn"]
    sheet = state["sheets"][seat]
    if phase == "extra":
        return [{"type": "extra", "value": v} for v in VALUES if sheet[v - 1] < ROW_SIZES[v]]
    hand = state["hands"][seat]
    counts = [0] * 13
    for card in hand:
        counts[card] += 1
    present = sorted(set(hand))
    actions = []
    append = actions.append
    # inner lists are copied so that no two actions share a list
    for v, sets in cross_ways(counts, present, sheet).items():
        if len(sets) == 1:  # by far the most frequent
            append({"type": "cross", "value": v, "sets": [sets[0][:]]})
            continue
        for k in range(1, len(sets) + 1):
            append({"type": "cross", "value": v, "sets": [s[:] for s in sets[:k]]})
    size = len(hand)
    if size < HAND_LIMIT:
        piles = state["piles"]
        if (
            size < HAND_LIMIT - 1
            and len(piles["left"]) > 1
            and len(piles["stock"]) > 1
            and len(piles["right"]) > 1
            and not state["obsolete"]
        ):
            # the common case: every pair of sources works
            actions += [
                {"type": "draw", "from": ["left", "left"]},
                {"type": "draw", "from": ["left", "stock"]},
                {"type": "draw", "from": ["left", "right"]},
                {"type": "draw", "from": ["stock", "stock"]},
                {"type": "draw", "from": ["stock", "right"]},
                {"type": "draw", "from": ["right", "right"]},
            ]
        else:
            actions += _draw_actions(state, size)
    for v in present:
        for n in range(1, counts[v] + 1):
            append({"type": "discard", "value": v, "count": n})
    return actions


def _draw_actions(state: dict, hand_size: int) -> list[dict]:
    piles = state["piles"]
    discard = state["discard"]
    obsolete = state["obsolete"]
    if not is_settled(piles, discard, obsolete):
        return _probe_draws(state, hand_size)
    ready = [p for p in PILE_NAMES if piles[p]]
    if hand_size == HAND_LIMIT - 1:
        return [{"type": "draw", "from": [p]} for p in ready]
    actions = []
    for i, p in enumerate(ready):
        if _draws_twice(piles[p], p, discard, obsolete):
            actions.append({"type": "draw", "from": [p, p]})
        for q in ready[i + 1 :]:
            actions.append({"type": "draw", "from": [p, q]})
    return actions


def _probe_draws(state: dict, hand_size: int) -> list[dict]:
    """Draws from a hand-edited position where a refill or removal is still due:
    let apply decide each candidate."""
    if hand_size == HAND_LIMIT - 1:
        candidates = [[p] for p in PILE_NAMES]
    else:
        candidates = [[p, q] for i, p in enumerate(PILE_NAMES) for q in PILE_NAMES[i:]]
    legal = []
    for sources in candidates:
        action = {"type": "draw", "from": sources}
        try:
            apply(state, state["turn"], action)
        except IllegalAction:
            continue
        legal.append(action)
    return legal


def _draws_twice(pile: list[int], name: str, discard: list[int], obsolete: list[int]) -> bool:
    """Can a settled pile be drawn from again right after its top card is drawn?"""
    face_up = name != "stock"
    below = len(pile) - 1
    if face_up and obsolete:
        while below and pile[below - 1] in obsolete:
            below -= 1
    if below:
        return True
    # the pile runs out and takes the discard pile; face up, obsolete cards fall off it
    if face_up and obsolete:
        return any(card not in obsolete for card in discard)
    return bool(discard)


# -- apply -----------------------------------------------------------------------------


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after `seat` plays `action`; raises IllegalAction and changes nothing."""
    kind = check_shape(action, FIELDS)
    phase = state["phase"]
    if phase == "over":
        raise IllegalAction("game_over")
    if type(seat) is not int or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat", repr(seat))
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn")
    if kind == "extra":
        if phase != "extra":
            raise IllegalAction("no_extra_pending")
        return _extra(state, seat, action["value"])
    if phase == "extra":
        raise IllegalAction("extra_pending")
    if kind == "draw":
        return _draw(state, seat, action["from"])
    if kind == "discard":
        return _discard(state, seat, action["value"], action["count"])
    return _cross(state, seat, action["value"], action["sets"])


def _check_value(value: object) -> int:
    if type(value) is not int or not 1 <= value <= 12:
        raise IllegalAction("bad_value", repr(value))
    return value


def _quiet(state: dict) -> bool:
    """No pile is empty and nothing is obsolete: moving cards onto the discard pile, or
    taking all but the last card of a pile, triggers no refill and no removal."""
    piles = state["piles"]
    return bool(piles["left"] and piles["stock"] and piles["right"] and not state["obsolete"])


def _draw(state: dict, seat: int, sources: object) -> dict:
    """T-A, T-A-LIMIT; T-REFILL between the two cards."""
    if type(sources) is not list:
        raise IllegalAction("bad_sources")
    for name in sources:
        if name not in PILE_NAMES:
            raise IllegalAction("bad_sources", repr(name))
    hand = state["hands"][seat]
    if len(hand) >= HAND_LIMIT:
        raise IllegalAction("hand_full")
    if len(sources) != (1 if len(hand) == HAND_LIMIT - 1 else 2):
        raise IllegalAction("wrong_draw_count", str(len(sources)))
    new = dict(state)
    hands = new["hands"] = state["hands"][:]
    hand = hand[:]
    if _quiet(state):
        piles = dict(state["piles"])
        for name in sources:
            pile = piles[name]
            if len(pile) < 2:
                break
            hand.append(pile[-1])
            piles[name] = pile[:-1]
        else:
            new["piles"] = piles
            hands[seat] = hand
            new["turn"] = (seat + 1) % state["players"]
            return new
        hand = state["hands"][seat][:]
    table = CardPiles(state)
    for name in sources:
        hand.append(table.draw(name))
    table.store(new)
    hands[seat] = hand
    new["turn"] = (seat + 1) % state["players"]
    return new


def _lay(new: dict, cards: list[int]) -> None:
    """Cards laid from a hand (T-B, T-C) go onto the discard pile one by one, T-REFILL
    checked after each; obsolete ones go to the box (T-OBSOLETE-*)."""
    if _quiet(new):
        new["discard"] = new["discard"] + cards
        return
    table = CardPiles(new)
    for card in cards:
        table.lay(card)
    table.store(new)


def _discard(state: dict, seat: int, value: object, count: object) -> dict:
    """T-B (12s and 11s go to the box once obsolete), then T-EMPTY-HAND."""
    value = _check_value(value)
    if type(count) is not int or count < 1:
        raise IllegalAction("bad_count", repr(count))
    hand = state["hands"][seat]
    held = hand.count(value)
    if held < count:
        raise IllegalAction("cards_not_in_hand")
    new = dict(state)
    hands = new["hands"] = state["hands"][:]
    _lay(new, [value] * count)
    rest = [card for card in hand if card != value]
    if held > count:
        rest += [value] * (held - count)
    elif not rest:
        table = CardPiles(new)
        rest = table.draw_from_stock(EMPTY_HAND_DRAW)
        table.store(new)
    hands[seat] = rest
    new["turn"] = (seat + 1) % state["players"]
    return new


def _cross(state: dict, seat: int, value: object, sets: object) -> dict:
    """T-C, T-C-CAP; then T-WIN, T-OBSOLETE-*, T-EMPTY-HAND and T-C-BONUS, in that order."""
    value = _check_value(value)
    sheet = state["sheets"][seat]
    room = ROW_SIZES[value] - sheet[value - 1]
    if room <= 0:
        raise IllegalAction("row_full", str(value))
    if type(sets) is not list or not sets:
        raise IllegalAction("bad_sets")
    laid = []
    for cards in sets:
        size = len(cards) if type(cards) is list else 0
        if size == 1:
            a = cards[0]
            if type(a) is not int or not 1 <= a <= 12:
                raise IllegalAction("bad_sets", repr(a))
            if a != value:
                raise IllegalAction("set_wrong_sum", repr(cards))
        elif size == 2:
            a, b = cards
            if type(a) is not int or type(b) is not int or not (1 <= a <= 12 and 1 <= b <= 12):
                raise IllegalAction("bad_sets", repr(cards))
            if a + b != value:
                raise IllegalAction("set_wrong_sum", repr(cards))
        elif size:
            raise IllegalAction("set_too_large")
        else:
            raise IllegalAction("bad_sets", repr(cards))
        laid += cards
    if len(sets) > room:
        raise IllegalAction("too_many_sets", f"{len(sets)} > {room}")
    rest = state["hands"][seat][:]
    try:
        for card in laid:
            rest.remove(card)
    except ValueError:
        raise IllegalAction("cards_not_in_hand") from None
    new = dict(state)
    hands = new["hands"] = state["hands"][:]
    hands[seat] = rest
    _lay(new, laid)
    sheets = new["sheets"] = state["sheets"][:]
    sheet = sheets[seat] = sheet[:]
    sheet[value - 1] += len(sets)
    filled = len(sets) == room
    if filled and sum(sheet) == TOTAL_BOXES:
        return _won(new, seat)
    obsoletes = filled and value >= 11
    if obsoletes or not rest:
        table = CardPiles(new)
        if obsoletes:
            table.set_obsolete(next_obsolete(sheets, table.obsolete))
        if not rest:
            hands[seat] = table.draw_from_stock(EMPTY_HAND_DRAW)
        table.store(new)
    if filled:
        new["phase"] = "extra"
        new["pending_extra"] = 1
    else:
        new["turn"] = (seat + 1) % state["players"]
    return new


def _extra(state: dict, seat: int, value: object) -> dict:
    """T-C-BONUS: one extra cross, chaining while rows fill; ends at T-WIN."""
    value = _check_value(value)
    sheet = state["sheets"][seat]
    if sheet[value - 1] >= ROW_SIZES[value]:
        raise IllegalAction("row_full", str(value))
    new = dict(state)
    sheets = new["sheets"] = state["sheets"][:]
    sheet = sheets[seat] = sheet[:]
    sheet[value - 1] += 1
    filled = sheet[value - 1] == ROW_SIZES[value]
    if filled and sum(sheet) == TOTAL_BOXES:
        return _won(new, seat)
    if filled and value >= 11:
        obsolete = next_obsolete(sheets, state["obsolete"])
        if obsolete is not state["obsolete"]:
            table = CardPiles(state)
            table.set_obsolete(obsolete)
            table.store(new)
    pending = state["pending_extra"] - 1 + filled
    new["pending_extra"] = pending
    if not pending:
        new["phase"] = "play"
        new["turn"] = (seat + 1) % state["players"]
    return new


def _won(new: dict, seat: int) -> dict:
    """T-WIN: the game ends at once (no more draws, removals or extra crosses)."""
    new["phase"] = "over"
    new["winner"] = seat
    new["pending_extra"] = 0
    return new


# -- view ------------------------------------------------------------------------------


def view(state: dict, seat: int | None) -> dict:
    """What `seat` may see (None: a spectator); see engines.md, "Views". A seat's view
    also has `draw_count`: how many cards it may draw now (0, 1 or 2; see _draw_count)."""
    hands = state["hands"]
    if seat is not None and (type(seat) is not int or not 0 <= seat < state["players"]):
        raise IllegalAction("bad_seat", repr(seat))
    piles = state["piles"]
    left, stock, right = piles["left"], piles["stock"], piles["right"]
    discard = state["discard"]
    seen = {
        "game": state["game"],
        "players": state["players"],
        "seat": seat,
        "turn": state["turn"],
        "phase": state["phase"],
        "winner": state["winner"],
        "sheets": list(map(list.copy, state["sheets"])),
        "obsolete": state["obsolete"][:],
        "pending_extra": state["pending_extra"],
        "box": state["box"][:],
        "hand_sizes": list(map(len, hands)),
        "piles": {
            "left": {"top": left[-1] if left else None, "count": len(left)},
            "stock": {"count": len(stock)},
            "right": {"top": right[-1] if right else None, "count": len(right)},
        },
        "discard": {"top": discard[-1] if discard else None, "count": len(discard)},
    }
    if seat is not None:
        seen["hand"] = sorted(hands[seat])
        seen["draw_count"] = _draw_count(state, seat)
    return seen


def _draw_count(state: dict, seat: int) -> int:
    """How many cards `seat` may draw now (T-A, T-A-LIMIT): on its turn in phase "play",
    2, or 1 with 9 cards in hand, or 0 with 10; 0 whenever it is not its turn. (Whether
    the piles allow that draw is for legal_actions and apply to say.)"""
    if state["phase"] != "play" or state["turn"] != seat:
        return 0
    held = len(state["hands"][seat])
    return 0 if held >= HAND_LIMIT else 1 if held == HAND_LIMIT - 1 else 2


# -- what a screen needs -----------------------------------------------------------------


def cross_options(view: dict) -> list[dict]:
    """For the viewing seat's hand and sheet (from its view), each row its hand can cross
    and the most sets it can lay there, singles first (T-C, T-C-CAP):
    [{"value": v, "sets": [[v], [a, b], ...], "room": open boxes}, ...], ascending by
    value, fresh lists. [] for a view without a hand (a spectator's). Whose turn it is
    and the phase are not looked at: a screen offers a cross only when `to_act` says."""
    hand, seat = view.get("hand"), view.get("seat")
    if not hand or seat is None:
        return []
    sheet = view["sheets"][seat]
    counts = [0] * 13
    for card in hand:
        counts[card] += 1
    ways = cross_ways(counts, sorted(set(hand)), sheet)
    return [
        {
            "value": value,
            "sets": [list(cards) for cards in ways[value]],
            "room": ROW_SIZES[value] - sheet[value - 1],
        }
        for value in sorted(ways)
    ]


def cross_choices(option: dict) -> list[list[list[int]]]:
    """Every cross one of `cross_options`' rows allows (T-C, T-C-CAP): each non-empty
    choice among its most sets, a set kind taken fewer times or not at all, in a fixed
    order (fewer sets of the first kind first)."""
    kinds = Counter(tuple(cards) for cards in option["sets"])
    types = sorted(kinds)
    choices = []
    for counts in itertools.product(*(range(kinds[kind] + 1) for kind in types)):
        sets = [list(kind) for kind, n in zip(types, counts, strict=True) for _ in range(n)]
        if sets:
            choices.append(sets)
    return choices


def discard_options(hand: list[int]) -> list[dict]:
    """Every discard a hand allows (T-B): one or more cards of one value it holds,
    [{"value": v, "count": n}, ...] by value, then count."""
    held = Counter(hand)
    return [
        {"value": value, "count": n} for value in sorted(held) for n in range(1, held[value] + 1)
    ]


def first_draw_piles(view: dict) -> list[str]:
    """The piles a seat's view offers its first card of a draw from (T-A, T-REFILL): none
    unless it may draw now (the view's draw_count); a pile with cards, or an empty one
    when the discard pile can refill it. `apply` judges the draw itself."""
    if not view.get("draw_count"):
        return []
    refill = view["discard"]["count"] > 0
    return [name for name in PILE_NAMES if view["piles"][name]["count"] or refill]


def second_draw_piles(state: dict, seat: int, first: str) -> list[str]:
    """The piles the second card of `seat`'s draw may come from, its first taken from
    `first` (T-A, T-REFILL)."""
    piles = []
    for name in PILE_NAMES:
        try:
            apply(state, seat, {"type": "draw", "from": [first, name]})
        except IllegalAction:
            continue
        piles.append(name)
    return piles


def sets_from_cards(value: int, cards: list[int]) -> list[list[int]]:
    """Cards chosen for a cross of `value` as its sets (T-C): the cards of the value alone,
    the others in pairs adding up to it; there is only one way, or none (set_wrong_sum)."""
    left = sorted(cards)
    sets = [[card] for card in left if card == value]
    left = [card for card in left if card != value]
    while left:
        a = left.pop(0)
        if value - a not in left:
            raise IllegalAction("set_wrong_sum")
        left.remove(value - a)
        sets.append([a, value - a])
    return sets


def first_draw_refusal(state: dict, seat: int, pile: str) -> IllegalAction | None:
    """None if some draw whose first card comes from `pile` is legal for `seat` (T-A),
    else the refusal such a draw gets."""
    error = None
    for second in PILE_NAMES:
        try:
            apply(state, seat, {"type": "draw", "from": [pile, second]})
            return None
        except IllegalAction as refusal:
            error = refusal
    return error


def draw_preview(state: dict, seat: int, pile: str) -> dict:
    """What taking the first card of a draw from `pile` shows `seat` (T-A, T-REFILL): that
    card when it lay face up, and the card it uncovered on a face-up pile (None when
    face down or when the pile ran out): public at a real table the moment it is taken."""
    if pile == "stock":
        return {"pile": pile, "first": None, "uncovered": None}
    cards = state["piles"][pile]
    first = cards[-1] if cards else None
    try:
        after = apply(state, seat, {"type": "draw", "from": [pile, pile]})
    except IllegalAction:
        return {"pile": pile, "first": first, "uncovered": None}
    drawn = Counter(after["hands"][seat]) - Counter(state["hands"][seat])
    if first is not None:
        drawn[first] -= 1
    rest = sorted(drawn.elements())
    return {"pile": pile, "first": first, "uncovered": rest[0] if len(rest) == 1 else None}
