"""The contexts of TriumfDrez's screens, plain data for the templates
(games/triumfdrez/_companion.html, _digital.html), built from `view(state, seat)` and
the engine's pure functions only (D-AUCTION, D-PLAY, D-OPEN, D-SCORE): the playable
cards and why another is not, the lowest bids that beat the current one, why the last
trick was won and what a hand was worth all come from the engine.

`board`s are what every seat sees alike (a spectator too), worked out once per change
and language; `digital_panel` is one seat's own part."""

import datetime
import functools
import json

from django.utils import translation
from django.utils.translation import ngettext

from games import labels
from games.adapter import ranking
from games.triumfdrez import auction as auction_rules
from games.triumfdrez import companion, engine
from games.triumfdrez.engine import BID_MIN, FIGURES, TRICKS_MAX, contract_made, team_of
from games.triumfdrez.web import words
from games.triumfdrez.web.stats import side_names


def _shown(value):
    """What `value` shows, for a key: a card (words.card) by its id alone, as all else
    it shows follows from the id in the fragment's language (a part of every key)."""
    if isinstance(value, dict):
        if "label" in value and "id" in value:
            return value["id"]
        return tuple((name, _shown(v)) for name, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_shown(v) for v in value)
    return value


def keyed(item: dict) -> dict:
    """`item` with the key its HTML is cached by ({% cached_each %} or {% cache %} in the
    templates): all it holds (its cards by their ids), so two items that show anything
    differently never share a fragment."""
    item["key"] = repr(_shown(tuple(item.values())))
    return item


# a hand's order: by figure, the neutral cards last
BY_FIGURE = {figure: i for i, figure in enumerate((*FIGURES, "neutral"))}


def _by_figure(card_id: str) -> int:
    return BY_FIGURE[words.figure_of(card_id)]


@functools.lru_cache(maxsize=4096)
def _hand_entry(lang: str, card_id: str, legal: bool, reason: str | None) -> dict:
    """A card of one's hand (the `hand` region), cached per language: the same few
    dozen come back in every phone's update (callers must not change the dict)."""
    card = words._card(lang, card_id)
    return keyed({"card": card, "legal": legal, "reason": reason, "hinted": False})


@functools.lru_cache(maxsize=2048)
def _hand(lang: str, hand: tuple, legal: frozenset, unplayable: tuple) -> tuple:
    """One's hand by figure, each card with whether it may be played and why not
    (`unplayable`: (card, reason) pairs), cached per language: a phone's hand is drawn
    again for every other phone's update while it does not change."""
    reasons = dict(unplayable)
    return tuple(
        _hand_entry(lang, c, c in legal, reasons.get(c)) for c in sorted(hand, key=_by_figure)
    )


@functools.lru_cache(maxsize=256)
def _reasons(lang: str, codes: frozenset, web) -> str:
    """Why the unplayable cards may not be played, each sentence once, as JSON for the
    page's script (static/js/triumfdrez.js), cached per language."""
    return json.dumps(
        {code: str(labels.sentence(code, web)) for code in codes},
        ensure_ascii=False,
        sort_keys=True,
    )


@functools.lru_cache(maxsize=1024)
def _open_hand(lang: str, seat: int, name: str, cards: tuple) -> dict:
    """Another seat's open hand (D-OPEN), cached per language: the same for every
    phone but its owner's."""
    return keyed({"seat": seat, "name": name, "cards": [words._card(lang, c) for c in cards]})


def final_ranking(view: dict, names: dict) -> list[dict]:
    """Once the match is won (D-MATCH): the sides, best score first; else []."""
    if view.get("winner") is None:
        return []
    return ranking(
        [
            {
                "name": " + ".join(side_names(names, members)),
                "score": view["scores"][i],
                "words": ngettext("%(n)s point", "%(n)s points", view["scores"][i])
                % {"n": view["scores"][i]},
            }
            for i, members in enumerate(view["teams"])
        ]
    )


def winner_names(view: dict, names: dict) -> list[str]:
    winner = view.get("winner")
    return side_names(names, view["teams"][winner]) if winner is not None else []


