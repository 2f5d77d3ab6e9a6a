"""Highcard's rules engine: the contract of docs/engines.md, pure Python.

Rules (rule ids of this game, anchored on its rules page):
- H-DEAL: a deck of ten cards 1..10 is shuffled from the seed; each of the 2 players is
  dealt 3 cards, the other 4 stay undealt (never shown). Seat 0 leads the first round.
- H-PLAY: the players play one card each in turn; the higher card wins the round and its
  player leads the next one.
- H-WIN: after 3 rounds the player who won more rounds wins the game.

State (JSON): game, players, seed, turn (None once over), phase ("play" | "over"),
hands [[card, ...], ...], stock [the undealt cards], leader, table [{"seat", "card"}]
(the round in progress), rounds [won per seat], last_round (None or {"cards", "winner"}),
winner (seat or None).
"""

import random

from games.engine_errors import IllegalAction as SharedIllegalAction

PLAYERS = 2
DECK = tuple(range(1, 11))
HAND_SIZE = 3
# Keys every seat may see as they are (H-DEAL: hands and the stock are not among them).
_PUBLIC = ("game", "players", "turn", "phase", "leader", "table", "rounds", "last_round", "winner")


class IllegalAction(SharedIllegalAction):
    # code -> (rule id, English text for logs); the first five are the shared codes
    CODES = {
        "bad_config": ("H-DEAL", "config needs players 2 (an int) and the seed must be an int"),
        "bad_seat": ("H-DEAL", "the seat is not an int naming a player of this game"),
        "bad_action": ("H-PLAY", "an action is {'type': 'play', 'card': int}"),
        "game_over": ("H-WIN", "the game is over"),
        "not_your_turn": ("H-PLAY", "it is the other seat's turn"),
        "bad_card": ("H-DEAL", "a card is an int from 1 to 10"),
        "card_not_in_hand": ("H-PLAY", "the hand does not hold that card"),
    }


def _is_int(value) -> bool:
    return type(value) is int  # bools are not ints here


def new_game(config: dict, seed: int) -> dict:
    """A fresh game (H-DEAL). `config`: {"players": 2}."""
    players = config.get("players") if type(config) is dict else None
    if not _is_int(players) or players != PLAYERS or not _is_int(seed):
        raise IllegalAction("bad_config")
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    hands = [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(PLAYERS)]
    return {
        "game": "highcard",
        "players": PLAYERS,
        "seed": seed,
        "turn": 0,
        "phase": "play",
        "hands": hands,
        "stock": deck[PLAYERS * HAND_SIZE :],
        "leader": 0,
        "table": [],
        "rounds": [0] * PLAYERS,
        "last_round": None,
        "winner": None,
    }


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def legal_actions(state: dict) -> list[dict]:
    """Any card of the hand of the seat to act (H-PLAY); [] once the game is over."""
    if is_over(state):
        return []
    return [{"type": "play", "card": card} for card in sorted(state["hands"][state["turn"]])]


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after `seat` plays; raises IllegalAction and changes nothing if illegal."""
    if is_over(state):
        raise IllegalAction("game_over")
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat")
    if type(action) is not dict or action.keys() != {"type", "card"} or action["type"] != "play":
        raise IllegalAction("bad_action")
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn")
    card = action["card"]
    if not _is_int(card) or card not in DECK:
        raise IllegalAction("bad_card")
    if card not in state["hands"][seat]:
        raise IllegalAction("card_not_in_hand")
    hands = [list(hand) for hand in state["hands"]]
    hands[seat].remove(card)
    table = [*state["table"], {"seat": seat, "card": card}]
    rounds = list(state["rounds"])
    new = {**state, "hands": hands, "table": table, "rounds": rounds}
    if len(table) < state["players"]:
        new["turn"] = (seat + 1) % state["players"]
        return new
    won = max(table, key=lambda play: play["card"])["seat"]  # H-PLAY: cards never tie
    rounds[won] += 1
    new.update(table=[], leader=won, turn=won, last_round={"cards": table, "winner": won})
    if not any(hands):  # H-WIN: three rounds played, an odd number: no draw
        new.update(phase="over", turn=None, winner=rounds.index(max(rounds)))
    return new


def view(state: dict, seat: int | None) -> dict:
    """What `seat` may see (None: a spectator): the public keys, `seat`, `hand_sizes`,
    `stock_count`, and for a seat its own sorted `hand` and the cards it may play now
    (`playable`). The seed, the other hand and the stock never appear."""
    players = state["players"]
    if seat is not None and (not _is_int(seat) or not 0 <= seat < players):
        raise IllegalAction("bad_seat")
    seen = {key: state[key] for key in _PUBLIC}
    seen["seat"] = seat
    seen["hand_sizes"] = [len(hand) for hand in state["hands"]]
    seen["stock_count"] = len(state["stock"])
    if seat is not None:
        seen["hand"] = sorted(state["hands"][seat])
        seen["playable"] = seen["hand"] if seat in to_act(state) else []
    return json_copy(seen)


def json_copy(value):
    """A copy sharing no list or dict with the state."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value
