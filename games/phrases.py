"""What a player may say at a table (issue 19): a fixed set of phrases, sent as keys and
shown to each phone in its own language, so that players who share no language can still
say "well played" — and there is no free text to moderate. The phrases every game has are
here; each game's adapter adds its own (GameWeb.phrases). A host may switch them off for
the table (Table.phrases); a phone may say one every EVERY seconds (games.consumers)."""

from django.utils.translation import gettext_lazy as _

EVERY = 3.0  # seconds between two phrases of one phone

COMMON = {
    "good_game": _("Have a good game!"),
    "good_luck": _("Good luck!"),
    "well_played": _("Well played!"),
    "thanks": _("Thanks!"),
    "sorry": _("Sorry!"),
    "one_moment": _("One moment, please."),
    "your_turn": _("Your turn!"),
    "rematch": _("Rematch?"),
}


def offered(game) -> dict:
    """Every phrase of the table's game, by key, in the order they are offered."""
    return {**COMMON, **game.web.phrases}
