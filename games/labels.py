"""Translated names for what the engines speak of in codes and ids.

Card figures and colours (D-DECK), and — as the engines grow — their error codes
and action kinds. Everything here is lazy so it follows the active language.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

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


PASS = _("pass")

# Why a request was refused: the table layer's codes and the engines' codes
# (games/*/errors.py CODES). Each sentence is shown with a link to its rule.
REFUSALS = {
    # the table layer
    "stale": _("Someone else played first: here is the table as it is now. Try again."),
    "not_playing": _("The game has not started yet."),
    "table_closed": _("This table has been closed."),
    "seat_taken": _("That seat has just been taken. Pick another one."),
    "seat_not_yours": _("This phone does not hold that seat."),
    "not_host": _("Only the host can do that."),
    "seats_missing": _("Every seat needs a player before the game can start."),
    "already_started": _("The game has already started."),
    "bad_request": _("That request was not understood. Nothing was changed."),
    "too_large": _("That message is too large. Nothing was changed."),
    "slow_down": _("Too many messages at once: wait a moment and try again."),
    "bad_name": _("Enter a name of 1 to 24 characters."),
    "bad_players": _("Choose 2, 3 or 4 players."),
    "bad_target": _("Choose a target between 10 and 500 points."),
    "busy": _("The site is busy: please try again."),
    "no_such_table": _("There is no table with that code. Check the six characters."),
    "bad_handover": _("This link has already been used or has been replaced."),
    "draw_committed": _("You have taken your first card: take the second one to finish your draw."),
    "bad_seat": _("There is no such seat at this table."),
    "bots_digital_only": _("Computer players can only sit at digital tables."),
    "game_not_over": _("A new game can be dealt once this one is over."),
    # both engines
    "bad_config": _("The table's settings are not valid."),
    "bad_action": _("That move is not understood. Nothing was changed."),
    "unknown_action": _("That move is not understood. Nothing was changed."),
    "missing_field": _("That move is incomplete. Nothing was changed."),
    "unexpected_field": _("That move has unexpected parts. Nothing was changed."),
    "game_over": _("The game is over."),
    "not_your_turn": _("It is not your turn."),
    "wrong_phase": _("That is not possible at this stage of the game."),
    # Triggs
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
    # TriumfDrez
    "bad_tricks": _("A bid names from 1 to 13 tricks."),
    "bad_trump": _("Choose a trump figure, or no trump."),
    "bad_supertrump": _("Choose a super-trump colour from 1 to 9, or none."),
    "must_bid": _("The first bidder cannot pass and must bid."),
    "bid_too_low": _(
        "That bid does not beat the current one: bid more tricks, or as many but open, "
        "or as many dropping more of trump and super-trump."
    ),
    "unknown_card": _("There is no such card."),
    "card_not_in_hand": _("You do not hold that card."),
    "must_follow": _("You hold a card of the led figure: you must play one."),
    "neutral_not_allowed": _(
        "A neutral card may only be led, or played when you hold no card of the led figure."
    ),
    "bad_result": _("Enter the tricks won by the declaring side, from 0 to 13."),
    "no_hand_to_undo": _("No hand has been recorded yet."),
    "no_bid_to_undo": _("There is no bid to take back."),
}


def refusal(error, game: str | None = None) -> dict:
    """A refusal as shown to a phone: its sentence and, if any, the rule it enforces."""
    from django.urls import reverse

    rule = getattr(error, "rule", None)
    message = REFUSALS.get(error.code, REFUSALS["bad_request"])
    url = None
    if rule:
        slug = "triggs" if rule.startswith("T-") else "triumfdrez"
        url = f"{reverse('rules', kwargs={'game': slug})}#{rule}"
    return {"code": error.code, "message": message, "rule": rule, "rule_url": url}


def bid_words(action: dict) -> str:
    trump = action.get("trump")
    supertrump = action.get("supertrump")
    parts = [
        ngettext("%(n)s trick", "%(n)s tricks", action["tricks"]) % {"n": action["tricks"]},
        f"{FIGURE_SYMBOLS[trump]} {FIGURE_NAMES[trump]}" if trump else str(_("no trump")),
        f"{supertrump} {COLOUR_NAMES[supertrump]}" if supertrump else str(_("no super-trump")),
    ]
    if action.get("open"):
        parts.append(str(_("open")))
    return " · ".join(parts)


# Computer players (games.autoplay levels): a seat's name is worded when it is shown.
BOT_LEVELS = {
    "greedy": pgettext_lazy("computer player level", "greedy"),
    "strong": pgettext_lazy("computer player level", "strong"),
    "heuristic": pgettext_lazy("computer player level", "steady"),
    "random": pgettext_lazy("computer player level", "random"),
}


def bot_name(index: int, level: str) -> str:
    """'Computer 2 (strong)' for the bot on seat index 1."""
    return _("Computer %(n)s (%(level)s)") % {"n": index + 1, "level": BOT_LEVELS.get(level, "")}


# Where a Triggs card is drawn from (T-A), as said after a verb of taking.
DRAWN_FROM = {
    "left": _("from the left pile"),
    "stock": _("from the stock"),
    "right": _("from the right pile"),
}


def set_words(sets: list[list[int]]) -> str:
    """[[11], [7, 4]] → '11 · 7+4'."""
    return " · ".join("+".join(map(str, cards)) for cards in sets)


def describe_turns(rows: list[dict], names: dict) -> list[str]:
    """Log lines of a digital Triggs table, oldest first, from its action rows (oldest
    first): a cross and the extra crosses it brought (T-C-BONUS) make one line."""
    lines: list[str] = []
    cross = None  # the latest cross, while its extra crosses follow it
    for row in rows:
        action, seat = row["action"], row["seat"]
        kind = action.get("type")
        if kind == "extra" and cross is not None and cross["seat"] == seat:
            cross["extras"].append(action["value"])
            lines[-1] = _cross_line(cross, names)
            continue
        cross = None
        who = names.get(seat) or str(_("Someone"))
        if kind == "start" and row.get("version", 1) > 1:
            lines.append(str(_("A new game was dealt.")))
        elif kind == "draw":
            lines.append(_draw_line(who, action["from"]))
        elif kind == "discard":
            lines.append(
                _("%(who)s discarded %(value)s ×%(count)s.")
                % {"who": who, "value": action["value"], "count": action["count"]}
            )
        elif kind == "cross":
            cross = {"seat": seat, "action": action, "extras": []}
            lines.append(_cross_line(cross, names))
        else:
            lines.append(describe("triggs", action, names.get(seat)))
    return lines


def _draw_line(who: str, sources: list[str]) -> str:
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


def _cross_line(cross: dict, names: dict) -> str:
    action = cross["action"]
    words = {
        "who": names.get(cross["seat"]) or str(_("Someone")),
        "value": action["value"],
        "sets": len(action["sets"]),
        "cards": set_words(action["sets"]),
    }
    if not cross["extras"]:
        return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s).") % words
    words["rows"] = ", ".join(map(str, cross["extras"]))
    return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s) and chained into %(rows)s.") % words


def describe(game: str, action: dict, name: str | None) -> str:
    """One line of a table's log, in the active language."""
    kind = action.get("type")
    who = name or str(_("Someone"))
    if kind == "start":
        return str(_("The game started."))
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
    if kind == "pass" and game == "triggs":
        return _("%(who)s drew or discarded.") % {"who": who}
    if kind == "pass":
        return _("%(who)s entered a pass.") % {"who": who}
    if kind == "undo":
        return _("%(who)s took back their last entry.") % {"who": who}
    if kind == "bid":
        return _("%(who)s entered a bid: %(bid)s.") % {"who": who, "bid": bid_words(action)}
    if kind == "contract":
        return _("%(who)s entered the contract: %(bid)s.") % {"who": who, "bid": bid_words(action)}
    if kind == "result":
        return _("%(who)s entered %(tricks)s tricks for the declaring side.") % {
            "who": who,
            "tricks": action["tricks"],
        }
    if kind == "undo_bid":
        return _("%(who)s took back the last bid.") % {"who": who}
    if kind == "undo_hand":
        return _("%(who)s took back the last hand.") % {"who": who}
    return _("%(who)s played.") % {"who": who}


