"""TriumfDrez engine: the contract surface (see the spec's engines.md).

Rules: D-PLAYERS, D-DEAL (new hands), D-AUCTION (auction.py), D-PLAY / D-FOLLOW /
D-RANK / D-NEUTRAL (tricks.py), D-OPEN (view), D-SCORE / D-MATCH (scoring.py).

States are plain JSON. `apply` builds the next state by shallow-copying the dict and
copying only the lists it changes, so states share unchanged lists: never mutate a state
in place. Besides the contract keys the state keeps, all public and purely informative:
- `last_trick`: the latest finished trick of this hand, `{"leader", "cards", "winner"}`
  with `cards` like `trick`; None before the first trick is won;
- `played_tricks`: every finished trick of this hand, in order, shaped like `last_trick`;
- `last_result`: the latest hand's result, None before the first: `{"hand_no", "dealer",
  "contract", "declaring_team", "tricks_taken"` (by the declaring side), `"made"`,
  `"points"` (per team, this hand), `"scores"` (per team, after it)`}`;
- `history`: every hand result of the match, in order.
The game logic reads only the contract keys, so positions built by editing those keys
play correctly.

Details the contract leaves open: `hand_no` counts from 1; `leader` is None during the
auction; in phase "hand_over" `turn` is the next dealer (any seat may send `next_hand`);
in phase "match_over" `turn` is None. Unknown `config` keys are ignored.
"""

from . import auction as auction_rules
from . import tricks as trick_rules
from .auction import MAX_TRICKS, current_bid, entry_level, lowest_beating
from .cards import (
    COLOURS,
    DECK,
    FIGURE,
    FIGURE_RANK,
    FIGURES,
    NEUTRALS,
    NUMBER,
    SORT_KEY,
    deal,
    first_dealer,
)
from .errors import CODES, IllegalAction
from .scoring import (
    DEFAULT_TARGET,
    TARGET_MAX,
    TARGET_MIN,
    TRICKS_MAX,
    contract_made,
    hand_points,
    hand_value,
    match_winner,
    team_of,
    teams_for,
)
from .tricks import TRUMP, led_figure, playable, strength, winning_play

# A bid names from BID_MIN to BID_MAX tricks (D-AUCTION); a side takes from 0 to
# TRICKS_MAX in a hand (scoring.py).
BID_MIN, BID_MAX = 1, MAX_TRICKS
# The lowest strength (`strength`) of a trump-figure card: a card at least this strong
# wins whatever figure was led (D-RANK).
TRUMP_STRENGTH = TRUMP

__all__ = [
    "BID_MAX",
    "BID_MIN",
    "CODES",
    "COLOURS",
    "DECK",
    "DEFAULT_TARGET",
    "FIGURE",
    "FIGURE_RANK",
    "FIGURES",
    "MAX_TRICKS",
    "NEUTRALS",
    "NUMBER",
    "TARGET_MAX",
    "TARGET_MIN",
    "TRICKS_MAX",
    "TRUMP_STRENGTH",
    "IllegalAction",
    "apply",
    "contract_made",
    "current_bid",
    "entry_level",
    "hand_points",
    "hand_value",
    "is_over",
    "led_figure",
    "legal_actions",
    "lowest_beating",
    "new_game",
    "playable",
    "strength",
    "team_of",
    "to_act",
    "view",
    "winning_play",
]

_CARDS = frozenset(DECK)
_TRUMPS = frozenset(FIGURES)
_KEYS = {
    "bid": frozenset({"type", "tricks", "trump", "supertrump", "open"}),
    "pass": frozenset({"type"}),
    "play": frozenset({"type", "card"}),
    "next_hand": frozenset({"type"}),
}
_PHASE_OF = {"bid": "auction", "pass": "auction", "play": "play", "next_hand": "hand_over"}
# Keys every seat may see as they are (D-DEAL: hands and hidden cards are not among them).
_PUBLIC = (
    "game",
    "players",
    "target",
    "teams",
    "dealer",
    "turn",
    "hand_no",
    "phase",
    "auction",
    "contract",
    "trick",
    "leader",
    "tricks_won",
    "scores",
    "winner",
    "last_trick",
    "played_tricks",
    "last_result",
    "history",
)


def _is_int(value) -> bool:
    return type(value) is int  # bools are not ints here


def _hand_keys(state: dict, dealer: int, hand_no: int) -> None:
    """Deal hand `hand_no` into `state` (D-DEAL): the seat after the dealer bids first."""
    players = state["players"]
    hands, hidden = deal(state["seed"], hand_no, players)
    state.update(
        dealer=dealer,
        turn=(dealer + 1) % players,
        hand_no=hand_no,
        phase="auction",
        hands=hands,
        hidden=hidden,
        auction=[],
        contract=None,
        trick=[],
        leader=None,
        tricks_won=[0] * players,
        last_trick=None,
        played_tricks=[],
    )