def companion_board(state: dict, names: dict, entered: list[dict] | None = None) -> dict:
    """The tracker, the same for every seat: the auction in words, the sides with their
    players, the hands played (D-AUCTION, D-SCORE); `entered`: the log rows of each
    recorded hand's entries (games.triumfdrez.web.entered), who entered them and when."""
    view = companion.view(state, None)
    teams = view["teams"]
    contract = view.get("contract")
    declaring = view.get("declaring_team")
    # the undo actions alone: not a list of every bid that beats the current one
    undoable = [action["type"] for action in companion.undo_actions(state)]
    history = [
        {
            "hand_no": hand["hand_no"],
            "dealer": names.get(hand["dealer"], ""),
            "declarer": names.get(hand["contract"]["seat"], ""),
            "contract": words.bid_words(hand["contract"]),
            "tricks_won": hand["tricks_won"],
            "made": contract_made(hand["contract"]["tricks"], hand["tricks_won"]),
            # per side: what the hand brought, and the running total after it
            "results": [
                {"gain": gain, "total": total}
                for gain, total in zip(hand["points"], hand["scores"], strict=True)
            ],
        }
        for hand in view["history"]
    ]
    top = view.get("current_bid")
    default_tricks = (top or {}).get("tricks", BID_MIN)
    return {
        **public(view),
        **amend_board(view, names, entered),
        "sides": [
            {
                "index": i,
                "names": side_names(names, members),
                "score": view["scores"][i],
                "declaring": i == declaring,
            }
            for i, members in enumerate(teams)
        ],
        # no trick on the table: the cards are played at the table, not entered
        "trick_seats": None,
        "last_trick": None,
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(view["turn"]),
        "auction": words.auction(view, names),
        "to_beat": words.to_beat(view, names) if view["phase"] == "auction" else None,
        "contract_words": words.bid_words(contract) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "declaring_names": side_names(names, teams[declaring]) if declaring is not None else [],
        "history": history,
        "winner_names": winner_names(view, names),
        "ranking": final_ranking(view, names),
        # A bid of as many tricks can still beat the current one (open, fewer trumps): the
        # form shows the lowest that does chosen (the tracker refuses a lower one on entry)
        "bid": beating_choices(BID_MIN, top),
        # the final contract entered directly may drop either
        "contract": words.bid_choices(BID_MIN, default_tricks),
        "declarers": tuple(sorted(names.items())),
        # every entry can be taken back until the hand is confirmed, a contract entered
        # directly too (the engine's legal actions say what can)
        "can_undo_bid": "undo_bid" in undoable,
        "undo_contract": view["phase"] == "tricks" and not view["auction"],
        "can_undo_hand": "undo_hand" in undoable,
        # the declaring side's tricks: 0 to every trick of the hand
        "tricks_pad": tuple(range(TRICKS_MAX + 1)),
    }


def beating_choices(lowest: int, top: dict | None) -> dict:
    """A bid form's fields (words.bid_choices) from `lowest` tricks, with the lowest bid
    that beats `top` chosen (with no bid yet, the lowest opening bid: D-AUCTION ruling);
    no tricks chosen when no bid beats it."""
    chosen = auction_rules.lowest_bid_above(top)
    return words.bid_choices(lowest, None, opening=top is None, chosen=chosen, blank=chosen is None)


def _when(row: dict, day: str) -> dict:
    """When a log row was entered, in UTC as the tracker stamps corrections (parse.stamp):
    the time alone on the `day` of the entry before it, else the date and time."""
    created = row.get("created")
    if created is None:
        return {"at": "", "datetime": "", "day": day}
    utc = created.astimezone(datetime.UTC)
    shown = utc.strftime("%H:%M" if utc.strftime("%Y-%m-%d") == day else "%Y-%m-%d %H:%M")
    return {
        "at": shown,
        "datetime": utc.strftime("%Y-%m-%dT%H:%MZ"),
        "day": utc.strftime("%Y-%m-%d"),
    }


def _entered(hand: dict, rows: dict | None, names: dict) -> dict:
    """A recorded hand's entries with who entered each and when (`rows`: their log rows,
    entered.hands; None when the log does not say): its bids and passes, each under its
    bidder's name, «(entered by …)» when another phone entered it (labels.who); the
    contract entered directly and the tricks, each with the name of the phone's seat."""
    bids = words.auction(hand, names)
    if rows is None or len(rows["bids"]) != len(bids):
        return {"bids": bids, "contract_by": None, "result_by": None}
    day = ""
    for entry, row in zip(bids, rows["bids"], strict=True):
        entry["name"] = labels.who(row, names) or entry["name"]
        entry.update(_when(row, day))
        day = entry.pop("day")

    def by(row):
        nonlocal day
        if row is None:
            return None
        seat = row["seat"] if row.get("acted_by") is None else row["acted_by"]
        shown = {"name": names.get(seat, ""), **_when(row, day)}
        day = shown.pop("day")
        return shown

    contract_by = by(rows["contract"])
    return {"bids": bids, "contract_by": contract_by, "result_by": by(rows["result"])}


