"""Translated names for what the engines speak of in codes and ids.

Card figures and colours (D-DECK), and — as the engines grow — their error codes
and action kinds. Everything here is lazy so it follows the active language.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# Triggs score sheet rows 1..12 (T-SHEET).
TRIGGS_ROW_SIZES = (2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)

# TriumfDrez figures from the highest rank to the lowest (D-DECK, D-RANK).
FIGURES = ("joker", "queen", "rook", "bishop", "knight", "pawn")
# U+FE0E asks for the text (not emoji) form of the chess symbols.
FIGURE_SYMBOLS = {
    "joker": "★",
    "queen": "♛\ufe0e",
    "rook": "♜\ufe0e",
    "bishop": "♝\ufe0e",
    "knight": "♞\ufe0e",
    "pawn": "♟\ufe0e",
    "neutral": "◇",
}
FIGURE_NAMES = {
    "joker": pgettext_lazy("figure", "Joker"),
    "queen": pgettext_lazy("figure", "Queen"),
    "rook": pgettext_lazy("figure", "Rook"),
    "bishop": pgettext_lazy("figure", "Bishop"),
    "knight": pgettext_lazy("figure", "Knight"),
    "pawn": pgettext_lazy("figure", "Pawn"),
    "neutral": pgettext_lazy("figure", "Neutral"),
}
# The number of a card is also its colour (D-DECK).
COLOUR_NAMES = {
    1: _("grey"),
    2: _("red"),
    3: _("magenta"),
    4: _("purple"),
    5: _("blue"),
    6: _("yellow"),
    7: _("cyan"),
    8: _("orange"),
    9: _("green"),
}


def parse_card(card_id: str) -> tuple[str, int]:
    """'knight-9' → ('knight', 9); 'neutral-1' → ('neutral', 1)."""
    figure, _sep, number = card_id.partition("-")
    return figure, int(number)
