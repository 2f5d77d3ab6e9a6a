"""Drawings used by the rules pages and the game screens: TriumfDrez cards and deck
(D-DECK). (Triggs draws its own: games/triggs/templatetags/triggs_tags.py.)

Nothing here relies on colour alone: every card shows its number and figure symbol.
"""

from django import template

from games.triumfdrez.engine import FIGURES
from games.triumfdrez.web import COLOUR_NAMES, FIGURE_NAMES, FIGURE_SYMBOLS, card_context

register = template.Library()


@register.inclusion_tag("games/triumfdrez/_card.html")
def drez_card(card_id):
    return {"card": card_context(card_id)}


@register.inclusion_tag("games/triumfdrez/_deck.html")
def drez_deck():
    rows = [
        {
            "figure": figure,
            "symbol": FIGURE_SYMBOLS[figure],
            "name": FIGURE_NAMES[figure],
            "cards": [card_context(f"{figure}-{n}") for n in range(1, 10)],
        }
        for figure in FIGURES
    ]
    neutrals = [card_context(f"neutral-{n}") for n in (1, 2)]
    return {"rows": rows, "neutrals": neutrals}


@register.inclusion_tag("games/triumfdrez/_colours.html")
def drez_colours():
    return {"colours": [{"number": n, "name": COLOUR_NAMES[n]} for n in range(1, 10)]}
