"""Triggs on the web: the adapter the shared layer asks (games.adapter).

Its panels are built from `view(state, seat)` and the engine's pure functions only
(T-A, T-B, T-C, T-C-BONUS, T-OBSOLETE-*, T-WIN); the engines stay free of Django.
"""

import functools
import itertools
import json
import secrets
from collections import Counter

from django import forms
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import fields as f
from games.adapter import GameWeb, ranking
from games.triggs import bots
from games.charts import Tally
from games.errors import Refused
from games.forms import first_seat, first_seat_error, first_seat_field
from games.render import draw
from games.template_loader import in_language
from games.templatetags.babel_tags import mean, num, part_of
from games.templatetags.rules_tags import sheet_row
from games.triggs import companion, engine
from games.triggs.sheet import ROW_SIZES, TOTAL_BOXES, open_boxes

# Sheets are drawn once per process for each thing they show, and shared by every phone
# and table: a row by (language, row, boxes crossed, what a tap does), another player's
# small sheet by (boxes crossed, name), and with their name, count and cards in hand
# (other_sheet) by language and all it shows. Each is a few hundred bytes.
DRAWN_SHEETS = 4096
SETS_MAX_LENGTH = 40

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


def set_words(sets: list[list[int]]) -> str:
    """[[11], [7, 4]] → '11 · 7+4'."""
    return " · ".join("+".join(map(str, cards)) for cards in sets)


def _sets_text(raw) -> list[list[int]]:
    """'11|7+4' → [[11], [7, 4]]; the engine judges the sets themselves."""
    if not isinstance(raw, str) or len(raw) > SETS_MAX_LENGTH:
        raise f.BadInput("sets")
    parts = raw.split("|")
    if len(parts) > max(engine.ROW_SIZES):  # more sets than any row has boxes (T-C-CAP)
        raise f.BadInput("sets")
    sets = []
    for part in parts:
        cards = part.split("+")
        if len(cards) > 2:
            raise f.BadInput("sets")
        sets.append([f.integer({"card": card}, "card", 1, 12) for card in cards])
    return sets


def _cards(fields) -> list[int]:
    """The hand's ticked cards."""
    raw = f.repeated(fields, "card", engine.HAND_LIMIT)
    return [f.integer({"card": item}, "card", 1, 12) for item in raw]


# A player's statistics (players.stats): what one turn is, by mode (T-A, T-B, T-C; a
# companion turn is an entry, a pass too, and is only counted with the turn marker on)
TURNS = {"digital": ("draw", "discard", "cross"), "companion": ("cross", "pass")}
STATS = {
    "turns": _("Turns to finish a game you won, on average"),
    "chain": _("Longest chain of extra crosses"),
    "forced": _("Discards forced by a full row"),
}

# the progress chart (games.charts): each player's crosses (T-SHEET, T-WIN)
CHART_TITLE = pgettext_lazy("chart", "Crosses per player")
CHART_UNIT = pgettext_lazy("chart axis", "turns with a cross")

PILE_LABELS = {
    "left": pgettext_lazy("pile", "Left"),
    "stock": pgettext_lazy("pile", "Stock"),
    "right": pgettext_lazy("pile", "Right"),
    "discard": pgettext_lazy("pile", "Discard pile"),
}


@functools.lru_cache(maxsize=64)
def _pile_label(name: str, lang: str) -> str:
    """A pile's name worded once per process and language: a lazy one is slow to word
    and to digest (games.template_inputs), and every phone's panel names the four."""
    return str(PILE_LABELS[name])