def amend_board(view: dict, names: dict, entered: list[dict] | None = None) -> dict:
    """The tracker's corrections, as every seat sees them: the correction waiting, what
    the forms offer (the hands recorded, the sides, the dealers), and the history of each
    hand with its dealer, its bids in order, its contract and tricks, its points, and
    every correction and adjustment with who entered it and when; with `entered` (the
    log rows of each hand's entries, entered.hands), who entered each bid, pass, contract
    and tricks, and when."""
    teams = view["teams"]
    events = view.get("events") or []
    pending = view.get("correction")
    recorded = {hand["hand_no"]: hand for hand in view["history"]}
    correction = None
    if pending is not None:
        before = recorded.get(pending["hand_no"])
        correction = {
            "by": pending["by"],
            "by_name": names.get(pending["by"], ""),
            "hand_no": pending["hand_no"],
            "before": words.hand_words(before, names) if before else "",
            "after": words.hand_words(pending, names),
            "at": pending.get("at") or "",
        }

    def lines(hand_no):
        return [
            {
                "text": words.event_line(event, names, teams),
                "at": event.get("at") or "",
                "confirmed_at": event.get("confirmed_at") or "",
            }
            for event in events
            if event["hand_no"] == hand_no
        ]

    if entered is not None and len(entered) != len(view["history"]):
        entered = None
    record = [
        {
            "hand_no": hand["hand_no"],
            "dealer": names.get(hand["dealer"], ""),
            **_entered(hand, entered[i] if entered else None, names),
            "contract": words.hand_words(hand, names),
            "made": contract_made(hand["contract"]["tricks"], hand["tricks_won"]),
            "points": [
                {"names": side_names(names, teams[i]), "gain": gain, "total": total}
                for i, (gain, total) in enumerate(zip(hand["points"], hand["scores"], strict=True))
            ],
            "events": lines(hand["hand_no"]),
        }
        for i, hand in enumerate(view["history"])
    ]
    last = view["history"][-1]["hand_no"] if view["history"] else 0
    # what was entered during the hand under way (a dealer set, an adjustment)
    current = lines(view["hand_no"]) if view["hand_no"] > last else []
    return {
        "correction": correction,
        "record": record,
        "current_events": current,
        "hand_numbers": tuple(recorded),
        "side_choices": tuple(
            (i, " + ".join(side_names(names, members))) for i, members in enumerate(teams)
        ),
        "can_set_dealer": view["phase"] == "auction" and not view["auction"],
        "all_bids": words.bid_choices(BID_MIN, None),
        "reason_max": companion.REASON_MAX,
        "adjust_max": companion.MAX_ADJUSTMENT,
    }


def companion_panel(state: dict, me: int | None) -> dict:
    """One seat's part of the tracker (the rest is the board, the same for every seat): the
    answers it may give to the correction waiting (confirm: a player of another side; reject: them or the
    proposer)."""
    answers = companion.correction_answers(state, me) if me is not None else []
    pending = state.get("correction")
    return {
        "can_confirm": {"type": "confirm"} in answers,
        "can_reject": {"type": "reject"} in answers,
        "proposed": pending is not None and pending["by"] == me,
    }


def _explained(result: dict, names: dict, teams) -> dict:
    """The hand just scored, in numbers for its sentence (D-SCORE)."""
    contract = result["contract"]
    won, bid = result["tricks_taken"], contract["tricks"]
    return {
        "declarer": names.get(contract["seat"], ""),
        "contract": words.bid_words(contract),
        "bid": bid,
        "won": won,
        "made": result["made"],
        "difference": abs(won - bid),
        "points": result["value"],
        "sides": [
            {"names": side_names(names, teams[i]), "points": p}
            for i, p in enumerate(result["points"])
        ],
    }


def public(view: dict) -> dict:
    """The hand's and the match's public state, the same for every seat: its phase, hand
    number, dealer, target and declaring side."""
    return {
        "phase": view["phase"],
        "hand_no": view["hand_no"],
        "dealer": view["dealer"],
        "target": view["target"],
        "declaring_team": view.get("declaring_team"),
    }


