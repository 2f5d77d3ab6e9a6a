"""Reference TriumfDrez players.

A bot is `(view, legal, rng) -> action`: it sees only its seat's `engine.view(state,
seat)` and `engine.legal_actions(state)`, and draws any randomness from `rng`. The rules
it plays by (a card's strength, following, who takes a trick so far, the order of bids,
a hand's points) are the engine's own functions (games.triumfdrez.engine).
- `random_legal`: any legal action; in the auction it passes when it may, three times
  out of four, so that auctions end and matches stay short.
- `heuristic`: bids from an estimate of its tricks and plays to win cheaply.
- `strong`: determinized simulation (see `strong`); how far it outscores heuristic:
  `python bench/bots_triumfdrez.py` (figures in bench/RESULTS.md).

`LEVELS` maps the level names the tables store to the bots.
"""

import random
from typing import NamedTuple

from .engine import (
    DECK,
    FIGURE,
    FIGURE_RANK,
    FIGURES,
    NUMBER,
    TRICKS_MAX,
    TRUMP_STRENGTH,
    current_bid,
    entry_level,
    hand_points,
    led_figure,
    lowest_beating,
    playable,
    strength,
    team_of,
    winning_play,
)

# Estimated chance that a card wins a trick, by kind (see _estimate).
_SUPER_VALUE = {5: 0.9, 4: 0.8, 3: 0.65, 2: 0.5, 1: 0.4, 0: 0.3}  # by figure rank
_TRUMP_VALUE = {9: 0.85, 8: 0.7, 7: 0.55, 6: 0.4, 5: 0.3}  # by number; lower 0.2
_SIDE_VALUE = {9: 0.6, 8: 0.35, 7: 0.15}  # by number, with a trump figure
_PLAIN_VALUE = {9: 0.8, 8: 0.5, 7: 0.25}  # by number, without a trump figure
_PARTNER_TRICKS = 1.0  # what a partner is assumed to add at 4 players


def _parse(card: str) -> tuple[str | None, int]:
    """A card's figure (None: neutral) and number (its colour)."""
    return FIGURE[card], NUMBER[card]


def _strength(card: str, trump: str | None, supertrump: int | None, led: str | None) -> int:
    """The card's D-RANK strength in a trick led with figure `led` (-1: cannot win)."""
    return strength(card, led, trump, supertrump)


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
            total += 1.0 if figure == trump else _SUPER_VALUE[FIGURE_RANK[figure]]
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
        key = (entry_level(action), -estimate)
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
            entry_level(action),
            -estimates[(action["trump"], action["supertrump"])],
        ),
    )


def _keep_value(card: str, trump: str | None, supertrump: int | None) -> int:
    """How much a card is worth keeping; the lowest is discarded first."""
    figure, number = _parse(card)
    if figure is None:
        return 0  # a neutral card never wins
    if number == supertrump:
        return 100 + FIGURE_RANK[figure]
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
    unseen = [card for card in DECK if card not in seen]
    best = max(cards, key=lambda card: _strength(card, trump, supertrump, _parse(card)[0]))
    power = _strength(best, trump, supertrump, _parse(best)[0])
    if power >= TRUMP_STRENGTH and all(
        _strength(card, trump, supertrump, None) < power for card in unseen
    ):
        return best
    return min(cards, key=lambda card: _keep_value(card, trump, supertrump))