# The rules' names, the text of links to them (the rulebooks' own headings).
RULE_NAMES = {
    "T-DECK": pgettext_lazy("rule", "Contents"),
    "T-SHEET": pgettext_lazy("rule", "The score sheet"),
    "T-SETUP-1": pgettext_lazy("rule", "Setting up"),
    "T-SETUP-2": pgettext_lazy("rule", "Setting up"),
    "T-SETUP-3": pgettext_lazy("rule", "Who starts"),
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


class TriggsWeb(GameWeb):
    slug = "triggs"
    stylesheet = "css/triggs.css"
    rules_stylesheet = "css/triggs-rules.css"
    script = "js/triggs.js"
    # the regions a finished game's replay shows for every seat at once (a hand record)
    record_regions = {"digital": ("hand",)}
    regions = {
        "digital": (
            ("status", "play"),
            ("piles", "play"),
            ("hand", "play"),
            ("crosses", "play"),
            ("sheet", "play"),
            ("others", "players"),
        ),
        "companion": (
            ("status", "play"),
            ("entry", "play"),
            ("sheet", "play"),
            ("others", "players"),
            ("correct", "players"),
        ),
    }
    refusals = REFUSALS
    rule_names = RULE_NAMES
    bot_levels = {
        "greedy": (bots.greedy, pgettext_lazy("computer player level", "greedy")),
        "strong": (bots.strong, pgettext_lazy("computer player level", "strong")),
    }
    phrases = {
        "nice_chain": pgettext_lazy("phrase", "Nice chain!"),
        "so_close": pgettext_lazy("phrase", "So close!"),
        "lucky_draw": pgettext_lazy("phrase", "What a draw!"),
        "need_a_card": pgettext_lazy("phrase", "I need just one card…"),
        "race_on": pgettext_lazy("phrase", "The race is on!"),
        "good_set": pgettext_lazy("phrase", "Nice combination!"),
    }

    # -- input ---------------------------------------------------------------------------

    def parse(self, mode: str, fields) -> dict:
        kind = fields.get("kind")
        if kind == "extra":
            return {"type": "extra", "value": f.integer(fields, "value", 1, 12)}
        if kind == "cross" and "box" in fields:
            # a button of the play sheet ("<row>:<number of sets>") or of the digital
            # proposals ("<row>:<sets>", as in `_sets_text`)
            row, colon, sets = str(fields["box"]).partition(":")
            if not (colon and sets):
                raise f.BadInput("box")
            fields = {"value": row, "sets": sets}
        if mode == "companion":
            if kind == "cross":
                return {
                    "type": "cross",
                    "value": f.integer(fields, "value", 1, 12),
                    "sets": f.integer(fields, "sets", 1, 5),
                }
            if kind in ("pass", "undo", "confirm", "reject"):
                return {"type": kind}
            if kind == "correct":  # a correction of seat `target`'s row `value`
                return {
                    "type": "correct",
                    "seat": f.integer(fields, "target", 0, 3),
                    "value": f.integer(fields, "value", 1, 12),
                    "crosses": f.integer(fields, "crosses", 0, max(ROW_SIZES)),
                }
            raise f.BadInput("kind")
        if kind == "draw":
            first = f.choice(fields, "first", engine.PILE_NAMES)
            second = f.choice(fields, "second", engine.PILE_NAMES)
            if first is None:
                raise Refused("bad_sources", "T-A")
            return {"type": "draw", "from": [first] if second is None else [first, second]}
        if kind == "discard":
            cards = _cards(fields)
            if not cards:
                raise Refused("bad_count", "T-B")
            if len(set(cards)) > 1:
                raise Refused("mixed_values", "T-B")
            return {"type": "discard", "value": cards[0], "count": len(cards)}
        if kind == "cross":
            value = f.integer(fields, "value", 1, 12)
            if fields.get("sets") not in ("", None):
                return {"type": "cross", "value": value, "sets": _sets_text(fields["sets"])}
            cards = _cards(fields)
            if not cards:
                raise Refused("bad_sets", "T-C")
            try:
                sets = engine.sets_from_cards(value, cards)
            except engine.IllegalAction as error:
                raise Refused(error.code, error.rule) from None
            return {"type": "cross", "value": value, "sets": sets}
        raise f.BadInput("kind")

    # A digital draw takes two taps (T-A): the first pile is kept on the seat, which is
    # then committed to drawing, and the phone is shown what that first card uncovered.

    def wants_step(self, mode: str, fields) -> bool:
        return mode == "digital" and fields.get("kind") == "draw_first"

    def step(self, mode: str, state: dict, seat: int, fields) -> str:
        pile = f.choice(fields, "first", engine.PILE_NAMES)
        if pile is None:
            raise f.BadInput("first")
        error = engine.first_draw_refusal(state, seat, pile)
        if error is not None:
            raise Refused(error.code, error.rule)
        return pile

    def check_move(self, mode: str, pending: str | None, action: dict) -> None:
        if pending and not (
            action.get("type") == "draw"
            and type(action.get("from")) is list
            and action["from"][:1] == [pending]
        ):
            raise Refused("draw_committed", "T-A")

    # -- lobby ---------------------------------------------------------------------------

    def options(self) -> dict:
        return {
            "turn_marker": forms.BooleanField(
                label=_("Companion mode: show whose turn it is"), required=False, initial=True
            ),
            "first": first_seat_field(
                _("Companion mode: who plays first"),
                _("Play goes clockwise: sit around the table in seat order."),
            ),
        }

    def option_errors(self, mode: str, players: int, cleaned: dict) -> dict:
        return first_seat_error(cleaned, "first", players) if mode == "companion" else {}

    def config(self, mode: str, players: int, cleaned: dict) -> dict:
        config = {"players": players}
        if mode == "companion":
            config["turn_marker"] = bool(cleaned.get("turn_marker"))
            # the books draw the first player at random (the digital engine does so itself)
            first = first_seat(cleaned, "first", players)
            config["first"] = secrets.randbelow(players) if first is None else first
        return config

    # -- the panel -----------------------------------------------------------------------

    def board(self, mode, state, names) -> dict:
        if mode == "companion":
            return _companion_board(state, names)
        return _digital_board(state, names)

    def panel(self, mode, state, seat, names, pending) -> dict:
        if mode == "companion":
            return _companion(state, seat, names)
        return _digital(state, seat, names, pending)

    def ranking(self, mode, state, names) -> list[dict]:
        rules = companion if mode == "companion" else engine
        return _ranking(rules.view(state, None), names) if rules.is_over(state) else []

    def standings(self, mode, state) -> list[tuple[tuple[int, ...], int]]:
        rules = companion if mode == "companion" else engine
        if not rules.is_over(state):
            return []
        return [
            ((seat,), sum(sheet)) for seat, sheet in enumerate(rules.view(state, None)["sheets"])
        ]

    def facts(self, mode, state, seat, steps) -> dict[str, int]:
        turns = chain = longest = discards = forced = 0
        for step in steps():
            action = step.entry.action
            if step.entry.seat != seat:
                continue
            kind = action["type"]
            turns += kind in TURNS[mode]
            if kind == "undo":  # a companion entry taken back (its "last" says which)
                undone = (step.after.get("last") or {}).get("undone") or {}
                turns -= undone.get("type") in TURNS[mode]
            elif kind == "cross":
                chain = 0
            elif kind == "extra":  # T-C-BONUS: each extra cross of one cross's chain
                chain += 1
                longest = max(longest, chain)
            elif kind == "discard":  # T-B, digital: a value whose row is full is dead
                discards += 1
                forced += open_boxes(step.before["sheets"][seat], action["value"]) == 0
        # turns are only all in the log with a turn to take (digital, or the marker on)
        finished = state["winner"] == seat and (mode == "digital" or state["turn_marker"])
        return {
            "finished": int(finished),
            "turns": turns if finished else 0,
            "chain": longest,
            "discards": discards,
            "forced": forced,
        }

    def fact_lines(self, mode, facts) -> list[tuple[str, str]]:
        def total(key):
            return sum(game[key] for game in facts)

        lines = []
        if total("finished"):
            lines.append((STATS["turns"], mean(total("turns"), total("finished"))))
        lines.append((STATS["chain"], num(max(game["chain"] for game in facts))))
        if mode == "digital":
            discards = total("discards")
            lines.append(
                (STATS["forced"], part_of(total("forced"), discards) if discards else num(0))
            )
        return lines

    def tally(self, mode, state, names) -> Tally | None:
        # a chain of extra crosses (T-C-BONUS) belongs to the turn of its cross
        if state["pending_extra"]:
            return None
        return Tally(
            series=tuple((names.get(seat, ""),) for seat in range(state["players"])),
            values=tuple(map(sum, state["sheets"])),
            top=TOTAL_BOXES,
            target=None,
            unit=CHART_UNIT,
            title=CHART_TITLE,
        )

    # -- the log -------------------------------------------------------------------------

    def log_rows(self, mode: str) -> int:
        # a digital cross and its extra crosses are one line: enough rows for a few chains
        return self.log_length * 4 if mode == "digital" else self.log_length

    def log_lines(self, mode: str, rows: list[dict], names: dict) -> list[str]:
        if mode != "digital":
            lang = translation.get_language()
            return [
                _correction_line(row, names)
                if row["action"].get("type") in companion.CORRECTIONS
                else self.described(mode, row["action"], names.get(row["seat"]), lang)
                for row in rows[: self.log_length]
            ]
        # from the newest rows back to the log_length-th that starts a line (any but an
        # extra cross, which joins the line of the cross before it)
        starts, first = 0, len(rows)
        for i, row in enumerate(rows):
            if row["action"].get("type") != "extra":
                starts, first = starts + 1, i + 1
                if starts == self.log_length:
                    break
        return describe_turns(rows[:first][::-1], names)[-self.log_length :][::-1]

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        kind = action.get("type")
        who = name or str(_("Someone"))
        if kind == "start":
            return str(_("The game started."))
        if kind == "draw":
            return _draw_line(who, action["from"])
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
            return _correction_line({"action": action, "seat": None}, {None: who})
        return _("%(who)s played.") % {"who": who}


adapter = TriggsWeb()


def describe_turns(rows: list[dict], names: dict) -> list[str]:
    """Log lines of a digital table, oldest first, from its action rows (oldest first): a
    cross and the extra crosses it brought (T-C-BONUS) make one line."""
    lines: list[str] = []
    lang = translation.get_language()
    cross = None  # the latest cross, while its extra crosses follow it
    for row in rows:
        action, seat = row["action"], row["seat"]
        kind = action.get("type")
        if kind == "extra" and cross is not None and cross["seat"] == seat:
            cross["extras"].append(action["value"])
            lines[-1] = _cross_line(cross, names, lang)
            continue
        cross = None
        if kind == "start" and row.get("version", 1) > 1:
            lines.append(str(_("A new game was dealt.")))
        elif kind == "cross":
            cross = {"seat": seat, "action": action, "extras": []}
            lines.append(_cross_line(cross, names, lang))
        else:
            lines.append(adapter.described("digital", action, names.get(seat), lang))
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


def _cross_line(cross: dict, names: dict, lang: str) -> str:
    action = cross["action"]
    who = names.get(cross["seat"]) or str(_("Someone"))
    sets = tuple(map(tuple, action["sets"]))
    return _cross_words(lang, who, action["value"], sets, tuple(cross["extras"]))


@functools.lru_cache(maxsize=4096)
def _cross_words(lang: str, who: str, value: int, sets: tuple, extras: tuple[int, ...]) -> str:
    """A cross (and its chain) in words, once per process and language: every phone draws
    the latest log lines after every move."""
    words = {"who": who, "value": value, "sets": len(sets), "cards": set_words(sets)}
    if not extras:
        return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s).") % words
    words["rows"] = ", ".join(map(str, extras))
    return _("%(who)s crossed %(value)s ×%(sets)s (%(cards)s) and chained into %(rows)s.") % words


