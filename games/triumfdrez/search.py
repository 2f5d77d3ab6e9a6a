"""The hard TriumfDrez player: sampled deals, each solved exactly near its end.

`hard(view, legal, rng)` decides from its seat's `engine.view(state, seat)` and the legal
actions only, like the levels of `bots.py`, and is built the way bridge programs (GIB,
Kermit, lorserker's ben) are: it deals the cards it cannot see many times, consistently
with what it has seen (its hand, the cards played, open hands, D-FOLLOW voids), keeps
of a few deals the one whose bidders' hands best fit their bids, and judges every legal
card over those deals. Each deal is played on with the `heuristic` policy until few cards
are left, then solved exactly: an alpha-beta search over the open hands, the declaring
side against the rest, with a transposition table at trick starts. Bids are judged the
same way, on sampled deals played out by the `heuristic` policy.

The rules come from the engine: the strengths (tricks.strength), following
(tricks.playable) and the points of a hand (scoring.hand_points) through the tables and
helpers of `bots.py`. It is not one of `bots.LEVELS`: it thinks for up to a second.
"""

import random

from .bots import (
    _COMBOS,
    _FIG,
    _OWN,
    _bid,
    _Deals,
    _estimate,
    _play_on,
    _side_result,
    card_choice,
    heuristic,
)
from .engine import current_bid, lowest_beating

# Defaults; each can be passed to `hard` as a keyword (tests pass small ones).
PLAY_WORK = 200_000  # search nodes and simulated card plays per card decision
PLAY_DEALS = (16, 200)  # fewest and most deals sampled per card decision
EXACT_CARDS = {2: 7, 3: 5, 4: 4}  # cards per hand from which a deal is solved exactly
BID_DEALS = 48  # deals sampled in the auction
BID_COMBOS = 8  # trump / super-trump combinations judged per bid
BID_OPEN = False  # whether open bids (D-OPEN) are among the candidates
FIT_TRIES = 12  # deals drawn per kept deal: the one that best fits the bids is kept


class _Solver:
    """Exact play of open hands: the most tricks the declaring side takes from a position.

    Alpha-beta, the declaring side maximizing and every other seat minimizing (in a
    3-player hand both opponents play together), with a transposition table keyed by the
    hands and the leader at each trick start. A player's utility (`bots._utilities`) only
    grows or only falls with the declaring side's tricks, so the trick count is enough.
    """

    def __init__(self, table, players: int, side) -> None:
        self.strength = table.strength
        self.own = table.strength[_OWN]
        self.follows = table.follows
        self.players = players
        self.declaring = [seat in side for seat in range(players)]
        self.table: dict = {}
        self.nodes = 0

    def after(self, hands, masks, turn, led, best, best_seat, count, card, alpha, beta) -> int:
        """Declaring-side tricks from the current one on, once `turn` plays `card`."""
        self.nodes += 1
        hand = hands[turn]
        index = hand.index(card)
        del hand[index]
        masks[turn] ^= 1 << card
        if count == 0:
            led, best, best_seat = _FIG[card], self.own[card], turn
        else:
            if led < 0:
                led = _FIG[card]
            value = self.strength[led][card] if led >= 0 else -1
            if value > best:
                best, best_seat = value, turn
        if count + 1 == self.players:
            won = self.declaring[best_seat]
            result = won + self.lead(hands, masks, best_seat, alpha - won, beta - won)
        else:
            result = self.follow(
                hands,
                masks,
                (turn + 1) % self.players,
                led,
                best,
                best_seat,
                count + 1,
                alpha,
                beta,
            )
        hand.insert(index, card)
        masks[turn] ^= 1 << card
        return result

    def lead(self, hands, masks, turn, alpha, beta) -> int:
        """Declaring-side tricks from a trick start where `turn` leads."""
        hand = hands[turn]
        if not hand:
            return 0
        key = (turn, *masks)
        bounds = self.table.get(key)
        low, high = bounds if bounds else (0, len(hand))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        a, b = max(alpha, low), min(beta, high)
        moves = sorted(hand, key=self.own.__getitem__, reverse=True)
        value = self._search(hands, masks, turn, -1, -1, turn, 0, moves, a, b)
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def follow(self, hands, masks, turn, led, best, best_seat, count, alpha, beta) -> int:
        hand = hands[turn]
        if led >= 0:
            follows = self.follows[led]
            moves = [card for card in hand if card in follows] or hand
            row = self.strength[led]
        else:
            moves, row = hand, self.own
        moves = sorted(moves, key=row.__getitem__, reverse=True)
        return self._search(hands, masks, turn, led, best, best_seat, count, moves, alpha, beta)

    def _search(self, hands, masks, turn, led, best, best_seat, count, moves, alpha, beta) -> int:
        if self.declaring[turn]:
            value = -1
            for card in moves:
                score = self.after(
                    hands, masks, turn, led, best, best_seat, count, card, alpha, beta
                )
                if score > value:
                    value = score
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return value
        value = 99
        for card in moves:
            score = self.after(hands, masks, turn, led, best, best_seat, count, card, alpha, beta)
            if score < value:
                value = score
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return value