def new_game(config: dict, seed: int) -> dict:
    """A fresh match. `config`: `players` (2-4), optional `target` (default 50)."""
    if type(config) is not dict or not _is_int(seed):
        raise IllegalAction("bad_config")
    players = config.get("players")
    target = config.get("target", DEFAULT_TARGET)
    if not _is_int(players) or not 2 <= players <= 4 or not _is_int(target) or target < 1:
        raise IllegalAction("bad_config")
    teams = teams_for(players)
    state = {
        "game": "triumfdrez",
        "players": players,
        "seed": seed,
        "target": target,
        "teams": teams,
        "scores": [0] * len(teams),
        "winner": None,
        "last_result": None,
        "history": [],
    }
    _hand_keys(state, first_dealer(seed, players), 1)
    return state


def is_over(state: dict) -> bool:
    """D-MATCH: a side has won the match."""
    return state["phase"] == "match_over"


def to_act(state: dict) -> list[int]:
    """The seat to bid or play; every seat once a hand is over (any may deal the next);
    [] once the match is over."""
    phase = state["phase"]
    if phase == "match_over":
        return []
    if phase == "hand_over":
        return list(range(state["players"]))
    return [state["turn"]]


def legal_actions(state: dict) -> list[dict]:
    """The legal actions of the seat to act; [] once the match is over.

    Auction: `{"type": "pass"}` first (when passing is allowed), then every bid that beats
    the current one, lowest first in the order of bids. Play: the playable cards.
    Hand over: `{"type": "next_hand"}` (any seat may send it).
    """
    phase = state["phase"]
    if phase == "play":
        cards = trick_rules.playable(state["hands"][state["turn"]], state["trick"])
        return [{"type": "play", "card": card} for card in cards]
    if phase == "auction":
        top = auction_rules.current_bid(state["auction"])
        bids = auction_rules.bids_above(top)
        return bids if top is None else [{"type": "pass"}, *bids]
    if phase == "hand_over":
        return [{"type": "next_hand"}]
    return []