# -- panels ------------------------------------------------------------------------------


def _others(view: dict, names: dict, turn_of, lang: str) -> list[str]:
    """Every player's small sheet, as `other_sheet` draws it: the same for every phone at
    the table (the page's style hides the phone's own, which its sheet shows: `data-me`,
    games.render.live_html)."""
    return [
        other_sheet(
            lang,
            seat,
            names.get(seat, ""),
            tuple(crossed),
            view["hand_sizes"][seat] if "hand_sizes" in view else None,
            bool(turn_of(seat)),
        )
        for seat, crossed in enumerate(view["sheets"])
    ]


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def hand_cards(hand: tuple[int, ...], playing: bool) -> str:
    """The cards of the phone's own hand: to tick (`playing`) or only to see. Drawn once
    per process for each hand, whatever the language, and shared by every phone: the
    hand's template drew them one by one with each update of its region. A plain str,
    written with |safe."""
    return draw("games/triggs/_hand_cards.html", {"hand": hand, "playing": playing}).strip()


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def row_options(rows: tuple[int, ...]) -> str:
    """The rows still open, as the options of the hand's list of rows to cross: written
    once per process for each set of rows (a loop of template nodes cost 0.1 ms with each
    update of the hand's region). Numbers only: nothing to escape."""
    return "".join(f'<option value="{value}">{value}</option>' for value in rows)


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def cross_row(lang: str, value: int, sets: tuple[tuple[int, ...], ...], room: int) -> str:
    """A row's proposals to cross in one tap (T-C, T-C-CAP): a button for each number of
    the engine's `sets` that fits the row, the one that fills it (`room`) starred. Drawn
    once per process for each language and content and shared by every phone: the
    proposals' template looped over every row and option with each update of its region
    (0.3 ms). A plain str, written with |safe."""
    options = [
        {
            "count": k,
            "words": set_words(sets[:k]),
            "field": "|".join("+".join(map(str, cards)) for cards in sets[:k]),
            "fills": k == room,
        }
        for k in range(1, len(sets) + 1)
    ]
    with in_language(lang):
        html = draw("games/triggs/_cross_row.html", {"row": {"value": value, "options": options}})
    return html.strip()


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def pile_slot(
    name: str,
    label: str,
    top: int | None,
    count,
    face_up: bool = True,
    drawable: bool = False,
    second: bool = False,
    uncovered: bool = False,
) -> str:
    """One pile of a digital table (a part of the piles' region): its top card or back,
    its name (`label`, worded) and count, a button when it can be drawn from (`second`:
    the draw's second card); `uncovered`: its top is what the first card taken uncovered.
    Drawn once per process for each content and shared by every phone: a move changes one
    or two piles' counts, and the others are not drawn again. A plain str, written with
    |safe (as `other_sheet`)."""
    pile = {
        "name": name,
        "label": label,
        "top": top,
        "count": count,
        "face_up": face_up,
        "drawable": drawable,
        "second": second,
        "uncovered": uncovered,
        "discard": name == "discard",
    }
    return draw("games/triggs/_pile.html", {"pile": pile})


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def other_sheet(
    lang: str, seat: int, name: str, crossed: tuple[int, ...], hand_size: int | None, turn: bool
) -> str:
    """Another player's name, count, cards in hand and small sheet (a part of the others'
    region): drawn once per process for each language and content, and shared by every
    phone and table. Each move changes two or three players' (the cards in hand, whose
    turn it is), in each language at the table: written here, as `mini_sheet`, its two
    phrases worded by the catalogue (0.03 ms, where a template took about 0.1 ms). A plain
    str, written with |safe: the others' region digests the list with every update of a
    phone (games.template_inputs), and a SafeString takes seven times longer to pickle."""
    with in_language(lang):
        hand = (
            ""
            if hand_size is None
            else '<br><span class="hand-size">'
            + escape(ngettext("%(n)s card in hand", "%(n)s cards in hand", hand_size))
            % {"n": hand_size}
            + "</span>"
        )
        theirs = " · " + escape(gettext("their turn")) if turn else ""
    return (
        f'<!--part--><li id="other-{seat}" class="other{" their-turn" if turn else ""}">'
        f'<p class="other-name">{escape(name)} · <strong>'
        f"{sum(crossed)}/{TOTAL_BOXES}</strong>{hand}{theirs}</p>"
        f"{mini_sheet(crossed, name)}</li><!--/part-->"
    )


