"""TriumfDrez's template tags for the rules pages (D-DECK): a card, the whole deck, the
colours. Every card shows its figure symbol, number and colour name, never colour alone."""

from django import template

from games.triumfdrez.engine import COLOURS, FIGURES, NEUTRALS
from games.triumfdrez.web.words import COLOUR_NAMES, FIGURE_NAMES, FIGURE_SYMBOLS, card

register = template.Library()


@register.inclusion_tag("games/triumfdrez/_card.html")
def drez_card(card_id):
    return {"card": card(card_id)}


@register.inclusion_tag("games/triumfdrez/_deck.html")
def drez_deck():
    rows = [
        {
            "figure": figure,
            "symbol": FIGURE_SYMBOLS[figure],
            "name": FIGURE_NAMES[figure],
            "cards": [card(f"{figure}-{n}") for n in COLOURS],
        }
        for figure in FIGURES
    ]
    return {"rows": rows, "neutrals": [card(c) for c in NEUTRALS]}


@register.inclusion_tag("games/triumfdrez/_colours.html")
def drez_colours():
    return {"colours": [{"number": n, "name": COLOUR_NAMES[n]} for n in COLOURS]}
