"""Highcard on the web: the adapter the shared layer asks (games.adapter).

A game that lives only in the tests adds no message to the site's catalogues: its own
refusals and log lines are plain English; the shared codes (not_your_turn, game_over …)
come translated from games.labels. The panel is built from `view(state, seat)` only.
"""

from games import fields as f
from games.adapter import GameWeb
from tests.highcard import engine
from tests.highcard.bots import lowest

# the engine's own codes; games.labels words the shared ones
REFUSALS = {
    "bad_card": "There is no such card.",
    "card_not_in_hand": "You do not hold that card.",
}


class HighcardWeb(GameWeb):
    slug = "highcard"
    refusals = REFUSALS
    bot_levels = {"lowest": (lowest, "lowest")}

    def parse(self, mode: str, fields) -> dict:
        if fields.get("kind") != "play":
            raise f.BadInput("kind")
        return {
            "type": "play",
            "card": f.integer(fields, "card", min(engine.DECK), max(engine.DECK)),
        }

    def panel(self, mode, state, seat, names, pending) -> dict:
        view = engine.view(state, seat)
        to_act = engine.to_act(state)
        playable = set(view.get("playable", ()))
        last = view["last_round"]
        return {
            "view": view,
            "hand": [{"card": card, "playable": card in playable} for card in view.get("hand", ())],
            "my_turn": bool(playable),
            "turn_name": names.get(to_act[0]) if to_act else None,
            "table": [{"name": names.get(p["seat"], ""), "card": p["card"]} for p in view["table"]],
            "last_round": {
                "cards": [
                    {"name": names.get(p["seat"], ""), "card": p["card"]} for p in last["cards"]
                ],
                "winner": names.get(last["winner"], ""),
            }
            if last
            else None,
            "scores": [
                {"name": names.get(s, ""), "rounds": won, "cards": view["hand_sizes"][s]}
                for s, won in enumerate(view["rounds"])
            ],
            "over": engine.is_over(state),
            "winner_name": names.get(view["winner"]) if view["winner"] is not None else None,
        }

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        who = name or "Someone"
        if action.get("type") == "start":
            return "The cards were dealt."
        if action.get("type") == "play":
            return f"{who} played {action['card']}."
        return f"{who} played."


adapter = HighcardWeb()
