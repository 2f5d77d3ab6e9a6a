"""Reference TriumfDrez players.

A bot is `(view, legal, rng) -> action`: it sees only its seat's `engine.view(state,
seat)` and `engine.legal_actions(state)`, and draws any randomness from `rng`.
- `random_legal`: any legal action; in the auction it passes when it may, three times
  out of four, so that auctions end and matches stay short.
- `heuristic`: bids from an estimate of its tricks and plays to win cheaply.
"""

import random

FIGURES = ("joker", "queen", "rook", "bishop", "knight", "pawn")  # highest rank first
_RANK = {figure: len(FIGURES) - 1 - index for index, figure in enumerate(FIGURES)}
# Estimated chance that a card wins a trick, by kind (see _estimate).
_SUPER_VALUE = {5: 0.9, 4: 0.8, 3: 0.65, 2: 0.5, 1: 0.4, 0: 0.3}  # by figure rank
_TRUMP_VALUE = {9: 0.85, 8: 0.7, 7: 0.55, 6: 0.4, 5: 0.3}  # by number; lower 0.2
_SIDE_VALUE = {9: 0.6, 8: 0.35, 7: 0.15}  # by number, with a trump figure
_PLAIN_VALUE = {9: 0.8, 8: 0.5, 7: 0.25}  # by number, without a trump figure
_PARTNER_TRICKS = 1.0  # what a partner is assumed to add at 4 players


def _parse(card: str) -> tuple[str | None, int]:
    figure, number = card.split("-")
    return (None, 0) if figure == "neutral" else (figure, int(number))


def _strength(card: str, trump: str | None, supertrump: int | None, led: str | None) -> int:
    """The card's D-RANK strength in a trick led with figure `led` (-1: cannot win)."""
    figure, number = _parse(card)
    if figure is None:
        return -1
    if number == supertrump:
        return 310 if figure == trump else 300 + _RANK[figure]
    if figure == trump:
        return 200 + number
    if figure == led:
        return 100 + number
    return -1


def _bid_level(bid: dict) -> int:
    """The order of bids (D-AUCTION ruling) as a number."""
    dropped = (bid["trump"] is None) + (bid["supertrump"] is None)
    return (bid["tricks"] - 1) * 6 + (3 if bid["open"] else 0) + dropped


def random_legal(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Any legal action; in the auction a pass (when allowed) three times out of four."""
    if view["phase"] == "auction" and rng.random() < 0.75:
        for action in legal:
            if action["type"] == "pass":
                return action
    return rng.choice(legal)


def _estimate(hand: list[str], trump: str | None, supertrump: int | None, players: int) -> float:
    """Tricks the hand should take with this trump figure and super-trump colour."""
    total = _PARTNER_TRICKS if players == 4 else 0.0
    side = _SIDE_VALUE if trump is not None else _PLAIN_VALUE
    trumps = 0
    for card in hand:
        figure, number = _parse(card)
        if figure is None:
            continue
        if number == supertrump:
            total += 1.0 if figure == trump else _SUPER_VALUE[_RANK[figure]]
        elif figure == trump:
            total += _TRUMP_VALUE.get(number, 0.2)
            trumps += 1
        else:
            total += side.get(number, 0.0)
    # A long trump figure wins tricks of its own once the others run out.
    return total + 0.3 * max(0, trumps - 3)


def _bid(view: dict, legal: list[dict]) -> dict:
    seat, players = view["seat"], view["players"]
    pass_action = next((action for action in legal if action["type"] == "pass"), None)
    top = next((entry for entry in reversed(view["auction"]) if not entry.get("pass")), None)
    if pass_action is not None and players == 4 and top and top["seat"] == (seat + 2) % 4:
        return pass_action  # never outbid the partner
    estimates = {
        (trump, supertrump): _estimate(view["hand"], trump, supertrump, players)
        for trump in (*FIGURES, None)
        for supertrump in (*range(1, 10), None)
    }
    best = max(estimates.values())
    # The lowest bid that the hand can make with a trump and super-trump that suit it.
    chosen, chosen_key = None, None
    for action in legal:
        if action["type"] != "bid" or action["open"]:
            continue
        estimate = estimates[(action["trump"], action["supertrump"])]
        if estimate < best - 0.5 or action["tricks"] > estimate + 0.25:
            continue
        key = (_bid_level(action), -estimate)
        if chosen_key is None or key < chosen_key:
            chosen, chosen_key = action, key
    if chosen is not None:
        return chosen
    if pass_action is not None:
        return pass_action
    # The first bidder must bid: the lowest bid with its best trump and super-trump.
    return min(
        (action for action in legal if action["type"] == "bid"),
        key=lambda action: (
            _bid_level(action),
            -estimates[(action["trump"], action["supertrump"])],
        ),
    )


def _keep_value(card: str, trump: str | None, supertrump: int | None) -> int:
    """How much a card is worth keeping; the lowest is discarded first."""
    figure, number = _parse(card)
    if figure is None:
        return 0  # a neutral card never wins
    if number == supertrump:
        return 100 + _RANK[figure]
    if figure == trump:
        return 50 + number
    return number


def _seen_cards(view: dict) -> set[str]:
    seen = set(view["hand"])
    for finished in view.get("played_tricks") or ():
        seen.update(play["card"] for play in finished["cards"])
    seen.update(play["card"] for play in view["trick"])
    for shown in view.get("open_hands") or ():
        seen.update(shown or ())
    return seen


def _lead(view: dict, cards: list[str], trump: str | None, supertrump: int | None) -> str:
    """Lead a super-trump or trump no unseen card beats, else the cheapest card."""
    seen = _seen_cards(view)
    unseen = [
        card for card in (f"{f}-{n}" for f in FIGURES for n in range(1, 10)) if card not in seen
    ]
    best = max(cards, key=lambda card: _strength(card, trump, supertrump, _parse(card)[0]))
    power = _strength(best, trump, supertrump, _parse(best)[0])
    if power >= 200 and all(_strength(card, trump, supertrump, None) < power for card in unseen):
        return best
    return min(cards, key=lambda card: _keep_value(card, trump, supertrump))


def _follow(view: dict, cards: list[str], trump: str | None, supertrump: int | None) -> str:
    trick = view["trick"]
    led = next((f for f in (_parse(play["card"])[0] for play in trick) if f), None)
    best_seat, best = trick[0]["seat"], -1
    for play in trick:
        value = _strength(play["card"], trump, supertrump, led)
        if value > best:
            best_seat, best = play["seat"], value
    cheapest = min(cards, key=lambda card: _keep_value(card, trump, supertrump))
    players, seat = view["players"], view["seat"]
    if players == 4 and best_seat == (seat + 2) % 4:
        return cheapest  # the partner is winning: do not overtake
    winning = [
        card for card in cards if _strength(card, trump, supertrump, led or _parse(card)[0]) > best
    ]
    if winning:
        return min(
            winning, key=lambda card: _strength(card, trump, supertrump, led or _parse(card)[0])
        )
    return cheapest


def heuristic(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Bids from its hand's strength; wins cheaply when it can, else discards low."""
    if view["phase"] == "auction":
        return _bid(view, legal)
    if view["phase"] != "play":
        return rng.choice(legal)
    cards = [action["card"] for action in legal]
    contract = view["contract"]
    trump, supertrump = contract["trump"], contract["supertrump"]
    if view["trick"]:
        card = _follow(view, cards, trump, supertrump)
    else:
        card = _lead(view, cards, trump, supertrump)
    return {"type": "play", "card": card}