def digital_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a digital table (a spectator too): the auction, the
    contract, the trick by seat, the last trick and why it was won, the sides' tricks and
    scores, the other players, the hand's result and the match's."""
    view = engine.view(state, None)
    contract = view.get("contract")
    to_act = engine.to_act(state)
    # one seat to act: the auction or the play; several: the hand is over and anyone
    # deals the next; none: the match is over
    one_to_act = to_act[0] if len(to_act) == 1 else None
    teams = view["teams"]
    declaring = team_of(teams, contract["seat"]) if contract else None
    top = view.get("current_bid")
    played = {p["seat"]: p["card"] for p in view["trick"]}
    last = view.get("last_trick")
    result = view.get("last_result")
    return {
        **public(view),
        "can_pass": top is not None,
        "bid": beating_choices(top["tricks"] if top else BID_MIN, top),
        "too_low": str(words.REFUSALS["bid_too_low"]),
        "auction": words.auction(view, names),
        "to_beat": words.to_beat(view, names),
        "contract_words": words.bid_words(contract) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "sides": [
            keyed(
                {
                    "index": i,
                    "names": side_names(names, members),
                    "tricks": sum(view["tricks_won"][s] for s in members),
                    "score": view["scores"][i],
                    "declaring": i == declaring,
                    # the tricks the contract needs, on the declaring side's line (D-SCORE)
                    "need": contract["tricks"] if i == declaring else None,
                }
            )
            for i, members in enumerate(teams)
        ],
        # each seat at the table, in seat order (the page's style lays them out round the
        # table from the phone's own seat): its name, cards in hand, tricks taken, whether
        # it deals or is to act, and its card in the trick
        "trick_seats": [
            keyed(
                {
                    "seat": seat,
                    "name": names.get(seat, ""),
                    "turn": seat == one_to_act,
                    "card": words.card(played[seat]) if seat in played else None,
                    "cards": size,
                    "won": view["tricks_won"][seat],
                    "dealer": seat == view["dealer"],
                }
            )
            for seat, size in enumerate(view["hand_sizes"])
        ],
        "led": words.figure(words.figure_of(view["trick"][0]["card"])) if view["trick"] else None,
        "last_trick": keyed(
            {
                # what the page's script shows it by, once: the hand and the tricks played
                "moment": f"trick-{view['hand_no']}-{sum(view['tricks_won'])}",
                "winner": names.get(last["winner"], ""),
                "reason": str(words.TRICK_REASONS[last["reason"]]),
                "plays": [
                    {"name": names.get(p["seat"], ""), "card": words.card(p["card"])}
                    for p in last["cards"]
                ],
            }
        )
        if last and contract
        else None,
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(one_to_act) if one_to_act is not None else None,
        "explained": _explained(result, names, teams) if result and one_to_act is None else None,
        "over": engine.is_over(state),
        "winner_names": winner_names(view, names),
        "ranking": final_ranking(view, names),
    }


def digital_panel(state: dict, me: int | None, names: dict, web) -> dict:
    """The table from one seat's view, besides the board: its own hand by figure with the
    cards it may play now and why the others not, its side, whether it bids, and other
    hands only where the view shows them (an open contract, D-OPEN). `web`: the adapter,
    for the refusals' sentences."""
    view = engine.view(state, me)
    hand = view.get("hand") or []
    bidding = (
        me is not None and me in engine.to_act(state) and view.get("lowest_beating") is not None
    )
    legal = frozenset(view.get("playable") or ())
    unplayable = view.get("unplayable") or {}
    lang = translation.get_language()
    return {
        "view": view,
        "hand": _hand(lang, tuple(hand), legal, tuple(sorted(unplayable.items()))),
        # why the unplayable cards may not be played, each sentence once (static/js/triumfdrez.js)
        "reasons": _reasons(lang, frozenset(unplayable.values()), web),
        "my_turn": bidding or bool(legal),
        "bidding": bidding,
        # the Bid button is enabled only for bids that beat the current one (static/js/triumfdrez.js)
        "lowest_beating": ",".join(map(str, view.get("lowest_beating") or ())),
        "my_side": None if me is None else team_of(view["teams"], me),
        "open_hands": [
            _open_hand(lang, seat, names.get(seat, ""), tuple(cards))
            for seat, cards in enumerate(view.get("open_hands") or [])
            if cards and seat != me
        ],
    }


def hinted_panel(panel: dict, action: dict) -> dict:
    """A digital panel with the hint (what the computer would play: games.hints) marked
    on the card to play. The hand's entries are cached and shared: a marked copy."""
    if action.get("type") != "play" or not panel.get("hand"):
        return panel
    hand = tuple(
        keyed({**{k: v for k, v in entry.items() if k != "key"}, "hinted": True})
        if entry["card"]["id"] == action["card"]
        else entry
        for entry in panel["hand"]
    )
    return {**panel, "hand": hand}
