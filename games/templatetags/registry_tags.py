"""What every page says of the games it offers, asked of the registry (games.registry):
no shared template names a game. Usable without a request (500.html has no context)."""

from django import template

from games.registry import GAMES
from games.templatetags.babel_tags import as_list

register = template.Library()


@register.simple_tag
def game_names() -> str:
    """The games' names as a list of the active language (in Spanish, "A y B")."""
    return as_list([game.name for game in GAMES.values()])


@register.simple_tag
def game_credits() -> str:
    """Each game's credit (its author, its deck), in the active language."""
    return " ".join(str(game.credit) for game in GAMES.values() if game.credit)
