"""Triggs on the web: the adapter the shared layer asks (games.adapter), its jobs in
modules of their own: reading a phone's fields (parse), the table's screens as data for
the templates (screens), the log and refusals in words (words), statistics, standings
and the chart (stats). The engines stay free of Django."""

import secrets

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import labels, thinking
from games.adapter import GameWeb
from games.charts import Tally
from games.forms import first_seat, first_seat_error, first_seat_field
from games.triggs import bots, companion, search
from games.triggs.web import parse, screens, stats, words

# What each region's template reads of the context (GameWeb.regions), checked by
# tests/web/test_triggs_regions.py; "host" and "table.code" for the rematch form.
STATUS_DIGITAL = (
    "board.phase",
    "board.obsolete",
    "board.winner_name",
    "board.ranking",
    "board.turn_name",
    "panel.placing_extra",
    "panel.my_turn",
    "host",
    "table.code",
)
PILES = (
    "board.piles",
    "board.obsolete",
    "board.box_count",
    "panel.piles",
    "panel.draw_step",
    "panel.draw_count",
)
HAND = (
    "panel.hand",
    "panel.hand_cards",
    "panel.hand_title",
    "panel.playing",
    "panel.ways",
    "panel.open_rows",
    "panel.hint_discard",
)
# every seat round the table (the style hides the phone's own), their phones
# (`seat_states`) and the turn clock too
RING = ("board.ring", "board.total_boxes", "seat_states", "clock")
SHEET = ("panel.rows", "panel.my_total", "panel.sheet_kind", "panel.for_name")
# every seat's sheet (the style hides the phone's own)
OTHERS = ("board.others", "board.total_boxes", "panel.watching")
ENTRY = (
    "panel.correction",
    "panel.can_pass",
    "panel.can_undo",
    "board.over",
    "seated",
    "host",
    "table.code",
)
CORRECT = ("panel.correctable", "board.row_values", "board.cross_counts")


