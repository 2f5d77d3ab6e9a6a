"""Triggs in words: the engines' refusals, the rules' names, the piles' names and the
log's lines (a digital cross and the extra crosses it brought are one line)."""

import functools

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.triggs import companion

# Where a card is drawn from (T-A), as said after a verb of taking.
DRAWN_FROM = {
    "left": _("from the left pile"),
    "stock": _("from the stock"),
    "right": _("from the right pile"),
}

# the engines' own codes (games/triggs/errors.py); games.labels has the shared ones
REFUSALS = {
    "extra_pending": _("First place your extra cross: tap a box in another row."),
    "no_extra_pending": _("There is no extra cross to place."),
    "bad_sources": _("Draw from the left pile, the stock or the right pile."),
    "hand_full": _("With 10 cards in hand you may not draw."),
    "wrong_draw_count": _("Draw 2 cards, or exactly 1 when you hold 9."),
    "pile_empty": _("That pile is empty and the discard pile cannot refill it."),
    "bad_value": _("Choose a value from 1 to 12."),
    "bad_count": _("Choose at least one card."),
    "cards_not_in_hand": _("You do not hold those cards."),
    "mixed_values": _("Discard cards of one single value at a time."),
    "row_full": _("That row is already full."),
    "bad_sets": _("Lay at least one set: one card of the value or two cards that add up to it."),
    "set_too_large": _("A set is one card or two cards, never more."),
    "set_wrong_sum": _("Each set must be one card of the value or two cards adding up to it."),
    "too_many_sets": _("You cannot lay more sets than the open boxes left in that row."),
    "no_turns": _("The turn marker is off: just enter your crosses."),
    "nothing_to_undo": _("There is nothing of yours to undo."),
    "draw_committed": _("You have taken your first card: take the second one to finish your draw."),
    "bad_crosses": _("A row holds from 0 crosses to as many as it has boxes."),
    "no_change": _("That row already has that many crosses."),
    "correction_pending": _("Another correction is waiting for its answer: answer it first."),
    "no_correction": _("There is no correction waiting for your answer."),
}

# The rules' names, the text of links to them (the rulebooks' own headings).
RULE_NAMES = {
    "T-DECK": pgettext_lazy("rule", "Contents"),
    "T-SHEET": pgettext_lazy("rule", "The score sheet"),
    "T-SETUP-1": pgettext_lazy("rule", "Setting up"),
    "T-SETUP-2": pgettext_lazy("rule", "Setting up"),
    "T-SETUP-3": pgettext_lazy("rule", "Who starts, and who plays next"),
    "T-A": pgettext_lazy("rule", "Action A: draw cards"),
    "T-A-LIMIT": pgettext_lazy("rule", "At most 10 cards in hand"),
    "T-B": pgettext_lazy("rule", "Action B: discard cards"),
    "T-C": pgettext_lazy("rule", "Action C: cross out"),
    "T-C-CAP": pgettext_lazy("rule", "No more sets than free boxes"),
    "T-C-BONUS": pgettext_lazy("rule", "Extra box"),
    "T-EMPTY-HAND": pgettext_lazy("rule", "No cards left in hand"),
    "T-REFILL": pgettext_lazy("rule", "Empty piles"),
    "T-OBSOLETE-12": pgettext_lazy("rule", "Removing the 12s"),
    "T-OBSOLETE-11": pgettext_lazy("rule", "Removing the 11s"),
    "T-WIN": pgettext_lazy("rule", "End of the game"),
}

PILE_LABELS = {
    "left": pgettext_lazy("pile", "Left"),
    "stock": pgettext_lazy("pile", "Stock"),
    "right": pgettext_lazy("pile", "Right"),
    "discard": pgettext_lazy("pile", "Discard pile"),
}


@functools.lru_cache(maxsize=64)
def pile_label(name: str, lang: str) -> str:
    """A pile's name translated into `lang` (the active language), cached: every phone's
    panel names the four."""
    return str(PILE_LABELS[name])


@functools.lru_cache(maxsize=256)
def hand_title(count: int, lang: str) -> str:
    """The title of a phone's hand ("Your hand · 7 cards") in `lang` (the active language),
    cached: a phone's hand is rendered with every change of it, and a plural
    {% blocktranslate %} costs as much as the rest of the hand."""
    return ngettext("Your hand · %(n)s card", "Your hand · %(n)s cards", count) % {"n": count}


def set_words(sets) -> str:
    """[[11], [7, 4]] → '11 · 7+4'."""
    return " · ".join("+".join(map(str, cards)) for cards in sets)


def someone(names: dict, seat) -> str:
    return names.get(seat) or gettext("Someone")


