"""Highcard on the web: the adapter the shared layer asks (games.adapter).

A game that lives only in the tests adds no message to the site's catalogues: its own
refusals and log lines are plain English; the shared codes (not_your_turn, game_over …)
come translated from games.labels. What every seat sees alike is the `board` (from a
spectator's view); a seat's own screen, the `panel`, from `view(state, seat)` only.

Digital play has a two-step move: a seat chooses a card (kept on its Seat.pending), then
confirms it; a chosen card is committed (H-PLAY), and a card played at once, as computer
players do, needs no choice. The companion mode keeps the score of real cards.
"""

from games import fields as f
from games.adapter import GameWeb
from games.errors import Refused
from tests.highcard import companion, engine
from tests.highcard.bots import highest, lowest

# the engines' own codes and the adapter's; games.labels translates the shared ones
REFUSALS = {
    "bad_card": "There is no such card.",
    "card_not_in_hand": "You do not hold that card.",
    "card_chosen": "You chose another card: confirm it.",
    "bad_winner": "Name a player of this table as the round's winner.",
}
ENGINES = {"digital": engine, "companion": companion}
# what each region's template reads (GameWeb.regions: tests/declared.py checks them)
STATUS = ("board.over", "board.winner_name", "board.turn_name", "panel.my_turn")


class HighcardWeb(GameWeb):
    slug = "highcard"
    refusals = REFUSALS
    bot_levels = {"lowest": (lowest, "lowest")}
    hint_player = staticmethod(highest)  # cheap: games.hints through the pool all the same
    regions = {
        "digital": (
            ("status", "play", STATUS),
            ("round", "play", ("board.table", "board.last_round")),
            ("hand", "play", ("panel.hand", "panel.chosen", "panel.my_turn")),
            ("scores", "players", ("board.scores",)),
        ),
        "companion": (
            ("status", "play", STATUS),
            ("entry", "play", ("panel.my_turn", "board.seats")),
            ("scores", "players", ("board.scores", "board.played")),
        ),
    }

    def parse(self, mode: str, fields) -> dict:
        kind = fields.get("kind")
        if mode == "companion" and kind == "round":
            return {"type": "round", "winner": f.integer(fields, "winner", 0, 1)}
        if mode == "digital" and kind == "play":
            return {"type": "play", "card": self._card(fields)}
        raise f.BadInput("kind")

    @staticmethod
    def _card(fields) -> int:
        return f.integer(fields, "card", min(engine.DECK), max(engine.DECK))

    # -- the two-step move (digital) --------------------------------------------------------

    def wants_step(self, mode: str, fields) -> bool:
        return mode == "digital" and fields.get("kind") == "choose"

    def step(self, mode: str, state: dict, seat: int, fields) -> str:
        """The card a seat chooses: one it may play now (asked of its own view)."""
        card = self._card(fields)
        view = engine.view(state, seat)
        if seat not in engine.to_act(state):
            raise Refused("not_your_turn", "H-PLAY")
        if card not in view["playable"]:
            raise Refused("card_not_in_hand", "H-PLAY")
        return str(card)

    def check_move(self, mode: str, pending: str | None, action: dict) -> None:
        """A chosen card is the one the seat plays (H-PLAY)."""
        if pending and action.get("card") != int(pending):
            raise Refused("card_chosen", "H-PLAY")

    # -- the screen ---------------------------------------------------------------------------

    def board(self, mode: str, state: dict, names: dict) -> dict:
        """What every seat's screen shows alike, from a spectator's view."""
        view = ENGINES[mode].view(state, None)
        to_act = ENGINES[mode].to_act(state)
        board = {
            "over": ENGINES[mode].is_over(state),
            "turn_name": names.get(to_act[0]) if to_act else None,
            "winner_name": names.get(view["winner"]) if view["winner"] is not None else None,
        }
        if mode == "companion":
            board["seats"] = [{"index": s, "name": names.get(s, "")} for s in range(2)]
            board["played"] = len(view["winners"])
            board["scores"] = [
                {"name": names.get(s, ""), "rounds": won} for s, won in enumerate(view["rounds"])
            ]
            return board
        last = view["last_round"]
        board["table"] = [
            {"name": names.get(p["seat"], ""), "card": p["card"]} for p in view["table"]
        ]
        board["last_round"] = (
            {
                "cards": [
                    {"name": names.get(p["seat"], ""), "card": p["card"]} for p in last["cards"]
                ],
                "winner": names.get(last["winner"], ""),
            }
            if last
            else None
        )
        board["scores"] = [
            {"name": names.get(s, ""), "rounds": won, "cards": view["hand_sizes"][s]}
            for s, won in enumerate(view["rounds"])
        ]
        return board

    def panel(self, mode, state, seat, names, pending) -> dict:
        """The seat's own: whether it is to act and, in digital play, its hand and the
        card it chose (its pending first step)."""
        view = ENGINES[mode].view(state, seat)
        if mode == "companion":
            return {"view": view, "my_turn": seat is not None and view["turn"] == seat}
        playable = set(view.get("playable", ()))
        chosen = int(pending) if pending else None
        return {
            "view": view,
            "hand": [{"card": card, "playable": card in playable} for card in view.get("hand", ())],
            "my_turn": bool(playable),
            "chosen": chosen,
        }

    def hinted(self, mode: str, panel: dict, action: dict) -> dict:
        """The card the hint names, marked (games.hints)."""
        hand = [{**entry, "hinted": entry["card"] == action.get("card")} for entry in panel["hand"]]
        return {**panel, "hand": hand}

    def hint_words(self, mode: str, action: dict) -> str:
        return f"Play {action['card']}"

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        who = name or "Someone"
        if action.get("type") == "start":
            return "The cards were dealt." if mode == "digital" else "The score sheet is ready."
        if action.get("type") == "play":
            return f"{who} played {action['card']}."
        if action.get("type") == "round":
            return f"{who} recorded a round won by seat {action['winner'] + 1}."
        return f"{who} played."


adapter = HighcardWeb()
