"""TriumfDrez on the web: the adapter the shared layer asks (games.adapter).

Its jobs live in modules of their own: `parse` (a phone's fields → an action), `words`
(refusals, rule names, the cards' and bids' words, the log), `screens` (the contexts of
both modes' screens, plain data for the templates) and `stats` (a player's statistics,
the standings, the progress chart). The HTML is in the templates
(games/triumfdrez/templates/games/triumfdrez/)."""

import math

from django import forms
from django.utils import formats, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games import labels, thinking
from games.adapter import GameWeb
from games.forms import first_seat, first_seat_error, first_seat_field
from games.triumfdrez import bots, companion, engine, search
from games.triumfdrez.scoring import teams_for
from games.triumfdrez.web import entered, parse, screens, stats, words

# the most log rows a tracker's record reads, back to its match's start (a longer match
# shows its entries without who entered them and when)
RECORD_ROWS = 4000

# the centre screen's status region, alike in both modes: the match, whose turn, the winner
CENTRE_STATUS = (
    "status",
    "centre",
    (
        "board.hand_no",
        "board.phase",
        "board.target",
        "board.dealer_name",
        "board.turn_name",
        "board.winner_names",
        "board.ranking",
        "board.contract_words",
        "board.declarer_name",
    ),
)


class TriumfDrezWeb(GameWeb):
    slug = "triumfdrez"
    stylesheet = "css/triumfdrez.css"
    rules_stylesheet = "css/triumfdrez-rules.css"
    centre_stylesheet = "css/triumfdrez-centre.css"
    script = "js/triumfdrez.js"
    # the regions a finished game's replay shows for every seat at once (a hand record)
    record_regions = {"digital": ("hand",)}
    # a player's statistics count matches to the target, each of many hands
    played_words = _("Matches played")
    won_words = _("Matches won")
    # (region, pane, the context paths its template reads)
    regions = {
        "digital": (
            (
                "status",
                "play",
                (
                    "board.hand_no",
                    "board.phase",
                    "board.target",
                    "board.dealer_name",
                    "board.winner_names",
                    "board.ranking",
                    "board.contract_words",
                    "board.declarer_name",
                    "board.sides",
                    "panel.my_turn",
                    "table.code",
                    "host",
                    "seated",
                ),
            ),
            # the table: the seats round it (their phones and the turn clock) and the trick
            (
                "trick",
                "play",
                (
                    "board.phase",
                    "board.trick_seats",
                    "board.led",
                    "board.last_trick",
                    "seat_states",
                    "clock",
                ),
            ),
            (
                "auction",
                "play",
                (
                    "board.phase",
                    "board.auction",
                    "board.to_beat",
                    "panel.bidding",
                    "panel.lowest_beating",
                ),
            ),
            (
                "result",
                "play",
                ("board.phase", "board.hand_no", "board.explained", "seated"),
            ),
            (
                "bid",
                "play",
                ("board.phase", "panel.bidding", "board.too_low", "board.bid", "board.can_pass"),
            ),
            ("open", "play", ("panel.open_hands",)),
            # the hand last: at the bottom of the screen, in thumb reach
            ("hand", "play", ("panel.hand", "panel.reasons")),
            ("scores", "players", ("board.sides", "panel.my_side")),
        ),
        "companion": (
            (
                "status",
                "play",
                (
                    "board.hand_no",
                    "board.phase",
                    "board.target",
                    "board.dealer_name",
                    "board.turn_name",
                    "board.winner_names",
                    "board.ranking",
                    "table.code",
                    "host",
                    "seated",
                ),
            ),
            ("scores", "play", ("board.sides", "board.declaring_team")),
            (
                "auction",
                "play",
                ("board.auction", "board.to_beat", "board.turn_name", "board.phase", "seated"),
            ),
            (
                "entry",
                "play",
                (
                    "seated",
                    "board.phase",
                    "board.bid",
                    "board.contract",
                    "board.declarers",
                    "board.declarer_name",
                    "board.contract_words",
                    "board.declaring_names",
                    "board.tricks_pad",
                    "board.can_undo_bid",
                    "board.undo_contract",
                    "board.can_undo_hand",
                ),
            ),
            (
                "pending",
                "play",
                (
                    "board.correction",
                    "panel.can_confirm",
                    "panel.can_reject",
                    "panel.proposed",
                    "seated",
                ),
            ),
            ("history", "players", ("board.history", "board.sides")),
            ("record", "players", ("board.record", "board.current_events", "board.hand_no")),
            (
                "amend",
                "players",
                (
                    "seated",
                    "board.hand_numbers",
                    "board.declarers",
                    "board.all_bids",
                    "board.side_choices",
                    "board.can_set_dealer",
                    "board.reason_max",
                    "board.adjust_max",
                    "board.dealer",
                ),
            ),
        ),
    }
    # the table-centre screen (a TV's view, games.render.centre_screen): the match's state
    # and whose turn in large type, then the scoreboard (games/triumfdrez/_centre.html)
    centre = {
        "digital": (
            CENTRE_STATUS,
            (
                "scores",
                "centre",
                ("board.sides", "board.trick_seats", "board.last_trick", "board.declaring_team"),
            ),
        ),
        "companion": (
            CENTRE_STATUS,
            ("scores", "centre", ("board.sides", "board.declaring_team")),
        ),
    }
    refusals = words.REFUSALS
    rule_names = words.RULE_NAMES
    bot_levels = {
        "heuristic": (bots.heuristic, pgettext_lazy("computer player level", "steady")),
        "strong": (bots.strong, pgettext_lazy("computer player level", "strong")),
        "hard": (thinking.Thinker(search.hard), pgettext_lazy("computer player level", "hard")),
        "random": (bots.random_legal, pgettext_lazy("computer player level", "random")),
    }
    bot_level_notes = {
        "heuristic": _("Plays by a few rules of thumb."),
        "strong": _("Plays each card out over a few possible deals."),
        "hard": _("Thinks ahead over many possible deals and plays the last tricks perfectly."),
        "random": _("Plays any card the rules allow: for learning the rules."),
    }
    # hints (games.hints): the hard level's choice from the seat's view
    hint_player = staticmethod(search.hard)
    phrases = {
        "what_a_contract": pgettext_lazy("phrase", "What a contract!"),
        "nice_trick": pgettext_lazy("phrase", "Nice trick!"),
        "partner": pgettext_lazy("phrase", "Well played, partner!"),
        "bold_bid": pgettext_lazy("phrase", "Bold bid!"),
        "trump_me": pgettext_lazy("phrase", "Trump it!"),
        "next_hand": pgettext_lazy("phrase", "We'll get it next hand."),
    }

    # -- the review after a game (games.review) --------------------------------------------

    review_budget = {"digital": search.REVIEW}
    least_cost = 0.5  # half a point per hand

    def judge(self, mode: str):
        return search.judge if mode == "digital" else None

    def judged(self, mode: str, action: dict) -> bool:
        """Bids, passes and cards played; not dealing the next hand."""
        return action.get("type") in ("bid", "pass", "play")

    def cost_words(self, mode: str, cost: float) -> str:
        """Points per hand lost: the side's points less the opponents' mean (D-SCORE)."""
        points = formats.number_format(cost, 1)
        return ngettext(
            "%(points)s points per hand", "%(points)s points per hand", math.floor(cost)
        ) % {"points": points}

    def parse(self, mode: str, fields) -> dict:
        return parse.parse(mode, fields)

    def hinted(self, mode, panel, action) -> dict:
        return screens.hinted_panel(panel, action) if mode == "digital" else panel

    def hint_words(self, mode, action) -> str:
        return words.hint_words(action)

    def options(self) -> dict:
        return {
            "target": forms.IntegerField(
                label=_("Points to win the match"),
                min_value=engine.TARGET_MIN,
                max_value=engine.TARGET_MAX,
                initial=engine.DEFAULT_TARGET,
                error_messages={
                    key: labels.REFUSALS["bad_target"]
                    for key in ("required", "invalid", "min_value", "max_value")
                },
            ),
            "first": first_seat_field(
                _("Companion mode: who deals first"),
                _(
                    "The player after the dealer bids first and play goes on in seat order: "
                    "sit around the table in seat order, to the right. At 4 players, seats "
                    "1 and 3 are partners, as are 2 and 4: partners sit opposite each other."
                ),
            ),
        }

    def option_errors(self, mode: str, players: int, cleaned: dict) -> dict:
        return first_seat_error(cleaned, "first", players) if mode == "companion" else {}

    def config(self, mode: str, players: int, cleaned: dict) -> dict:
        config = {"players": players, "target": cleaned["target"]}
        first = first_seat(cleaned, "first", players)
        if mode == "companion" and first is not None:  # else the deal's seed draws the dealer
            config["dealer"] = first
        return config

    def sides(self, mode: str, players: int) -> tuple[tuple[int, ...], ...]:
        # D-PLAYERS: partners sit opposite each other at 4 players
        return tuple(tuple(team) for team in teams_for(players))

    def board(self, mode, state, names) -> dict:
        if mode == "companion":
            return screens.companion_board(state, names)
        return screens.digital_board(state, names)

    def log_board(self, mode, state, names, rows, config) -> dict:
        """The tracker's board with who entered each entry of a recorded hand, and when
        (the record, from the log: entered.hands)."""
        if mode != "companion":
            return self.board(mode, state, names)
        return screens.companion_board(state, names, entered.hands(rows, config, state))

    def log_rows(self, mode: str) -> int:
        # the tracker's record: the whole log of the match, back to its start
        return RECORD_ROWS if mode == "companion" else self.log_length

    def panel(self, mode, state, seat, names, pending) -> dict:
        if mode == "companion":  # the tracker is the board, but for a correction's answers
            return screens.companion_panel(state, seat)
        return screens.digital_panel(state, seat, names, self)

    def ranking(self, mode, state, names) -> list[dict]:
        rules = companion if mode == "companion" else engine
        return screens.final_ranking(rules.view(state, None), names)

    def standings(self, mode, state) -> list[tuple[tuple[int, ...], int]]:
        return stats.standings(mode, state)

    def facts(self, mode, state, seat, steps) -> dict[str, int]:
        return stats.facts(mode, state, seat)

    def fact_lines(self, mode, facts) -> list[tuple[str, str]]:
        return stats.fact_lines(facts)

    def tally(self, mode, state, names) -> stats.Tally:
        return stats.tally(mode, state, names)

    def entered_for(self, mode: str, state: dict, seat: int, action: dict) -> int | None:
        """The tracker is shared: a bid or a pass is the turn's seat's, whichever phone
        enters it (a contract entered directly names its declarer itself)."""
        if mode != "companion" or not isinstance(state, dict):
            return None
        kind = action.get("type")
        if kind in ("bid", "pass") and state.get("phase") == "auction":
            return state.get("turn")
        return None

    def log_lines(self, mode: str, rows: list[dict], names: dict) -> list[str]:
        lang = translation.get_language()
        return [
            # a bid or pass entered for its bidder reads as theirs ("Ana (entered by
            # Boris) bid …"), as at a digital table
            self.described(
                "digital" if row.get("acted_by") is not None else mode,
                row["action"],
                labels.who(row, names),
                lang,
            )
            if row["action"].get("type") in ("bid", "pass")
            else self.described(mode, row["action"], labels.who(row, names), lang)
            for row in rows[: self.log_length]
        ]

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        return words.describe(mode, action, name)


adapter = TriumfDrezWeb()