def _follow(view: dict, cards: list[str], trump: str | None, supertrump: int | None) -> str:
    """Let a winning partner take the trick, else win it as cheaply as it can, else
    discard the card least worth keeping."""
    trick = view["trick"]
    led = led_figure(trick)
    best_seat, best = winning_play(trick, trump, supertrump)
    cheapest = min(cards, key=lambda card: _keep_value(card, trump, supertrump))
    players, seat = view["players"], view["seat"]
    if players == 4 and best_seat == (seat + 2) % 4:
        return cheapest  # the partner is winning: do not overtake
    winning = [
        card for card in cards if _strength(card, trump, supertrump, led or FIGURE[card]) > best
    ]
    if winning:
        return min(
            winning, key=lambda card: _strength(card, trump, supertrump, led or FIGURE[card])
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


# --------------------------------------------------------------------------------------
# The strong level: determinized simulation (see `strong`).
#
# Cards are ints here, their index in the engine's DECK; _FIG[c] is the card's figure as
# its index in FIGURES (Joker 0 … Pawn 5; -1 for a neutral card), _NUM[c] its number.
# DECK order is the view's hand order, so sorted int hands break ties exactly as
# `heuristic` does over `legal`. Every table here is built from the engine's own (cards,
# tricks.strength) once per contract, so the rules are not written twice.
# --------------------------------------------------------------------------------------

_INDEX = {card: index for index, card in enumerate(DECK)}
_CARDS = len(DECK)
_FIGURE_INDEX = {figure: index for index, figure in enumerate(FIGURES)}
_FIG = [-1 if FIGURE[card] is None else _FIGURE_INDEX[FIGURE[card]] for card in DECK]
_NUM = [NUMBER[card] for card in DECK]
_OWN = 6  # row of a strength table where the card's own figure counts as led

# Defaults of the strong level; every one can be passed to `strong` as a keyword.
PLAY_WORK = 20_000  # card plays simulated per card decision (sets the number of deals)
PLAY_DEALS = (8, 40)  # fewest and most deals sampled per card decision
PLAY_TRIES = 1  # deals tried per sample to fit the other seats' bids (1: ignore bids)
BID_DEALS = 24  # deals sampled per candidate trump / super-trump in the auction
BID_COMBOS = 5  # candidate trump / super-trump combinations simulated in the auction
BID_TRIES = 8  # deals tried per sample to fit the bids made so far
BID_MARGIN = 0.0  # how much more than the standing bid a bid must be worth (points)


class _Table:
    """One contract's D-RANK strengths and the heuristic's keep values, per int card."""

    __slots__ = ("strength", "keep", "masters")

    # follows[led]: the int cards that follow a trick led with figure `led` (0..5), as the
    # engine's `playable` keeps them from the whole deck (D-FOLLOW)
    follows = tuple(
        frozenset(_INDEX[card] for card in playable(list(DECK), [{"seat": 0, "card": f"{f}-1"}]))
        for f in FIGURES
    )

    def __init__(self, trump: str | None, supertrump: int | None):
        # strength[led][c]: led 0..5 a figure, _OWN the card's own figure (-1: cannot win),
        # the engine's D-RANK strengths (tricks.strength) of each int card
        self.strength = [
            [strength(card, figure, trump, supertrump) for card in DECK] for figure in FIGURES
        ]
        self.strength.append([strength(card, FIGURE[card], trump, supertrump) for card in DECK])
        self.keep = [_keep_value(card, trump, supertrump) for card in DECK]
        # Trump-figure and super-trump cards (strong whatever was led), strongest first.
        base = [strength(card, None, trump, supertrump) for card in DECK]
        self.masters = sorted(
            (c for c in range(_CARDS) if base[c] >= TRUMP_STRENGTH), key=lambda c: -base[c]
        )


_TABLES: dict = {}


def _table(trump: str | None, supertrump: int | None) -> _Table:
    table = _TABLES.get((trump, supertrump))
    if table is None:
        table = _TABLES[(trump, supertrump)] = _Table(trump, supertrump)
    return table


def _playout(hands, masters, table, players, open_seats, trick, turn, won, first=-1):
    """Play the hand out with the `heuristic` policy for every seat; `won` ends up per seat.

    See `_play_on`, which does the work.
    """
    _play_on(hands, masters, table, players, open_seats, trick, turn, won, first)
    return won


def _play_on(hands, masters, table, players, open_seats, trick, turn, won, first=-1, stop=0):
    """Play on with the `heuristic` policy for every seat until a trick is to be led with
    `stop` cards or fewer in each hand (0: the end of the hand); returns the seat to lead
    then, `won` (per seat) counting the tricks taken meanwhile.

    `hands` (sorted int lists) and `masters` (the table's masters still unplayed) are
    consumed. `trick` is the trick in progress as (seat, card) pairs; `turn` plays next,
    `first` if given (the card under test), then the policy decides. Same choices as
    `heuristic` given the same cards: it leads its strongest trump or super-trump when no
    card it cannot see beats it (open hands are seen), else its lowest keep value; it
    follows by not overtaking a winning partner, else winning as cheaply as it can, else
    discarding its lowest keep value.
    """
    strength = table.strength
    follows = table.follows
    master = TRUMP_STRENGTH
    own = strength[_OWN]
    keep = table.keep.__getitem__
    fig = _FIG
    four = players == 4
    led, best, best_seat = -1, -1, trick[0][0] if trick else turn
    for seat, card in trick:
        if led < 0:
            led = fig[card]
        value = strength[led][card] if led >= 0 else -1
        if value > best:
            best, best_seat = value, seat
    count = len(trick)
    while True:
        hand = hands[turn]
        if first >= 0:
            card, first = first, -1
            if count == 0:
                led, best, best_seat = fig[card], own[card], turn
        elif count == 0:
            if len(hand) <= stop:
                return turn
            card = hand[0]
            power = own[card]
            for c in hand:
                if own[c] > power:
                    card, power = c, own[c]
            if power >= master:
                for m in masters:
                    if m in hand or (open_seats and any(m in hands[s] for s in open_seats)):
                        continue
                    if own[m] > power:
                        power = 0
                    break
            if power < master:
                card = min(hand, key=keep)
            led, best, best_seat = fig[card], own[card], turn
        else:
            if led >= 0:
                cards = [c for c in hand if c in follows[led]] or hand
                row = strength[led]
            else:
                cards, row = hand, own
            card = -1
            if not (four and best_seat == (turn + 2) % 4):
                top = 999
                for c in cards:
                    value = row[c]
                    if best < value < top:
                        card, top = c, value
            if card < 0:
                card = min(cards, key=keep)
        if count:
            if led < 0:
                led = fig[card]
            value = strength[led][card] if led >= 0 else -1
            if value > best:
                best, best_seat = value, turn
        hand.remove(card)
        if own[card] >= master:
            masters.remove(card)
        count += 1
        if count == players:
            won[best_seat] += 1
            turn, count, led, best = best_seat, 0, -1, -1
        else:
            turn = (turn + 1) % players


def _deal(pool, sizes, voids, rng):
    """Share `pool` (int cards) into piles of `sizes`; pile i takes no figure in `voids[i]`.

    Cards of figures someone is void in go first, the most constrained first, each to a
    pile that may hold it chosen with odds proportional to its room left; the others then
    fill the room in shuffled order. None if the voids cannot be met this way.
    """
    cards = pool.copy()
    rng.shuffle(cards)
    piles = [[] for _ in sizes]
    barred = set().union(*voids)
    if barred:
        room = list(sizes)
        ways = {
            figure: [i for i, void in enumerate(voids) if figure not in void] for figure in barred
        }
        constrained = [c for c in cards if _FIG[c] in barred]
        constrained.sort(key=lambda c: len(ways[_FIG[c]]))
        for c in constrained:
            open_piles = [i for i in ways[_FIG[c]] if room[i]]
            if not open_piles:
                return None
            pick = rng.randrange(sum(room[i] for i in open_piles))
            for i in open_piles:
                pick -= room[i]
                if pick < 0:
                    break
            piles[i].append(c)
            room[i] -= 1
        cards = [c for c in cards if _FIG[c] not in barred]
    else:
        room = sizes
    start = 0
    for pile, size in zip(piles, room, strict=True):
        pile.extend(cards[start : start + size])
        start += size
    return piles


_ESTIMATORS: dict = {}


def _estimator(trump: str | None, supertrump: int | None) -> tuple[list[float], list[int]]:
    """`_estimate` over int cards: each card's value and whether it counts as a trump."""
    key = (trump, supertrump)
    if key not in _ESTIMATORS:
        side = _SIDE_VALUE if trump is not None else _PLAIN_VALUE
        values, trumps = [0.0] * _CARDS, [0] * _CARDS
        for c, card in enumerate(DECK):
            figure, number = FIGURE[card], NUMBER[card]
            if figure is None:
                continue
            if number == supertrump:
                values[c] = 1.0 if figure == trump else _SUPER_VALUE[FIGURE_RANK[figure]]
            elif figure == trump:
                values[c] = _TRUMP_VALUE.get(number, 0.2)
                trumps[c] = 1
            else:
                values[c] = side.get(number, 0.0)
        _ESTIMATORS[key] = (values, trumps)
    return _ESTIMATORS[key]


class _Deals:
    """Deals of the cards a seat cannot see, consistent with its view."""

    def __init__(self, view: dict):
        me, players = view["seat"], view["players"]
        seen = [False] * _CARDS
        self.hands = [None] * players
        self.hands[me] = mine = sorted(_INDEX[card] for card in view["hand"])
        for c in mine:
            seen[c] = True
        for seat, shown in enumerate(view.get("open_hands") or ()):
            if shown is not None and seat != me:
                self.hands[seat] = sorted(_INDEX[card] for card in shown)
                for c in self.hands[seat]:
                    seen[c] = True
        voids = [set() for _ in range(players)]
        tricks = [done["cards"] for done in view.get("played_tricks") or ()]
        tricks.append(view.get("trick") or [])
        for cards in tricks:
            for i, play in enumerate(cards):
                seen[_INDEX[play["card"]]] = True
                led = led_figure(cards[:i])
                if led is not None and FIGURE[play["card"]] != led:
                    # D-FOLLOW: it had no card of the led figure
                    voids[play["seat"]].add(_FIGURE_INDEX[led])
        self.pool = [c for c in range(_CARDS) if not seen[c]]
        self.seats = [s for s in range(players) if self.hands[s] is None]
        sizes = [view["hand_sizes"][s] for s in self.seats]
        # The undealt pile takes the rest (hidden_count, unless the view is inconsistent).
        sizes.append(len(self.pool) - sum(sizes))
        self.sizes = sizes
        self.voids = [voids[s] for s in self.seats] + [set()]
        self.valid = sizes[-1] >= 0
        # D-AUCTION: a seat's highest bid says its hand (as dealt) was worth that many tricks
        # with its trump and super-trump, as far as `_estimate` can tell.
        played = [[] for _ in range(players)]
        for cards in tricks:
            for play in cards:
                played[play["seat"]].append(_INDEX[play["card"]])
        claims = {}
        for entry in view.get("auction") or ():
            if not entry.get("pass") and entry["seat"] in self.seats:
                claims[entry["seat"]] = entry
        self.claims = [
            (
                self.seats.index(seat),
                played[seat],
                _estimator(entry["trump"], entry["supertrump"]),
                entry["tricks"] - 0.25 - (_PARTNER_TRICKS if players == 4 else 0.0),
            )
            for seat, entry in claims.items()
        ]

    def _shortfall(self, piles) -> float:
        """How far the deal's bidders' hands fall short of their bids (0: all consistent)."""
        short = 0.0
        for index, played, (values, trumps), need in self.claims:
            total = count = 0
            for c in piles[index]:
                total += values[c]
                count += trumps[c]
            for c in played:
                total += values[c]
                count += trumps[c]
            if count > 3:
                total += 0.3 * (count - 3)
            if total < need:
                short += need - total
        return short

    def _piles(self, rng):
        for _ in range(20):
            piles = _deal(self.pool, self.sizes, self.voids, rng)
            if piles is not None:
                return piles
        # Voids that cannot all hold (an inconsistent, hand-built view): ignore them.
        return _deal(self.pool, self.sizes, [set()] * len(self.sizes), rng)

    def sample(self, rng, tries: int = 1) -> list[list[int]]:
        """Every seat's hand (fresh sorted lists), the unseen cards dealt at random.

        With `tries` > 1, the first of that many deals whose bidders' hands fit their bids,
        else the one that comes closest.
        """
        piles = self._piles(rng)
        if self.claims and tries > 1:
            short = self._shortfall(piles)
            for _ in range(tries - 1):
                if not short:
                    break
                other = self._piles(rng)
                other_short = self._shortfall(other)
                if other_short < short:
                    piles, short = other, other_short
        hands = [None if hand is None else hand.copy() for hand in self.hands]
        for seat, pile in zip(self.seats, piles, strict=False):
            pile.sort()
            hands[seat] = pile
        return hands


class CardChoice(NamedTuple):
    """What a card decision by simulation reads of a seat's view (`strong`, and the hard
    search of games.triumfdrez.search): the contract's card table, the deals that fit the
    view, the declaring side, the seat's utility by the side's tricks, the open hands' seats,
    the trick so far as (seat, card), the masters still out, and the legal cards."""

    table: object
    knowledge: _Deals
    side: list[int]
    utility: list[float]
    open_seats: list[int]
    trick: list[tuple[int, int]]
    masters: list[int]
    cards: list[int]


def card_choice(view: dict, legal: list[dict]) -> CardChoice | None:
    """The `CardChoice` of a seat about to play; None where no deal fits its view."""
    contract = view["contract"]
    knowledge = _Deals(view)
    if not knowledge.valid:
        return None
    table = _table(contract["trump"], contract["supertrump"])
    teams = view["teams"]
    trick = [(play["seat"], _INDEX[play["card"]]) for play in view["trick"]]
    gone = {c for _, c in trick}
    for done in view.get("played_tricks") or ():
        gone.update(_INDEX[play["card"]] for play in done["cards"])
    return CardChoice(
        table,
        knowledge,
        teams[team_of(teams, contract["seat"])],
        _utilities(view, contract),
        [s for s, shown in enumerate(view.get("open_hands") or ()) if shown is not None],
        trick,
        [c for c in table.masters if c not in gone],
        [_INDEX[action["card"]] for action in legal],
    )


def _utilities(view: dict, contract: dict) -> list[float]:
    """By tricks of the declaring side (0-13): the seat's team points minus the others' mean."""
    teams = view["teams"]
    declaring = team_of(teams, contract["seat"])
    mine = team_of(teams, view["seat"])
    others = len(teams) - 1
    values = []
    for won in range(TRICKS_MAX + 1):
        points = hand_points(len(teams), declaring, contract["tricks"], won)
        values.append(points[mine] - (sum(points) - points[mine]) / others)
    return values


def _strong_play(view, legal, rng, work, deals, tries):
    """The legal card with the best mean simulated result (see `strong`)."""
    if len(legal) == 1:
        return legal[0]
    choice = card_choice(view, legal)
    if choice is None:
        return heuristic(view, legal, rng)
    table, knowledge, side, utility, open_seats, trick, masters, cards = choice
    players, me = view["players"], view["seat"]
    low, high = deals
    count = max(low, min(high, work // (len(cards) * max(1, sum(view["hand_sizes"])))))
    totals = [0.0] * len(cards)
    for _ in range(count):
        hands = knowledge.sample(rng, tries)
        for i, card in enumerate(cards):
            won = _playout(
                [hand.copy() for hand in hands],
                masters.copy(),
                table,
                players,
                open_seats,
                trick,
                me,
                list(view["tricks_won"]),
                card,
            )
            totals[i] += utility[sum(won[s] for s in side)]
    best = max(range(len(cards)), key=totals.__getitem__)
    return legal[best]


def _side_result(samples, view, contract) -> float:
    """The seat's mean utility (see `_utilities`) if `contract` is played in `samples`."""
    players, teams = view["players"], view["teams"]
    table = _table(contract["trump"], contract["supertrump"])
    side = teams[team_of(teams, contract["seat"])]
    open_seats = side if contract["open"] else ()
    utility = _utilities(view, contract)
    value = 0.0
    for hands in samples:
        won = _playout(
            [hand.copy() for hand in hands],
            table.masters.copy(),
            table,
            players,
            open_seats,
            (),
            contract["seat"],
            [0] * players,
        )
        value += utility[sum(won[s] for s in side)]
    return value / len(samples)


_COMBOS = tuple(
    (trump, supertrump) for trump in (*FIGURES, None) for supertrump in (*range(1, 10), None)
)


def _strong_bid(view, legal, rng, deals, combos, tries, margin):
    """The bid worth most in simulation if it beats letting the standing bid play, else pass.

    Candidates: the lowest legal bid (not open) with each of the `combos` trump /
    super-trump combinations that `_estimate` rates best for the hand. Each is played out
    from the same `deals` sampled deals, fitted to the bids made so far, with the seat as
    declarer; so is the standing bid. At 4 players it never outbids its partner.
    """
    seat, players = view["seat"], view["players"]
    pass_action = next((action for action in legal if action["type"] == "pass"), None)
    top = current_bid(view["auction"])
    if pass_action is not None and players == 4 and top["seat"] == (seat + 2) % 4:
        return pass_action
    hand = view["hand"]
    ranked = sorted(_COMBOS, key=lambda combo: -_estimate(hand, *combo, players))[:combos]
    legal_bids = {
        (a["tricks"], a["trump"], a["supertrump"]): a
        for a in legal
        if a["type"] == "bid" and not a["open"]
    }
    knowledge = _Deals(view)
    samples = [knowledge.sample(rng, tries) for _ in range(deals)]
    fewest = lowest_beating(top)  # per shape of bid (D-AUCTION's order of bids)
    best, best_value = None, 0.0
    for trump, supertrump in ranked:
        tricks = fewest[(trump is None) * 2 + (supertrump is None)]  # not open
        action = legal_bids.get((tricks, trump, supertrump))
        if action is not None:
            value = _side_result(samples, view, {**action, "seat": seat})
            if best is None or value > best_value:
                best, best_value = action, value
    if pass_action is None:  # the first bidder must bid
        return best or _bid(view, legal)
    if best is None or best_value < _side_result(samples, view, top) + margin:
        return pass_action
    return best


def strong(
    view: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    play_work: int = PLAY_WORK,
    play_deals: tuple[int, int] = PLAY_DEALS,
    play_tries: int = PLAY_TRIES,
    bid_deals: int = BID_DEALS,
    bid_combos: int = BID_COMBOS,
    bid_tries: int = BID_TRIES,
    bid_margin: float = BID_MARGIN,
) -> dict:
    """Determinized simulation from the seat's view (and `legal`) only.

    Deals: the cards the seat cannot see (the deck minus its hand, the cards played this
    hand and any open hands, D-OPEN) are dealt at random to the other hands, at their
    sizes, and to the undealt pile; a seat that did not follow a led figure gets no card
    of that figure (D-FOLLOW). In the auction, and in play with `play_tries` > 1, the
    deal out of a few whose bidders' hands best justify their bids is kept.

    Play: every legal card is tried on the same `play_deals` deals (as many as
    `play_work` simulated card plays allow), the hand played out after it with the
    `heuristic` policy for all seats, partners included; the card with the best mean
    result wins: the team's D-SCORE points minus the opponents' mean, so that making or
    breaking the contract counts, and every trick over or under it.

    Auction: the lowest legal bid with each of its `bid_combos` best trump / super-trump
    combinations is played out on `bid_deals` deals with the seat as declarer; it bids
    the one worth most if that beats (by `bid_margin`) the standing bid played out on the
    same deals, else passes, so it raises up to the highest contract its simulations make
    often enough to be worth it. The first bidder must bid: the best combination at one
    trick. At 4 players it never outbids its partner.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    phase = view["phase"]
    if phase == "play":
        return _strong_play(view, legal, rng, play_work, play_deals, play_tries)
    if phase == "auction":
        return _strong_bid(view, legal, rng, bid_deals, bid_combos, bid_tries, bid_margin)
    return legal[0]


LEVELS = {"random": random_legal, "heuristic": heuristic, "strong": strong}
