"""Highcard's companion engine: the players play with real cards and the phones keep the
score, so nothing is hidden. The contract of the spec's engines.md, pure Python.

Rules (the game's rule ids, as in tests.highcard.engine):
- H-PLAY: the higher card wins the round and its player leads the next one: the seat to
  act (the round's leader) records who won it, and the winner leads next.
- H-WIN: after 3 rounds the player who won more rounds wins the game.

State (JSON): game, players, seed, turn (None once over), phase ("play" | "over"),
rounds [won per seat], winners [the winner of each round, in order], winner (seat or None).
"""

from games.engine_errors import IllegalAction as SharedIllegalAction

PLAYERS = 2
ROUNDS = 3


class IllegalAction(SharedIllegalAction):
    # code -> (rule id, English text for logs); all but the last are the shared codes
    CODES = {
        "bad_config": ("H-PLAY", "config needs players 2 (an int) and the seed must be an int"),
        "bad_seat": ("H-PLAY", "the seat is not an int naming a player of this game"),
        "bad_action": ("H-PLAY", "an action is {'type': 'round', 'winner': seat}"),
        "game_over": ("H-WIN", "the game is over"),
        "not_your_turn": ("H-PLAY", "the round's leader records it"),
        "bad_winner": ("H-PLAY", "the winner is a seat of this game"),
    }


def _is_int(value) -> bool:
    return type(value) is int  # bools are not ints here


def new_game(config: dict, seed: int) -> dict:
    """A fresh score sheet; seat 0 leads the first round. `config`: {"players": 2}."""
    players = config.get("players") if type(config) is dict else None
    if not _is_int(players) or players != PLAYERS or not _is_int(seed):
        raise IllegalAction("bad_config")
    return {
        "game": "highcard",
        "players": PLAYERS,
        "seed": seed,
        "turn": 0,
        "phase": "play",
        "rounds": [0] * PLAYERS,
        "winners": [],
        "winner": None,
    }


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def legal_actions(state: dict) -> list[dict]:
    """Either seat may have won the round (H-PLAY); [] once the game is over."""
    if is_over(state):
        return []
    return [{"type": "round", "winner": seat} for seat in range(state["players"])]


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after `seat` records a round; raises IllegalAction, changing nothing."""
    if is_over(state):
        raise IllegalAction("game_over")
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise IllegalAction("bad_seat")
    if type(action) is not dict or action.keys() != {"type", "winner"}:
        raise IllegalAction("bad_action")
    if action["type"] != "round":
        raise IllegalAction("bad_action")
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn")
    won = action["winner"]
    if not _is_int(won) or not 0 <= won < state["players"]:
        raise IllegalAction("bad_winner")
    rounds = list(state["rounds"])
    rounds[won] += 1
    new = {**state, "rounds": rounds, "winners": [*state["winners"], won], "turn": won}
    if len(new["winners"]) == ROUNDS:  # H-WIN: an odd number of rounds, no draw
        new.update(phase="over", turn=None, winner=rounds.index(max(rounds)))
    return new


def view(state: dict, seat: int | None) -> dict:
    """Everything but the seed (nothing else is hidden), and `seat` (None: a spectator)."""
    if seat is not None and (not _is_int(seat) or not 0 <= seat < state["players"]):
        raise IllegalAction("bad_seat")
    seen = {key: value for key, value in state.items() if key != "seed"}
    seen["seat"] = seat
    seen["rounds"] = list(state["rounds"])
    seen["winners"] = list(state["winners"])
    return seen
