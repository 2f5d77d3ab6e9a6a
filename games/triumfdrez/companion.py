"""TriumfDrez companion mode: the cards are on the table, the app tracks bids and scores.

Rules used (ids from rules.md): D-PLAYERS (teams), D-DEAL (its ruling: the seat after the
dealer bids first, the dealer moves one seat a hand, the first dealer is random),
D-AUCTION (the order of bids, from auction.py), D-SCORE and D-MATCH (scoring.py, shared
with the full engine). There is no hidden information.

The tracker is shared by the table: any seated phone may enter anything. A bid or a pass
is attributed to `turn`, not to the phone that sends it.

State (plain JSON): game "triumfdrez-companion", players, seed, target, teams, dealer,
hand_no (1-based), phase "auction" | "tricks" | "match_over", turn (the seat whose bid is
entered next; the declarer in phase "tricks"; None once the match is over), auction
(entries as in the full engine), contract (None or {"seat", "tricks", "trump",
"supertrump", "open"}), scores (per team), history (finished hands: {"hand_no", "dealer",
"contract", "auction", "tricks_won" (by the declaring side), "declaring_team", "points"
(per team, this hand), "scores" (per team, after this hand, adjustments included)}), winner (team or None);
correction (None or a proposed correction waiting for its answer: {"by", "hand_no",
"contract", "tricks_won", "at"}), adjustments ([{"team", "points", "reason", "by", "at",
"after"}]: manual changes of a side's total, `after` hands recorded when entered) and
events (what was set or corrected, for the history: {"type": "dealer" | "correction" |
"adjustment", "hand_no", "by", "at", ...}; "correction" with "confirmed_by", "before"
and "after" ({"contract", "tricks_won"})).

Actions: "bid" and "pass" (D-AUCTION, as the full engine); {"type": "contract", "seat",
"tricks", "trump", "supertrump", "open"} (just the final contract, replacing the auction;
phase "auction"); {"type": "undo_bid"}; {"type": "result", "tricks": n} (tricks won by the
declaring side, 0-13); {"type": "undo_hand"} (any phase, also once the match is over).

Corrections and adjustments, for mistakes found later (any phase, the match over
included). {"type": "correct_hand", "hand_no", "seat", "tricks", "trump", "supertrump",
"open", "won"} proposes that a recorded hand's contract (declarer `seat` and the bid)
and the tricks its declaring side won be these; a player of another side than the
proposer's (at 2-3 players: any other player) confirms it ({"type": "confirm"}), or it is
rejected ({"type": "reject"}, by the proposer or a player who may confirm it). One waits
at a time: a new proposal supersedes it, and taking its hand back drops it; neither
changes anything. A confirmed correction scores every hand again (scoring.py) and works
the match's result out again: a match won is resumed with the next hand, a match now won
ends. {"type": "set_dealer", "seat"} sets the current hand's dealer before its first bid
(the next bidder follows, D-DEAL). {"type": "adjust", "team", "points", "reason"} adds
`points` (a whole number, -1000..1000, not 0) to a side's total, with a reason of 1-80
characters. Each of these may carry "at" (the time it was entered, a short text the
web layer stamps), kept in the events for the history.
"""

import pickle

from . import auction as auction_rules
from . import errors
from .cards import FIGURES, first_dealer
from .scoring import (
    DEFAULT_TARGET,
    TRICKS_MAX,
    hand_points,
    match_winner,
    team_of,
    teams_for,
)

__all__ = [
    "CODES",
    "IllegalAction",
    "apply",
    "is_over",
    "legal_actions",
    "new_game",
    "to_act",
    "view",
]

GAME = "triumfdrez-companion"
MAX_TARGET = 1000  # the highest target the tracker accepts (a table offers scoring.TARGET_MAX)