class TriggsWeb(GameWeb):
    slug = "triggs"
    stylesheet = "css/triggs.css"
    rules_stylesheet = "css/triggs-rules.css"
    centre_stylesheet = "css/triggs-centre.css"
    script = "js/triggs.js"
    # the regions a finished game's replay shows for every seat at once (a hand record)
    record_regions = {"digital": ("hand",)}
    regions = {
        "digital": (
            ("status", "play", STATUS_DIGITAL),
            ("ring", "play", RING),
            ("piles", "play", PILES),
            ("crosses", "play", ("panel.crosses",)),
            ("sheet", "play", SHEET),
            # the hand last: at the bottom of the screen, in thumb reach
            ("hand", "play", HAND),
            ("others", "players", OTHERS),
        ),
        "companion": (
            ("status", "play", ("panel.status", "panel.for_name")),
            ("entry", "play", ENTRY),
            ("sheet", "play", SHEET),
            ("others", "players", OTHERS),
            ("correct", "players", CORRECT),
        ),
    }
    # the table-centre screen (a TV's view, games.render.centre_screen): whose turn and the
    # winner in large type, then every sheet side by side (games/triggs/_centre.html)
    centre = {
        "digital": (
            ("status", "centre", ("board.turn_name", "board.winner_name", "board.ranking")),
            ("sheets", "centre", ("board.others", "board.total_boxes")),
        ),
        "companion": (
            ("status", "centre", ("panel.status",)),
            ("sheets", "centre", ("board.others", "board.total_boxes")),
        ),
    }
    refusals = words.REFUSALS
    rule_names = words.RULE_NAMES
    bot_levels = {
        "greedy": (bots.greedy, pgettext_lazy("computer player level", "greedy")),
        "strong": (bots.strong, pgettext_lazy("computer player level", "strong")),
        "hard": (thinking.Thinker(search.hard), pgettext_lazy("computer player level", "hard")),
    }
    bot_level_notes = {
        "greedy": _("Crosses as many boxes as it can, turn by turn."),
        "strong": _("Plans to empty its hand and to set off chains of extra crosses."),
        "hard": _("Thinks ahead over many possible deals of the cards it cannot see."),
    }
    # hints (games.hints): the hard level's choice from the seat's view
    hint_player = staticmethod(search.hard)
    phrases = {
        "nice_chain": pgettext_lazy("phrase", "Nice chain!"),
        "so_close": pgettext_lazy("phrase", "So close!"),
        "lucky_draw": pgettext_lazy("phrase", "What a draw!"),
        "need_a_card": pgettext_lazy("phrase", "I need just one card…"),
        "race_on": pgettext_lazy("phrase", "The race is on!"),
        "good_set": pgettext_lazy("phrase", "Nice combination!"),
    }

    # -- the review after a game (games.review) --------------------------------------------

    review_budget = {"digital": search.REVIEW}
    least_cost = 0.05  # five points of the chance to win: less is the noise of the deals

    def judge(self, mode: str):
        return search.judge if mode == "digital" else None

    def review_words(self, mode: str, action: dict, name: str) -> str:
        """A cross with the cards of its sets, as the digital log words it."""
        if action.get("type") != "cross":
            return self.describe(mode, action, name)
        sets = tuple(map(tuple, action["sets"]))
        lang = translation.get_language()
        return words.cross_words(lang, name, action["value"], sets, ())

    def cost_words(self, mode: str, cost: float) -> str:
        """A chance to win lost, in points of percentage."""
        return _("%(chance)s%% less chance to win") % {"chance": round(cost * 100)}

    # -- input ---------------------------------------------------------------------------

    def parse(self, mode: str, fields) -> dict:
        return parse.parse(mode, fields)

    def wants_step(self, mode: str, fields) -> bool:
        return parse.wants_step(mode, fields)

    def step(self, mode: str, state: dict, seat: int, fields) -> str:
        return parse.step(state, seat, fields)

    def check_move(self, mode: str, pending: str | None, action: dict) -> None:
        parse.check_move(pending, action)

    acts_for_modes = ("companion",)

    def act_for_kind(self, mode: str, action: dict) -> str | None:
        if mode != "companion":
            return None
        kind = action.get("type")
        if kind in ("cross", "extra", "pass", "undo"):
            return "entry"
        if kind == "correct":  # a proposal is the phone's own, whichever sheet it shows
            return "own"
        return "answer" if kind in ("confirm", "reject") else None

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

    # -- the screen ----------------------------------------------------------------------

    def board(self, mode, state, names) -> dict:
        if mode == "companion":
            return screens.companion_board(state, names)
        return screens.digital_board(state, names)

    def panel(self, mode, state, seat, names, pending) -> dict:
        if mode == "companion":
            return screens.companion_panel(state, seat, names)
        return screens.digital_panel(state, seat, names, pending)

    # -- hints -----------------------------------------------------------------------------

    def hinted(self, mode, panel, action) -> dict:
        return screens.hinted_panel(panel, action) if mode == "digital" else panel

    def hint_words(self, mode, action) -> str:
        return words.hint_words(action, translation.get_language())

    # -- numbers -------------------------------------------------------------------------

    def ranking(self, mode, state, names) -> list[dict]:
        return stats.final_ranking(mode, state, names)

    def standings(self, mode, state) -> list[tuple[tuple[int, ...], int]]:
        return stats.standings(mode, state)

    def facts(self, mode, state, seat, steps) -> dict[str, int]:
        return stats.facts(mode, state, seat, steps)

    def fact_lines(self, mode, facts) -> list[tuple[str, str]]:
        return stats.fact_lines(mode, facts)

    def tally(self, mode, state, names) -> Tally | None:
        return stats.tally(state, names)

    # -- the log -------------------------------------------------------------------------

    def log_rows(self, mode: str) -> int:
        # a digital cross and its extra crosses are one line: enough rows for a few chains
        return self.log_length * 4 if mode == "digital" else self.log_length

    def log_lines(self, mode: str, rows: list[dict], names: dict) -> list[str]:
        lang = translation.get_language()
        if mode != "digital":
            return [
                words.correction_line(row, names)
                if row["action"].get("type") in companion.CORRECTIONS
                else self.described(mode, row["action"], labels.who(row, names), lang)
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
        lines = self.describe_turns(rows[:first][::-1], names)
        return lines[-self.log_length :][::-1]

    def describe_turns(self, rows: list[dict], names: dict) -> list[str]:
        """A digital table's log lines, oldest first, from its rows (oldest first)."""
        lang = translation.get_language()
        return words.describe_turns(
            rows, names, lambda action, name: self.described("digital", action, name, lang), lang
        )

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        return words.describe(action, name)


adapter = TriggsWeb()