def _ranking(view: dict, names: dict) -> list[dict]:
    """Once a sheet is full (T-WIN): every player, most boxes crossed first."""
    return ranking(
        [
            {"name": names.get(seat, ""), "score": sum(sheet), "words": f"{sum(sheet)}/42"}
            for seat, sheet in enumerate(view["sheets"])
        ]
    )


def _correction_line(row: dict, names: dict) -> str:
    """A correction's step in the log: proposed (or made, on one's own sheet), confirmed,
    or turned down."""
    action, seat = row["action"], row["seat"]
    who = names.get(seat) or str(_("Someone"))
    kind = action["type"]
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
    words["owner"] = names.get(action["seat"]) or str(_("Someone"))
    return (
        ngettext(
            "%(who)s proposed setting %(owner)s's row %(value)s to %(crosses)s cross.",
            "%(who)s proposed setting %(owner)s's row %(value)s to %(crosses)s crosses.",
            action["crosses"],
        )
        % words
    )


def _correction(view: dict, names: dict, me, answers: list[dict]) -> dict | None:
    """The correction waiting for its answer, as this phone sees it."""
    pending = view.get("correction")
    if pending is None:
        return None
    owner, value = pending["seat"], pending["value"]
    return {
        "by_name": names.get(pending["by"], ""),
        "owner_name": names.get(owner, ""),
        "value": value,
        "before": view["sheets"][owner][value - 1],
        "after": pending["crosses"],
        "mine": me == owner,
        "can_confirm": {"type": "confirm"} in answers,
        "can_reject": {"type": "reject"} in answers,
    }