def _check_fields(kind: str, action: dict) -> None:
    """Raise IllegalAction unless the action has exactly its fields, with valid values."""
    if action.keys() != _KEYS[kind]:
        raise IllegalAction("bad_action")
    if kind == "bid":
        auction_rules.check_bid(action)


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after `seat` does `action`; raises IllegalAction and changes nothing if illegal.

    Checks, in this order: the match is not over, the seat exists, the action is well
    formed with valid field values, the phase allows it, it is the seat's turn (except
    `next_hand`), then the rules of the auction or of the play.
    """
    phase = state["phase"]
    if phase == "match_over":
        raise IllegalAction("game_over")
    if type(seat) is not int or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat")
    if type(action) is not dict:
        raise IllegalAction("bad_action")
    kind = action.get("type")
    if kind == "play":  # the hot path, checked inline
        if len(action) != 2 or "card" not in action:
            raise IllegalAction("bad_action")
        card = action["card"]
        if type(card) is not str or card not in _CARDS:
            raise IllegalAction("unknown_card")
        if phase != "play":
            raise IllegalAction("wrong_phase")
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn")
        return _play(state, seat, card)
    if type(kind) is not str or kind not in _KEYS:
        raise IllegalAction("bad_action")
    _check_fields(kind, action)
    if _PHASE_OF[kind] != phase:
        raise IllegalAction("wrong_phase")
    if kind == "next_hand":
        return _next_hand(state)
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn")
    if kind == "bid":
        return _bid(state, seat, action)
    return _pass(state, seat)


def _bid(state: dict, seat: int, action: dict) -> dict:
    top = auction_rules.current_bid(state["auction"])
    entry = {
        "seat": seat,
        "tricks": action["tricks"],
        "trump": action["trump"],
        "supertrump": action["supertrump"],
        "open": action["open"],
    }
    auction_rules.check_beats(top, entry)
    new = state.copy()
    new["auction"] = [*state["auction"], entry]
    new["turn"] = (seat + 1) % state["players"]
    return new


def _pass(state: dict, seat: int) -> dict:
    top = auction_rules.current_bid(state["auction"])
    if top is None:
        raise IllegalAction("must_bid")
    new = state.copy()
    new["auction"] = entries = [*state["auction"], {"seat": seat, "pass": True}]
    if not auction_rules.is_over(entries, state["players"]):
        new["turn"] = (seat + 1) % state["players"]
        return new
    # The last bidder is the declarer and leads the first trick (D-AUCTION, D-PLAY).
    declarer = top["seat"]
    new["contract"] = {
        "seat": declarer,
        "tricks": top["tricks"],
        "trump": top["trump"],
        "supertrump": top["supertrump"],
        "open": top["open"],
    }
    new["phase"] = "play"
    new["turn"] = new["leader"] = declarer
    new["trick"] = []
    return new


def _play(state: dict, seat: int, card: str) -> dict:
    hand = state["hands"][seat]
    trick = state["trick"]
    trick_rules.check_play(hand, trick, card)
    new_hand = hand.copy()
    new_hand.remove(card)
    hands = state["hands"].copy()
    hands[seat] = new_hand
    trick = [*trick, {"seat": seat, "card": card}]
    new = state.copy()
    new["hands"] = hands
    if len(trick) < state["players"]:
        new["trick"] = trick
        new["turn"] = (seat + 1) % state["players"]
        if len(trick) == 1:
            new["leader"] = seat
        return new
    contract = state["contract"]
    won_by = trick_rules.winner(trick, contract["trump"], contract["supertrump"])
    tricks_won = state["tricks_won"].copy()
    tricks_won[won_by] += 1
    done = {"leader": trick[0]["seat"], "cards": trick, "winner": won_by}
    new["trick"] = []
    new["turn"] = new["leader"] = won_by
    new["tricks_won"] = tricks_won
    new["last_trick"] = done
    new["played_tricks"] = [*state.get("played_tricks", ()), done]
    if any(hands):
        return new
    return _finish_hand(new)


def _finish_hand(state: dict) -> dict:
    """D-SCORE then D-MATCH, once every card of the hand has been played."""
    contract = state["contract"]
    teams = state["teams"]
    declaring = team_of(teams, contract["seat"])
    won = sum(state["tricks_won"][member] for member in teams[declaring])
    points = hand_points(len(teams), declaring, contract["tricks"], won)
    scores = [total + gained for total, gained in zip(state["scores"], points, strict=True)]
    result = {
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "contract": contract,
        "declaring_team": declaring,
        "tricks_taken": won,
        "made": contract_made(contract["tricks"], won),
        "points": points,
        "scores": scores,
    }
    state["scores"] = scores
    state["last_result"] = result
    state["history"] = [*state.get("history", ()), result]
    winner = match_winner(scores, state["target"])
    if winner is None:
        state["phase"] = "hand_over"
        state["turn"] = (state["dealer"] + 1) % state["players"]  # the next dealer
    else:
        state["phase"] = "match_over"
        state["winner"] = winner
        state["turn"] = None
    return state


def _next_hand(state: dict) -> dict:
    new = state.copy()
    _hand_keys(new, (state["dealer"] + 1) % state["players"], state["hand_no"] + 1)
    return new


def view(state: dict, seat: int | None) -> dict:
    """What `seat` may see (None: a spectator).

    The public keys (`_PUBLIC`) as they are, plus `seat`; `hand_sizes` (cards per seat);
    `hidden_count`; `open_hands`, a list per seat holding that seat's sorted cards when
    they are shown to everyone (D-OPEN: the declaring side of an open contract, from the
    start of play to the end of the hand) and None otherwise; and, for a seat, its own
    sorted hand under `hand`. The seed, other hands and the hidden cards never appear.

    Besides, what follows from the rules for a screen: in the auction `current_bid` (the
    highest bid, or None) and `lowest_beating` (auction.lowest_beating: per shape of bid,
    index open*4 + (trump is None)*2 + (supertrump is None), the fewest tricks that beat
    the current bid, 14 for none), both None in the other phases; in play, for a
    seat, `playable` (the cards it may play now: none when it is not its turn) and
    `unplayable` (each other card of its hand → the refusal it would get now:
    "not_your_turn", "must_follow" or "neutral_not_allowed"); outside play `playable` is
    [] and `unplayable` {}; a spectator's view has neither. `last_trick` has its `reason`
    (tricks.win_reason: "best", "supertrump", "trump", "led" or "leader") and
    `last_result` its `value` (what the hand was worth, scoring.hand_value, D-SCORE).
    None of these reads anything the seat may not see.
    """
    players = state["players"]
    if seat is not None and (not _is_int(seat) or not 0 <= seat < players):
        raise IllegalAction("bad_seat")
    seen = {key: state.get(key) for key in _PUBLIC}
    seen["seat"] = seat
    hands = state["hands"]
    seen["hand_sizes"] = [len(hand) for hand in hands]
    seen["hidden_count"] = len(state["hidden"])
    open_hands = [None] * players
    contract = state["contract"]
    if contract is not None and contract["open"] and state["phase"] != "auction":
        teams = state["teams"]
        for member in teams[team_of(teams, contract["seat"])]:
            open_hands[member] = sorted(hands[member], key=SORT_KEY.__getitem__)
    seen["open_hands"] = open_hands
    phase = state["phase"]
    auction = phase == "auction"
    top = auction_rules.current_bid(state["auction"]) if auction else None
    seen["current_bid"] = dict(top) if top else None
    seen["lowest_beating"] = auction_rules.lowest_beating(top) if auction else None
    last = state.get("last_trick")
    if last and contract is not None:
        reason = trick_rules.win_reason(
            last["cards"], last["winner"], contract["trump"], contract["supertrump"]
        )
        seen["last_trick"] = {**last, "reason": reason}
    result = state.get("last_result")
    if result:
        value = hand_value(result["contract"]["tricks"], result["tricks_taken"])
        seen["last_result"] = {**result, "value": value}
    if seat is not None:
        hand = seen["hand"] = sorted(hands[seat], key=SORT_KEY.__getitem__)
        if phase != "play":
            seen["playable"], seen["unplayable"] = [], {}
        elif seat != state["turn"]:
            seen["playable"], seen["unplayable"] = [], dict.fromkeys(hand, "not_your_turn")
        else:
            seen["playable"], seen["unplayable"] = trick_rules.refusals(hand, state["trick"])
    return seen