def _trick_state(trick, strength, own):
    """(led, best, best_seat, count) of the trick in progress, (seat, card) pairs."""
    led, best, best_seat = -1, -1, trick[0][0] if trick else -1
    for seat, card in trick:
        if led < 0:
            led = _FIG[card]
        value = strength[led][card] if led >= 0 else -1
        if value > best:
            best, best_seat = value, seat
    return led, best, best_seat, len(trick)


def _play_totals(view, legal, rng, work, deals, exact, tries):
    """(summed utility of each legal card, deals) over the same sampled deals (see `hard`);
    None where no deal fits the view."""
    choice = card_choice(view, legal)
    if choice is None:
        return None
    table, knowledge, side, utility, open_seats, trick, masters, cards = choice
    players, me = view["players"], view["seat"]
    before = sum(view["tricks_won"][s] for s in side)
    stop = exact.get(players, 4) if isinstance(exact, dict) else exact
    in_hand = len(view["hand"])
    solver = _Solver(table, players, side)
    low, high = deals
    totals = [0.0] * len(cards)
    done = 0
    while done < high and (done < low or solver.nodes < work):
        hands = knowledge.sample(rng, tries)
        solver.table = {}
        if in_hand <= stop:
            masks = [sum(1 << c for c in hand) for hand in hands]
            state = _trick_state(trick, table.strength, table.strength[_OWN])
            for i, card in enumerate(cards):
                taken = solver.after(hands, masks, me, *state, card, -1, 99)
                totals[i] += utility[before + taken]
        else:
            for i, card in enumerate(cards):
                sample = [hand.copy() for hand in hands]
                won = [0] * players
                leader = _play_on(
                    sample, masters.copy(), table, players, open_seats, trick, me, won, card, stop
                )
                solver.nodes += (in_hand - stop) * players
                masks = [sum(1 << c for c in hand) for hand in sample]
                taken = sum(won[s] for s in side) + solver.lead(sample, masks, leader, -1, 99)
                totals[i] += utility[before + taken]
        done += 1
    return totals, done


def _hard_play(view, legal, rng, work, deals, exact, tries):
    """The legal card with the best weighted mean result over sampled deals (see `hard`)."""
    if len(legal) == 1:
        return legal[0]
    judged = _play_totals(view, legal, rng, work, deals, exact, tries)
    if judged is None:
        return heuristic(view, legal, rng)
    totals, _done = judged
    best = max(range(len(legal)), key=totals.__getitem__)
    return legal[best]


def _bid_samples(view, rng, deals, tries):
    """The deals bids are judged on: sampled as `hard` samples them."""
    knowledge = _Deals(view)
    return [knowledge.sample(rng, tries) for _ in range(deals)]


def _bid_value(samples, view, action) -> float:
    """The seat's mean utility over `samples` if it makes `action`: a bid is played out
    with the seat as declarer, a pass lets the standing bid be played out."""
    if action["type"] == "bid":
        return _side_result(samples, view, {**action, "seat": view["seat"]})
    top = current_bid(view["auction"])
    return _side_result(samples, view, top) if top else 0.0


def _bid_candidates(view, legal, combos):
    """The closed bids `hard` weighs: the lowest legal one with each of the `combos`
    trump / super-trump combinations `_estimate` rates best (and open ones with BID_OPEN)."""
    ranked = sorted(_COMBOS, key=lambda combo: -_estimate(view["hand"], *combo, view["players"]))
    legal_bids = {
        (a["tricks"], a["trump"], a["supertrump"], a["open"]): a
        for a in legal
        if a["type"] == "bid"
    }
    fewest = lowest_beating(current_bid(view["auction"]))  # per shape (D-AUCTION's order)
    chosen = []
    for trump, supertrump in ranked[:combos]:
        for shown in (False, True) if BID_OPEN else (False,):
            tricks = fewest[shown * 4 + (trump is None) * 2 + (supertrump is None)]
            action = legal_bids.get((tricks, trump, supertrump, shown))
            if action is not None:
                chosen.append(action)
    return chosen