def _companion_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a companion table: every player's small sheet, whose
    turn it is, the end."""
    view = companion.view(state, None)
    over = companion.is_over(state)
    marker = view["turn_marker"]
    to_act = companion.to_act(state)
    return {
        "others": _others(
            view, names, lambda s: marker and not over and s in to_act, translation.get_language()
        ),
        "over": over,
        "row_values": tuple(engine.VALUES),  # a range is slow to digest
        "cross_counts": tuple(range(max(ROW_SIZES) + 1)),  # a range is slow to digest
    }


def _companion(state: dict, me, names: dict) -> dict:
    """Rows of the phone's own sheet with what each box does when tapped (T-C, T-C-BONUS),
    besides what every seat sees (`_companion_board`)."""
    view = companion.view(state, me)
    lang = translation.get_language()  # once: looking it up costs 4 µs
    acting = me in companion.to_act(state)
    placing_extra = acting and view.get("extra_seat") == me
    can_cross = acting and not placing_extra
    sheet = view["sheets"][me] if me is not None else None
    over = companion.is_over(state)
    # the boxes stay buttons whoever's turn it is (the engine refuses a cross out of turn,
    # with its reason): a row is redrawn only when it is crossed
    tappable = not over and not placing_extra
    rows = (
        _sheet_rows(sheet, lang, cross=tappable, extra=placing_extra) if sheet is not None else ""
    )
    sheet_kind = _sheet_kind(tappable, placing_extra) if sheet is not None else None
    marker = view["turn_marker"]
    answers = companion.correction_answers(state, me) if me is not None else []
    return {
        "view": view,
        "rows": rows,
        "sheet_kind": sheet_kind,
        "correction": _correction(view, names, me, answers),
        # the sheets a seated player may correct: every seat's, its own first
        "correctable": []
        if me is None
        else sorted(
            ({"index": i, "name": names.get(i, "")} for i in range(view["players"])),
            key=lambda seat: seat["index"] != me,
        ),
        "my_total": sum(sheet) if sheet else 0,
        "watching": me is None,
        # what the entry region asks, rather than the whole view (it is drawn again
        # whenever what it reads changes)
        "can_cross": can_cross,
        "placing_extra": placing_extra,
        # the status line (games/triggs/_status.html), drawn once per content
        "status": {
            "phase": view["phase"],
            "obsolete": view["obsolete"],
            "winner_name": names.get(view.get("winner")),
            "ranking": _ranking(view, names) if over else [],
            "placing_extra": placing_extra,
            "extra_name": names.get(view.get("extra_seat")),
            "turn_name": names.get(view["turn"]) if marker else None,
            "can_cross": can_cross,
        },
        "can_pass": can_cross and marker,
        "can_undo": me is not None and view.get("can_undo") == me,
    }


def _can_draw(state: dict, seat: int, sources: list[str]) -> bool:
    try:
        engine.apply(state, seat, {"type": "draw", "from": sources})
    except engine.IllegalAction:
        return False
    return True


def _digital(state: dict, me, names: dict, pending: str | None) -> dict:
    """The table from one seat's view, besides what every seat sees (`_digital_board`):
    its hand and the choices it has now (the cross proposals are the engine's), its
    sheet, the piles when it may draw."""
    view = engine.view(state, me)
    hand = view.get("hand")
    sheet = view["sheets"][me] if me is not None else None
    to_act = engine.to_act(state)
    my_turn = me is not None and me in to_act
    placing_extra = my_turn and view.get("pending_extra", 0) > 0
    # committed to drawing: no discard or cross until the second card
    draw_step = engine.draw_preview(state, me, pending) if pending and my_turn else None
    draw_count = view.get("draw_count", 0)
    playing = my_turn and not placing_extra and not draw_step
    lang = translation.get_language()
    crossable = engine.cross_options(view) if playing else []
    crosses = tuple(  # each row's proposals drawn ahead
        cross_row(lang, option["value"], tuple(map(tuple, option["sets"])), option["room"])
        for option in crossable
    )
    rooms = [engine.ROW_SIZES[v] - sheet[v - 1] for v in engine.VALUES] if sheet else []
    return {
        "view": view,
        "hand": hand,
        "hand_cards": hand_cards(tuple(hand), playing) if hand is not None else "",
        "my_turn": my_turn,
        "playing": playing,
        "placing_extra": placing_extra,
        "draw_step": draw_step,
        "draw_count": draw_count if (playing or draw_step) else 0,
        # the piles as buttons, for a seat that may draw (else the board's)
        "piles": _piles(state, view, me, draw_step, lang) if draw_count or draw_step else None,
        "crosses": crosses,
        "row_options": row_options(tuple(v for v, room in enumerate(rooms, start=1) if room)),
        # what each choice of ticked cards can do, for the hand's buttons (static/js/triggs.js)
        "ways": _ways(hand, crossable) if playing else "{}",
        "rows": _sheet_rows(sheet, lang, extra=placing_extra) if sheet else "",
        "sheet_kind": _sheet_kind(False, placing_extra) if sheet else None,
        "my_total": sum(sheet) if sheet else 0,
        "watching": me is None,
    }


def _piles(state: dict, view: dict, me, draw_step: dict | None, lang: str) -> list[str]:
    """The piles as `view`'s seat sees them: a draw is offered from any pile that has
    cards or can be refilled (T-REFILL) while it may draw, the engine judging the rest;
    the second card of a draw (`draw_step`) from a pile the engine lets the draw end on."""
    piles, draw_count = view["piles"], view.get("draw_count", 0)
    refill = view["discard"]["count"] > 0  # an empty pile takes the discard pile (T-REFILL)
    taken = draw_step["pile"] if draw_step else None
    pile_list = []
    for name in engine.PILE_NAMES:
        count, face_up = piles[name]["count"], name != "stock"
        top = piles[name].get("top")
        if taken:
            drawable = _can_draw(state, me, [taken, name])
        else:
            drawable = bool(draw_count) and (count > 0 or refill)
        if name == taken:  # a first card taken is no longer counted in its pile
            count = count - 1 if count else "—"
            top = draw_step["uncovered"] if face_up else top
        label, uncovered = _pile_label(name, lang), name == taken and face_up
        pile_list.append(
            pile_slot(name, label, top, count, face_up, drawable, bool(taken), uncovered)
        )
    discard = view["discard"]
    pile_list.append(
        pile_slot("discard", _pile_label("discard", lang), discard["top"], discard["count"])
    )
    return pile_list


def _digital_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a digital table: the piles (as no one draws from
    them), the cards out of the game, every player's small sheet, whose turn it is, the
    end."""
    view = engine.view(state, None)
    lang = translation.get_language()
    to_act = engine.to_act(state)
    return {
        "piles": _piles(state, view, None, None, lang),
        "box_count": len(view["box"]),
        "others": _others(view, names, lambda s: s in to_act, lang),
        "turn_name": names.get(view["turn"]),
        "winner_name": names.get(view.get("winner")),
        "ranking": _ranking(view, names) if engine.is_over(state) else [],
    }


def _ways(hand: list[int], crossable: list[dict]) -> str:
    """Ticked cards (sorted, "4,5") → {"discard": 1} if they are of one value (T-B), and
    "cross": [[value, "4+5"], ...] for each row they can cross and the sets they make
    there: every choice among the engine's most sets for that row (T-C, T-C-CAP), as JSON
    ready for an HTML attribute in single quotes."""
    ways: dict[str, dict] = {}
    for value, count in Counter(hand).items():
        for n in range(1, count + 1):
            ways.setdefault(",".join([str(value)] * n), {})["discard"] = 1
    for option in crossable:
        kinds = Counter(tuple(cards) for cards in option["sets"])
        types = sorted(kinds)
        for counts in itertools.product(*(range(kinds[kind] + 1) for kind in types)):
            sets = [kind for kind, n in zip(types, counts, strict=True) for _ in range(n)]
            if not sets:
                continue
            key = ",".join(map(str, sorted(card for cards in sets for card in cards)))
            field = "|".join("+".join(map(str, cards)) for cards in sets)
            ways.setdefault(key, {}).setdefault("cross", []).append([option["value"], field])
    # for an attribute in single quotes (_digital.html): its double quotes stay as they
    # are, not each sent as six characters; it holds only numbers, "+", "|" and two
    # words, and "&" and "'" are escaped all the same
    text = json.dumps(ways, separators=(",", ":"))
    return text.replace("&", "&amp;").replace("'", "&#39;")


def _sheet_rows(sheet: list[int], lang: str, cross: bool = False, extra: bool = False) -> str:
    """A sheet's rows for the tappable play-sheet grid (T-C, T-C-BONUS): with `cross`, each
    open box is a button crossing up to it; with `extra`, the first open box of each open
    row is a button for an extra cross."""
    kind = _sheet_kind(cross, extra)
    return "".join(  # rows drawn from templates, their text escaped there
        play_row(lang, value, done, kind if done < engine.ROW_SIZES[value] else None)
        for value, done in zip(engine.VALUES, sheet, strict=True)
    )


def _sheet_kind(cross: bool, extra: bool) -> str | None:
    """What the play sheet's buttons send (its form's `kind`), None if it has none."""
    return "cross" if cross else "extra" if extra else None


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def play_row(lang: str, value: int, done: int, mode: str | None) -> str:
    """One row of the play sheet; with `mode` ("cross" or "extra") its boxes are buttons
    of the sheet's form: a cross sends `box` "<row>:<sets>" (sets = the open boxes up to
    the one tapped), an extra cross the row's `value`."""
    boxes = [
        {
            "crossed": i < done,
            "kind": mode if (i >= done if mode == "cross" else i == done) else None,
            "sets": i - done + 1,
        }
        for i in range(engine.ROW_SIZES[value])
    ]
    with in_language(lang):
        return draw("games/triggs/_play_row.html", {"row": sheet_row(value, done, boxes)})


@functools.lru_cache(maxsize=DRAWN_SHEETS)
def mini_sheet(crossed: tuple[int, ...], name: str) -> str:
    """Another player's sheet, small and read-only: per row its number, a ✕ per crossed
    box and a dot per open one, and the count. It has no words, so one drawing serves
    every language (the name is the caller's, in its language, and escaped). Numbers and
    marks only, so written here: one is drawn for every cross, and a template's loop over
    the rows took 0.24 ms where this takes 7 µs. Without the cells' and rows' end tags,
    which HTML does not need: every phone is sent every player's sheet (the page hides
    its own), and they were a third of its bytes."""
    full = ' class="full"'
    rows = "".join(
        f"<tr{full if done == size else ''}><th>{value}"
        f"<td>{'✕' * done}{'·' * (size - done)}<td>{done}/{size}"
        for value, size, done in zip(engine.VALUES, engine.ROW_SIZES[1:], crossed, strict=True)
    )
    return mark_safe(f'<table class="mini-sheet" aria-label="{escape(name)}">{rows}</table>')
