"""Shared helpers for the TriumfDrez engine tests: positions built by editing a state."""

import json

from games.triumfdrez import engine
from games.triumfdrez.cards import DECK


def bid(tricks, trump=None, supertrump=None, open_=False):
    return {
        "type": "bid",
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }


def play(card):
    return {"type": "play", "card": card}


PASS = {"type": "pass"}

# A hand of low cards only (nothing above 4): nothing to bid on.
WEAK = [
    "pawn-1",
    "pawn-2",
    "pawn-3",
    "knight-1",
    "knight-2",
    "bishop-1",
    "bishop-3",
    "rook-2",
    "rook-4",
    "queen-1",
    "queen-3",
    "joker-2",
    "neutral-2",
]


def auction_state(players=4, dealer=0, seed=0, **config):
    """A fresh hand in the auction with the given dealer (the seat after it bids first)."""
    state = engine.new_game({"players": players, **config}, seed)
    state["dealer"] = dealer
    state["turn"] = (dealer + 1) % players
    return state


def play_position(
    hands,
    declarer=0,
    tricks=7,
    trump=None,
    supertrump=None,
    open_=False,
    trick=(),
    turn=None,
    tricks_won=None,
    scores=None,
    target=50,
):
    """A hand in play: `hands` per seat, the contract, the trick so far and whose turn it is.

    The auction is rewritten as the declarer's bid followed by passes, so that the
    position is consistent; unused cards go to `hidden`.
    """
    players = len(hands)
    state = engine.new_game({"players": players, "target": target}, 0)
    trick = [{"seat": seat, "card": card} for seat, card in trick]
    placed = [card for hand in hands for card in hand] + [p["card"] for p in trick]
    assert len(placed) == len(set(placed)), "a card is in two places"
    used = set(placed)
    contract = {
        "seat": declarer,
        "tricks": tricks,
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }
    state.update(
        phase="play",
        dealer=(declarer - 1) % players,
        hands=[list(hand) for hand in hands],
        hidden=[card for card in DECK if card not in used],
        auction=[{"seat": declarer, **{k: v for k, v in contract.items() if k != "seat"}}]
        + [{"seat": (declarer + i) % players, "pass": True} for i in range(1, players)],
        contract=contract,
        trick=trick,
        leader=trick[0]["seat"] if trick else declarer,
        turn=turn if turn is not None else (trick[-1]["seat"] + 1) % players if trick else declarer,
        tricks_won=list(tricks_won) if tricks_won else [0] * players,
    )
    if scores is not None:
        state["scores"] = list(scores)
    return state


def frozen(state):
    """A deep, independent copy (to check that nothing was changed)."""
    return json.loads(json.dumps(state))


def play_out(state, choose):
    """Apply `choose(state)` for the seat to act until the hand is over."""
    while state["phase"] == "play":
        state = engine.apply(state, state["turn"], choose(state))
    return state


def redeal_unseen(state, seat, open_seats=()):
    """The same position with every card `seat` cannot see dealt differently, another seed.

    The cards of the other seats (except `open_seats`) and the hidden cards are pooled and
    handed out again in reverse order, keeping every pile's size.
    """
    other = json.loads(json.dumps(state))
    movable = [s for s in range(other["players"]) if s != seat and s not in open_seats]
    pool = [card for s in movable for card in other["hands"][s]] + other["hidden"]
    pool.reverse()
    for s in movable:
        size = len(other["hands"][s])
        other["hands"][s], pool = pool[:size], pool[size:]
    other["hidden"] = pool
    other["seed"] += 1
    return other