# The codes this engine raises; all of TriumfDrez's codes live in errors.CODES.
CODES: dict[str, tuple[str, str]] = {
    code: errors.CODES[code]
    for code in (
        "bad_config",
        "bad_seat",
        "bad_action",
        "game_over",
        "wrong_phase",
        "bad_tricks",
        "bad_trump",
        "bad_supertrump",
        "must_bid",
        "bid_too_low",
        "opening_bid_names_both",
        "bad_result",
        "no_bid_to_undo",
        "no_hand_to_undo",
        "no_such_hand",
        "no_change",
        "no_correction",
        "same_side",
        "bids_entered",
        "bad_team",
        "bad_points",
        "bad_reason",
    )
}
IllegalAction = errors.IllegalAction


_BID = frozenset({"tricks", "trump", "supertrump", "open"})
_KEYS = {
    "bid": frozenset({"type"}) | _BID,
    "pass": frozenset({"type"}),
    "contract": frozenset({"type", "seat"}) | _BID,
    "undo_bid": frozenset({"type"}),
    "result": frozenset({"type", "tricks"}),
    "undo_hand": frozenset({"type"}),
    "correct_hand": frozenset({"type", "hand_no", "seat", "won"}) | _BID,
    "confirm": frozenset({"type"}),
    "reject": frozenset({"type"}),
    "set_dealer": frozenset({"type", "seat"}),
    "adjust": frozenset({"type", "team", "points", "reason"}),
}
# the actions that may also carry "at", the time the web layer stamps
_STAMPED = frozenset({"correct_hand", "confirm", "reject", "set_dealer", "adjust"})
# the actions possible once the match is over (besides undo_hand)
_AFTER_MATCH = frozenset({"correct_hand", "confirm", "reject", "adjust"})
_PHASE_OF = {"bid": "auction", "pass": "auction", "contract": "auction", "result": "tricks"}
MAX_ADJUSTMENT = 1000  # the most points one adjustment adds or takes away
REASON_MAX = 80  # the longest reason of an adjustment, in characters
AT_MAX = 40  # the longest time stamp an action may carry
_TRUMPS = frozenset(FIGURES)


def _is_int(value: object) -> bool:
    return type(value) is int  # bools are not ints here


def new_game(config: dict, seed: int) -> dict:
    """A fresh match. config: players 2-4, target (default 50), dealer (default random)."""
    if type(config) is not dict or not _is_int(seed):
        raise IllegalAction("bad_config")
    players = config.get("players")
    target = config.get("target", DEFAULT_TARGET)
    if not _is_int(players) or not 2 <= players <= 4:
        raise IllegalAction("bad_config")
    dealer = config.get("dealer", first_dealer(seed, players))
    if not _is_int(target) or not 1 <= target <= MAX_TARGET:
        raise IllegalAction("bad_config")
    if not _is_int(dealer) or not 0 <= dealer < players:
        raise IllegalAction("bad_config")
    teams = teams_for(players)
    return {
        "game": GAME,
        "players": players,
        "seed": seed,
        "target": target,
        "teams": teams,
        "dealer": dealer,
        "hand_no": 1,
        "phase": "auction",
        "turn": (dealer + 1) % players,
        "auction": [],
        "contract": None,
        "scores": [0] * len(teams),
        "history": [],
        "winner": None,
        "correction": None,
        "adjustments": [],
        "events": [],
    }


# -- legal actions ---------------------------------------------------------------------


def is_over(state: dict) -> bool:
    """D-MATCH: a side has reached the target (a hand can still be taken back)."""
    return state["phase"] == "match_over"


def to_act(state: dict) -> list[int]:
    """The seat whose bid is entered next, or the declarer whose tricks are entered;
    [] once the match is over."""
    return [] if state["phase"] == "match_over" else [state["turn"]]