def describe(action: dict, name: str | None) -> str:
    """One logged action of either mode in words, in the active language."""
    kind = action.get("type")
    who = name or gettext("Someone")
    if kind == "start":
        return gettext("The game started.")
    if kind == "draw":
        return draw_line(who, action["from"])
    if kind == "discard":
        return _("%(who)s discarded %(value)s ×%(count)s.") % {
            "who": who,
            "value": action["value"],
            "count": action["count"],
        }
    if kind == "cross":
        sets = action["sets"] if isinstance(action.get("sets"), int) else len(action["sets"])
        return _("%(who)s crossed %(value)s ×%(sets)s.") % {
            "who": who,
            "value": action["value"],
            "sets": sets,
        }
    if kind == "extra":
        return _("%(who)s placed an extra cross in row %(value)s.") % {
            "who": who,
            "value": action["value"],
        }
    if kind == "pass":
        return _("%(who)s drew or discarded.") % {"who": who}
    if kind == "undo":
        return _("%(who)s took back their last entry.") % {"who": who}
    if kind in companion.CORRECTIONS:
        return correction_line({"action": action, "seat": None}, {None: who})
    return _("%(who)s played.") % {"who": who}


def draw_line(who: str, sources: list[str]) -> str:
    if len(sources) == 1:
        return _("%(who)s drew a card %(from)s.") % {"who": who, "from": DRAWN_FROM[sources[0]]}
    first, second = sources
    if first == second:
        return _("%(who)s drew two cards %(from)s.") % {"who": who, "from": DRAWN_FROM[first]}
    return _("%(who)s drew a card %(from)s and another %(from2)s.") % {
        "who": who,
        "from": DRAWN_FROM[first],
        "from2": DRAWN_FROM[second],
    }


def correction_line(row: dict, names: dict) -> str:
    """A correction's step in the log: proposed (or made, on one's own sheet), confirmed,
    or turned down."""
    action, seat = row["action"], row["seat"]
    who = someone(names, seat)
    kind = action["type"]
    by = row.get("acted_by")
    if by is not None and by != seat and kind in ("confirm", "reject"):
        words = {"by": someone(names, by), "who": who}
        if kind == "confirm":
            return _("%(by)s confirmed the correction of %(who)s's sheet for them.") % words
        return _("%(by)s turned down the correction for %(who)s.") % words
    if kind == "confirm":
        return _("%(who)s confirmed the correction of their sheet.") % {"who": who}
    if kind == "reject":
        return _("%(who)s turned down the correction.") % {"who": who}
    words = {"who": who, "value": action["value"], "crosses": action["crosses"]}
    if action["seat"] == seat:
        return (
            ngettext(
                "%(who)s corrected their row %(value)s to %(crosses)s cross.",
                "%(who)s corrected their row %(value)s to %(crosses)s crosses.",
                action["crosses"],
            )
            % words
        )
    words["owner"] = someone(names, action["seat"])
    return (
        ngettext(
            "%(who)s proposed setting %(owner)s's row %(value)s to %(crosses)s cross.",
            "%(who)s proposed setting %(owner)s's row %(value)s to %(crosses)s crosses.",
            action["crosses"],
        )
        % words
    )


def describe_turns(rows: list[dict], names: dict, described, lang: str) -> list[str]:
    """Log lines of a digital table, oldest first, from its action rows (oldest first): a
    cross and the extra crosses it brought (T-C-BONUS) make one line. `described(action,
    name)`: any other action in words (the adapter's cache of `describe`)."""
    lines: list[str] = []
    cross = None  # the latest cross, while its extra crosses follow it
    for row in rows:
        action, seat = row["action"], row["seat"]
        kind = action.get("type")
        if kind == "extra" and cross is not None and cross["seat"] == seat:
            cross["extras"].append(action["value"])
            lines[-1] = cross_line(cross, names, lang)
            continue
        cross = None
        if kind == "start" and row.get("version", 1) > 1:
            lines.append(gettext("A new game was dealt."))
        elif kind == "cross":
            cross = {"seat": seat, "action": action, "extras": []}
            lines.append(cross_line(cross, names, lang))
        else:
            lines.append(described(action, names.get(seat)))
    return lines


def cross_line(cross: dict, names: dict, lang: str) -> str:
    action = cross["action"]
    sets = tuple(map(tuple, action["sets"]))
    return cross_words(
        lang, someone(names, cross["seat"]), action["value"], sets, tuple(cross["extras"])
    )


@functools.lru_cache(maxsize=4096)
def cross_words(lang: str, who: str, value: int, sets: tuple, extras: tuple[int, ...]) -> str:
    """A cross (and its chain) in words, cached per language (`lang`, the active one):
    every phone shows the latest log lines after every move."""
    words = {"who": who, "value": value, "sets": len(sets), "cards": set_words(sets)}
    if not extras:
        return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s).") % words
    words["rows"] = ", ".join(map(str, extras))
    return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s) and chained into %(rows)s.") % words


def hint_words(action: dict, lang: str) -> str:
    """What the computer would do (a hint: games.hints), as a phone says it: "Discard 5
    ×2", in the active language (`lang`)."""
    kind = action.get("type")
    if kind == "draw":
        piles = " + ".join(pile_label(name, lang) for name in action["from"])
        return _("Draw: %(piles)s") % {"piles": piles}
    if kind == "discard":
        return _("Discard %(value)s ×%(count)s") % {
            "value": action["value"],
            "count": action["count"],
        }
    if kind == "cross":
        return _("Cross %(value)s ×%(n)s: %(words)s") % {
            "value": action["value"],
            "n": len(action["sets"]),
            "words": set_words(action["sets"]),
        }
    if kind == "extra":
        return _("Extra cross in row %(value)s") % {"value": action["value"]}
    return describe(action, None)
