"""Highcard's computer player, pure: it sees what a phone sees (the view) and the legal
actions, like each game's own (games/<game>/bots.py)."""


def lowest(view: dict, legal: list[dict], rng) -> dict:
    """Play the lowest card it may (H-PLAY); `rng` is unused: nothing is left to chance."""
    return min(legal, key=lambda action: action["card"])


def highest(view: dict, legal: list[dict], rng) -> dict:
    """Play the highest card it may: the toy game's hint player (GameWeb.hint_player)."""
    return max(legal, key=lambda action: action["card"])