def legal_actions(state: dict, seat: int | None = None) -> list[dict]:
    """What the table may enter now (the same for every seat): pass and every bid beating
    the current one (lowest first), or the results 0-13; then the undo actions. Contract
    entries are accepted by `apply` but not listed (there are too many)."""
    if seat is not None:
        _check_seat(state, seat)
    phase = state["phase"]
    actions: list[dict] = []
    if phase == "auction":
        top = auction_rules.current_bid(state["auction"])
        if top is not None:
            actions.append({"type": "pass"})
        actions += auction_rules.bids_above(top)
    elif phase == "tricks":
        actions = [{"type": "result", "tricks": n} for n in range(TRICKS_MAX + 1)]
    answers = [] if seat is None else correction_answers(state, seat)
    return actions + undo_actions(state) + answers


def may_confirm(state: dict, proposer: int, seat: int) -> bool:
    """Whether `seat` may confirm a correction `proposer` proposed: a player of another
    side (at 2-3 players every player is a side: any other player)."""
    teams = state["teams"]
    return team_of(teams, seat) != team_of(teams, proposer)


def correction_answers(state: dict, seat: int) -> list[dict]:
    """The answers `seat` may give to the correction waiting (confirm, reject), if any."""
    pending = state.get("correction")
    if pending is None:
        return []
    answers = [{"type": "confirm"}] if may_confirm(state, pending["by"], seat) else []
    if answers or seat == pending["by"]:
        answers.append({"type": "reject"})
    return answers


def undo_actions(state: dict) -> list[dict]:
    """The entries that can be taken back now, the last of `legal_actions`: the latest bid
    (or the contract) until the hand's result is entered, and the last hand. A phone's
    screen asks this after every change, without listing every bid."""
    actions = []
    if state["phase"] == "tricks" or state["phase"] == "auction" and state["auction"]:
        actions.append({"type": "undo_bid"})
    if state["history"]:
        actions.append({"type": "undo_hand"})
    return actions


# -- apply -----------------------------------------------------------------------------