def card_words(card_id: str) -> str:
    """'knight-9' → '♞ Knight 9 (green)': symbol, figure, number and colour, never one alone."""
    figure, number = parse_card(card_id)
    if figure == "neutral":
        return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]}"
    return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]} {number} ({COLOUR_NAMES[number]})"


# Why the winning card of a trick won (D-RANK), by the strength it had.
TRICK_REASONS = {
    "best": _("the trump figure in the super-trump colour, the strongest card"),
    "supertrump": _("the super-trump colour, highest figure first"),
    "trump": _("the highest card of the trump figure"),
    "led": _("the highest card of the led figure"),
    "leader": _("only neutral cards: the leader takes it"),
}


def describe_triumfdrez_digital(action: dict, name: str | None) -> str:
    """One line of a digital TriumfDrez table's log (D-AUCTION, D-PLAY)."""
    kind = action.get("type")
    who = name or str(_("Someone"))
    if kind == "start":
        return str(_("The cards were dealt."))
    if kind == "bid":
        return _("%(who)s bid %(bid)s.") % {"who": who, "bid": bid_words(action)}
    if kind == "pass":
        return _("%(who)s passed.") % {"who": who}
    if kind == "play":
        return _("%(who)s played %(card)s.") % {"who": who, "card": card_words(action["card"])}
    if kind == "next_hand":
        return _("%(who)s dealt the next hand.") % {"who": who}
    return describe("triumfdrez", action, name)