def _hard_bid(view, legal, rng, deals, combos, tries):
    """The bid worth most over sampled deals if it beats the standing bid, else pass.

    Candidates (`_bid_candidates`): for each of the `combos` trump / super-trump
    combinations `_estimate` rates best for the hand, the lowest legal bid, closed (and
    open with BID_OPEN; the playouts do not count what showing the hand costs, D-OPEN).
    At 4 players it never outbids its partner.
    """
    seat, players = view["seat"], view["players"]
    pass_action = next((action for action in legal if action["type"] == "pass"), None)
    top = current_bid(view["auction"])
    if pass_action is not None and players == 4 and top["seat"] == (seat + 2) % 4:
        return pass_action
    candidates = _bid_candidates(view, legal, combos)
    samples = _bid_samples(view, rng, deals, tries)
    best, best_value = None, 0.0
    for action in candidates:
        value = _bid_value(samples, view, action)
        if best is None or value > best_value:
            best, best_value = action, value
    if pass_action is None:  # the first bidder must bid
        return best or _bid(view, legal)
    if best is None or best_value <= _bid_value(samples, view, pass_action):
        return pass_action
    return best


def hard(
    view: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    play_work: int = PLAY_WORK,
    play_deals: tuple[int, int] = PLAY_DEALS,
    exact_cards: dict | int = EXACT_CARDS,
    bid_deals: int = BID_DEALS,
    bid_combos: int = BID_COMBOS,
    fit_tries: int = FIT_TRIES,
) -> dict:
    """Sampled deals, each solved exactly near its end, from the seat's view only.

    Deals: as `bots.strong` deals them (its hand, the cards played, open hands and
    D-FOLLOW voids respected); of `fit_tries` deals the one whose bidders' hands fall
    least short of their bids (`bots._Deals.sample`) is kept. (Keeping deals with odds
    falling with the shortfall instead, a softer fit, made it overbid.)

    Play: every legal card is tried on the same deals, between `play_deals` of them as
    `play_work` (search nodes and simulated plays) allows; after it the deal is played on
    by the `heuristic` policy until each hand holds `exact_cards` cards (per number of
    players), then solved exactly by `_Solver`; the card with the best mean utility (the
    team's D-SCORE points minus the opponents' mean) is played.

    Auction: the lowest legal closed bid with each of its `bid_combos` best
    trump / super-trump combinations is played out on `bid_deals` deals with the seat as
    declarer; it bids the best if that beats the standing bid played out on the same
    deals, else passes. The first bidder must bid. At 4 players it never outbids its
    partner.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    phase = view["phase"]
    if phase == "play":
        return _hard_play(view, legal, rng, play_work, play_deals, exact_cards, fit_tries)
    if phase == "auction":
        return _hard_bid(view, legal, rng, bid_deals, bid_combos, fit_tries)
    return legal[0]


# The review after a game (games.review) judges a seat's decisions with smaller budgets
# than a table's hard player: a match holds hundreds of them.
REVIEW = {"play_work": 100_000, "play_deals": (16, 120), "bid_deals": 48, "bid_combos": 8}


def values(
    view: dict,
    legal: list[dict],
    rng: random.Random,
    *,
    play_work: int = PLAY_WORK,
    play_deals: tuple[int, int] = PLAY_DEALS,
    exact_cards: dict | int = EXACT_CARDS,
    bid_deals: int = BID_DEALS,
    fit_tries: int = FIT_TRIES,
    **_unused,
) -> list[float]:
    """What each of `legal` (actions the seat may take now) is worth to the seat, as `hard`
    weighs them: its side's mean D-SCORE points per hand less the opponents' mean, on the
    same sampled deals for every action (common random numbers), so that differences
    between actions are not the luck of the deals. In play, with the same `rng`, the card
    `hard` plays is the first of the highest values.
    """
    if not legal:
        raise ValueError("no legal action: the game is over")
    phase = view["phase"]
    if phase == "play":
        judged = _play_totals(view, legal, rng, play_work, play_deals, exact_cards, fit_tries)
        if judged is None:
            return [0.0] * len(legal)
        totals, done = judged
        return [total / done for total in totals]
    if phase == "auction":
        samples = _bid_samples(view, rng, bid_deals, fit_tries)
        return [_bid_value(samples, view, action) for action in legal]
    return [0.0] * len(legal)


def judge(view: dict, legal: list[dict], played: dict, rng: random.Random, **budget):
    """The review of one decision: [(action, value)] for the action `played` and the
    alternatives `hard` weighs (every legal card; in the auction its candidate bids and a
    pass), valued by `values` on the same deals. Budget keywords as `hard`'s."""
    if view["phase"] == "auction":
        combos = budget.get("bid_combos", BID_COMBOS)
        candidates = _bid_candidates(view, legal, combos)
        candidates += [action for action in legal if action["type"] == "pass"]
        if played not in candidates:
            candidates.append(played)
    else:
        candidates = list(legal)
    return list(zip(candidates, values(view, candidates, rng, **budget), strict=True))