def _check_seat(state: dict, seat: object) -> None:
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat")


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after the table enters `action` from `seat`'s phone; raises IllegalAction
    and changes nothing if it is illegal.

    Checks, in this order: the seat exists, the action is well formed with valid field
    values, the match is not over (only undo_hand is possible then), the phase allows
    it, then the rules of the auction.
    """
    _check_seat(state, seat)
    if type(action) is not dict:
        raise IllegalAction("bad_action")
    kind = action.get("type")
    if type(kind) is not str or kind not in _KEYS:
        raise IllegalAction("bad_action")
    keys = action.keys() - {"at"} if kind in _STAMPED else action.keys()
    if keys != _KEYS[kind]:
        raise IllegalAction("bad_action")
    at = action.get("at")
    if at is not None and (type(at) is not str or len(at) > AT_MAX):
        raise IllegalAction("bad_action")
    if kind in ("bid", "contract", "correct_hand"):
        auction_rules.check_bid(action)
    if kind in ("contract", "correct_hand", "set_dealer"):
        _check_seat(state, action["seat"])
    if kind == "correct_hand":
        won = action["won"]
        if not _is_int(won) or not 0 <= won <= TRICKS_MAX:
            raise IllegalAction("bad_result")
        if not _is_int(action["hand_no"]):
            raise IllegalAction("no_such_hand")
    if kind == "adjust":
        _check_adjustment(state, action)
    if kind in _AFTER_MATCH:
        return _AMEND[kind](state, seat, action)
    if kind == "result":
        won = action["tricks"]
        if not _is_int(won) or not 0 <= won <= TRICKS_MAX:
            raise IllegalAction("bad_result")
    if kind == "undo_hand":
        return _undo_hand(state)
    phase = state["phase"]
    if phase == "match_over":
        raise IllegalAction("game_over")
    if kind == "undo_bid":
        return _undo_bid(state)
    if kind == "set_dealer":
        return _set_dealer(state, seat, action)
    if _PHASE_OF[kind] != phase:
        raise IllegalAction("wrong_phase")
    if kind == "bid":
        return _bid(state, action)
    if kind == "pass":
        return _pass(state)
    if kind == "contract":
        return _enter_contract(state, action)
    return _result(state, action["tricks"])


def _contract(seat: int, bid: dict) -> dict:
    return {
        "seat": seat,
        "tricks": bid["tricks"],
        "trump": bid["trump"],
        "supertrump": bid["supertrump"],
        "open": bid["open"],
    }


def _bid(state: dict, action: dict) -> dict:
    """D-AUCTION: a bid must beat the current one in the order of bids; the opening bid
    names a figure and a colour."""
    top = auction_rules.current_bid(state["auction"])
    entry = _contract(state["turn"], action)
    auction_rules.check_beats(top, entry)
    new = dict(state)
    new["auction"] = [*state["auction"], entry]
    new["turn"] = (state["turn"] + 1) % state["players"]
    return new


def _pass(state: dict) -> dict:
    """D-AUCTION: the first bidder must bid; the auction ends when every other player has
    passed in succession after the latest bid, and the last bidder declares."""
    top = auction_rules.current_bid(state["auction"])
    if top is None:
        raise IllegalAction("must_bid")
    new = dict(state)
    new["auction"] = entries = [*state["auction"], {"seat": state["turn"], "pass": True}]
    if auction_rules.is_over(entries, state["players"]):
        new.update(phase="tricks", contract=_contract(top["seat"], top), turn=top["seat"])
    else:
        new["turn"] = (state["turn"] + 1) % state["players"]
    return new


def _enter_contract(state: dict, action: dict) -> dict:
    """Just the final contract (the auction was not entered); the auction in progress, if
    any, is dropped."""
    new = dict(state)
    new.update(
        phase="tricks",
        auction=[],
        contract=_contract(action["seat"], action),
        turn=action["seat"],
    )
    return new


def _undo_bid(state: dict) -> dict:
    """Take back the latest auction entry. In phase "tricks" this reopens the auction:
    the final pass is removed, or the directly entered contract when there was no auction."""
    entries = state["auction"]
    new = dict(state)
    if state["phase"] == "tricks":
        new.update(phase="auction", contract=None)
        if not entries:
            new["turn"] = (state["dealer"] + 1) % state["players"]
            return new
    elif not entries:
        raise IllegalAction("no_bid_to_undo")
    new["auction"] = entries[:-1]
    new["turn"] = entries[-1]["seat"]
    return new


def _result(state: dict, won: int) -> dict:
    """D-SCORE for the hand, then D-MATCH; if nobody has won, the next hand's auction
    (D-DEAL: the dealer moves one seat, the seat after the new dealer bids first)."""
    contract = state["contract"]
    teams = state["teams"]
    declaring = team_of(teams, contract["seat"])
    points = hand_points(len(teams), declaring, contract["tricks"], won)
    scores = [total + gained for total, gained in zip(state["scores"], points, strict=True)]
    record = {
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "contract": contract,
        "auction": state["auction"],
        "tricks_won": won,
        "declaring_team": declaring,
        "points": points,
        "scores": scores,
    }
    new = dict(state)
    new["scores"] = scores
    new["history"] = [*state["history"], record]
    winner = match_winner(scores, state["target"])
    if winner is not None:
        new.update(phase="match_over", winner=winner, turn=None)
        return new
    players = state["players"]
    dealer = (state["dealer"] + 1) % players
    new.update(
        phase="auction",
        dealer=dealer,
        hand_no=state["hand_no"] + 1,
        turn=(dealer + 1) % players,
        auction=[],
        contract=None,
    )
    return new


def _undo_hand(state: dict) -> dict:
    """Take back the latest recorded hand: its points, and the dealer and hand number
    return to it; its contract stands, so that the tricks can be entered again. Anything
    entered for the next hand is dropped, and a correction proposed for it."""
    if not state["history"]:
        raise IllegalAction("no_hand_to_undo")
    record = state["history"][-1]
    new = dict(state)
    pending = state.get("correction")
    if pending is not None and pending["hand_no"] == record["hand_no"]:
        new["correction"] = None
    history = state["history"][:-1]
    new.update(
        scores=_totals(state, history),
        history=history,
        winner=None,
        phase="tricks",
        dealer=record["dealer"],
        hand_no=record["hand_no"],
        auction=record["auction"],
        contract=record["contract"],
        turn=record["contract"]["seat"],
    )
    return new


# -- corrections, the dealer, adjustments ----------------------------------------------


def _check_adjustment(state: dict, action: dict) -> None:
    team, points, reason = action["team"], action["points"], action["reason"]
    if not _is_int(team) or not 0 <= team < len(state["teams"]):
        raise IllegalAction("bad_team")
    if not _is_int(points) or points == 0 or abs(points) > MAX_ADJUSTMENT:
        raise IllegalAction("bad_points")
    if type(reason) is not str or not reason.strip() or len(reason.strip()) > REASON_MAX:
        raise IllegalAction("bad_reason")


def _adjustments(state: dict) -> list[dict]:
    return state.get("adjustments") or []


def _totals(state: dict, history: list[dict]) -> list[int]:
    """The sides' totals: the hands' points and every adjustment."""
    totals = [0] * len(state["teams"])
    for record in history:
        totals = [a + b for a, b in zip(totals, record["points"], strict=True)]
    for adjustment in _adjustments(state):
        totals[adjustment["team"]] += adjustment["points"]
    return totals


def _rescored(state: dict, history: list[dict]) -> list[dict]:
    """Every hand scored again from its contract and tricks (D-SCORE), its running totals
    with the adjustments entered after the hands before it."""
    teams = state["teams"]
    running = [0] * len(teams)
    records = []
    for index, record in enumerate(history):
        contract = record["contract"]
        declaring = team_of(teams, contract["seat"])
        points = hand_points(len(teams), declaring, contract["tricks"], record["tricks_won"])
        for adjustment in _adjustments(state):
            if adjustment["after"] == index:
                running[adjustment["team"]] += adjustment["points"]
        running = [a + b for a, b in zip(running, points, strict=True)]
        records.append({**record, "declaring_team": declaring, "points": points, "scores": running})
    return records


def _settled(state: dict, new: dict) -> dict:
    """`new`'s totals from its hands and adjustments, and D-MATCH worked out again: a match
    now won ends (the hand under way is dropped), a match no longer won goes on with the
    next hand."""
    new["scores"] = scores = _totals(new, new["history"])
    winner = match_winner(scores, new["target"])
    last = new["history"][-1] if new["history"] else None
    if winner is not None and last is not None:
        new.update(
            phase="match_over",
            winner=winner,
            turn=None,
            auction=[],
            contract=None,
            dealer=last["dealer"],
            hand_no=last["hand_no"],
        )
    elif state["phase"] == "match_over":
        players = new["players"]
        dealer = (last["dealer"] + 1) % players if last else new["dealer"]
        new.update(
            phase="auction",
            winner=None,
            dealer=dealer,
            hand_no=(last["hand_no"] + 1) if last else 1,
            turn=(dealer + 1) % players,
            auction=[],
            contract=None,
        )
    return new


def _hand_state(record: dict) -> dict:
    return {"contract": record["contract"], "tricks_won": record["tricks_won"]}


def _event(state: dict, seat: int, action: dict, kind: str, **more) -> list[dict]:
    entry = {"type": kind, "hand_no": state["hand_no"], "by": seat, "at": action.get("at")}
    return [*(state.get("events") or []), {**entry, **more}]


def _propose(state: dict, seat: int, action: dict) -> dict:
    """A correction of a recorded hand, waiting for another side's answer; it supersedes
    the one waiting, if any."""
    hand_no = action["hand_no"]
    records = [r for r in state["history"] if r["hand_no"] == hand_no]
    if not records:
        raise IllegalAction("no_such_hand")
    contract = _contract(action["seat"], action)
    if records[0]["contract"] == contract and records[0]["tricks_won"] == action["won"]:
        raise IllegalAction("no_change")
    new = dict(state)
    new["correction"] = {
        "by": seat,
        "hand_no": hand_no,
        "contract": contract,
        "tricks_won": action["won"],
        "at": action.get("at"),
    }
    return new


def _answer(state: dict, seat: int, action: dict) -> dict:
    """Confirm (a player of another side) or reject (the proposer too) the correction
    waiting; a confirmed one scores every hand again."""
    pending = state.get("correction")
    kind = action["type"]
    if pending is None:
        raise IllegalAction("no_correction")
    if kind == "confirm" and not may_confirm(state, pending["by"], seat):
        raise IllegalAction("same_side")
    if kind not in {answer["type"] for answer in correction_answers(state, seat)}:
        raise IllegalAction("no_correction")
    new = dict(state)
    new["correction"] = None
    if kind == "reject":
        return new
    hand_no = pending["hand_no"]
    history = []
    before = None
    for record in state["history"]:
        if record["hand_no"] == hand_no:
            before = _hand_state(record)
            record = {
                **record,
                "contract": pending["contract"],
                "tricks_won": pending["tricks_won"],
            }
        history.append(record)
    new["history"] = _rescored(state, history)
    new["events"] = _event(
        state,
        pending["by"],
        {"at": pending["at"]},
        "correction",
        hand_no=hand_no,
        confirmed_by=seat,
        confirmed_at=action.get("at"),
        before=before,
        after={"contract": pending["contract"], "tricks_won": pending["tricks_won"]},
    )
    return _settled(state, new)


def _adjust(state: dict, seat: int, action: dict) -> dict:
    """A manual change of a side's total, with its reason; at once."""
    reason = action["reason"].strip()
    adjustment = {
        "team": action["team"],
        "points": action["points"],
        "reason": reason,
        "by": seat,
        "at": action.get("at"),
        "after": len(state["history"]),
    }
    new = dict(state)
    new["adjustments"] = [*_adjustments(state), adjustment]
    new["events"] = _event(
        state,
        seat,
        action,
        "adjustment",
        team=action["team"],
        points=action["points"],
        reason=reason,
    )
    new["history"] = _rescored(new, state["history"])
    return _settled(state, new)


def _set_dealer(state: dict, seat: int, action: dict) -> dict:
    """D-DEAL: who deals this hand (a misdeal, another dealer), before its first bid; the
    seat after the dealer bids first."""
    if state["phase"] != "auction":
        raise IllegalAction("wrong_phase")
    if state["auction"]:
        raise IllegalAction("bids_entered")
    dealer = action["seat"]
    new = dict(state)
    new.update(dealer=dealer, turn=(dealer + 1) % state["players"])
    new["events"] = _event(state, seat, action, "dealer", dealer=dealer, before=state["dealer"])
    return new


_AMEND = {"correct_hand": _propose, "confirm": _answer, "reject": _answer, "adjust": _adjust}


# -- view ------------------------------------------------------------------------------


def _copied(data):
    """A deep copy of plain data (a state is JSON): a pickle's round trip, faster than
    copy.deepcopy (a view is rendered for every phone after every move)."""
    return pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))


def view(state: dict, seat: int | None) -> dict:
    """Everything but the seed, plus `seat`, `current_bid` (the latest bid of the auction,
    or None), `lowest_beating` (in phase "auction" auction.lowest_beating: per shape of
    bid the fewest tricks that beat the current bid, 14 for none; None in other phases)
    and `declaring_team` (the contract's team, or None)."""
    if seat is not None:
        _check_seat(state, seat)
    seen = _copied({key: value for key, value in state.items() if key != "seed"})
    seen["seat"] = seat
    top = auction_rules.current_bid(state["auction"])
    seen["current_bid"] = _copied(top)
    auction = state["phase"] == "auction"
    seen["lowest_beating"] = auction_rules.lowest_beating(top) if auction else None
    contract = state["contract"]
    seen["declaring_team"] = None if contract is None else team_of(state["teams"], contract["seat"])
    return seen
