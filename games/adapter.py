"""The seam between a game and the shared web layer.

A game is its own package (its engines, pure Python) plus one adapter, `web.py` in that
package, whose `adapter` is an instance of a GameWeb subclass; the registry
(games.registry) names both. The shared modules — services, render, consumers, views,
admin, replay, transfer, autoplay — ask the adapter, and the engine contract
(`is_over`, `to_act`, `view`, `legal_actions`, `apply`), for everything that depends on
the game, and never name a game or a phase themselves.

What a game provides (see docs/adding-a-game.md):

- `refusals`: its engines' error codes → translated sentences (games.labels adds the
  table layer's own codes and the link to the rule);
- `parse(mode, fields)`: a phone's fields → an engine action (games.fields helpers);
- `panel(mode, state, seat, names, pending)`: the context of its panel template,
  built from `engine.view(state, seat)` and the engine's pure functions only, and
  `regions`: the named parts of that template that update alone;
- `log_lines(mode, rows, names)` and `describe(mode, action, name)`: the log in words;
- `options()`, `option_errors(mode, players, cleaned)` and `config(mode, players,
  cleaned)`: its lobby options, their checks, and the table's engine config;
- `bot_levels`: computer players by level, for digital tables (one that searches is a
  games.thinking.Thinker: it thinks in worker processes), and `bot_level_notes`, each
  level in one line;
- `phrases`: what a player may say at the table besides the common phrases;
- optionally `tally(mode, state, names)`: the numbers of its progress chart (games.charts);
- optionally `facts(mode, state, seat, steps)` and `fact_lines(mode, facts)`: what a
  player's statistics count in each finished game, and those counts in words
  (players.stats);
- optionally `centre`: the regions of the table-centre screen, by mode (a TV's view);
- optionally `sides(mode, players)`: who plays with whom (partners), shown by the lobby,
  the join page and the table;
- optionally a two-step move (`wants_step`, `step`, `check_move`): a choice a seat makes before its
  move that the table keeps on the seat (Seat.pending), e.g. the pile a card is taken from;
- optionally `acts_for_modes` and `act_for_kind(mode, action)`: the moves a phone may enter
  for an absent seat (games.services.may_act_for), and `entered_for(mode, state, seat,
  action)`: the seat a shared tracker's move is for, when any phone enters it;
- optionally `log_board(mode, state, names, rows, config)`: its `board` with what only
  the log keeps (who entered each move, and when), from the rows `log_rows(mode)` asks;
- optionally `judge(mode)`, `judged(mode, action)`, `review_budget`, `least_cost`,
  `review_words(mode, action, name)` and `cost_words(mode, cost)`: the review after a
  game (games.review); none by default.
"""

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from django.core import validators
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import labels
from games.errors import BadInput

if TYPE_CHECKING:
    from games import charts

# Log lines in words, by game, mode, language, the action (its repr: a logged action never
# changes) and the name: emptied when full (a few MB at most).
LINES_KEPT = 20_000
_LINES: dict[tuple, str] = {}


class GameWeb:
    slug: str = ""
    # engine error code → translated sentence (gettext_lazy)
    refusals: Mapping = {}
    # rule id → its name in words (gettext_lazy), the text of every link to the rule
    rule_names: Mapping = {}
    # level → (player(view, legal, rng) -> action, translated level name); the first
    # level is the default
    bot_levels: Mapping[str, tuple[Callable, object]] = {}
    # level → what it is, in one line (gettext_lazy): the lobby and the players' pages
    bot_level_notes: Mapping = {}
    log_length = 8  # log lines shown on the table page
    # key → a phrase of this game a player may say at the table (gettext_lazy), after the
    # ones every game has (games.phrases)
    phrases: Mapping = {}
    # Hints (games.hints): a module-level pure function of the game's engine side,
    # player(view, legal, rng, **hint_budget) -> action, run in the thinking pool
    # (games.thinking) for a seat that asks what the computer would play (a staticmethod,
    # so that it is sent to the pool as the function it is); None: no hints. Its keywords:
    # `hint_budget`.
    hint_player: Callable | None = None
    hint_budget: Mapping = {}

    # The screen of a table in play, by mode: its regions in order, each (name, pane) or
    # (name, pane, reads). A region is the partial `name` of the panel template
    # (django-template-partials' {% partialdef %}), rendered and sent on its own, only when
    # what it shows changed for the phone; "panel" (the default) is the whole template. The
    # pane says where it sits: "play" (on the game screen) or one tap away: "players",
    # "log" or "table". `reads`: the context paths the region's template reads ("panel.hand",
    # "board.piles", "seated", …; the forms' placeholders `fields`, `post_fields` and
    # `act_url` need not be named): the region is rendered again only when one of them
    # changed (games.regions).
    regions: Mapping[str, tuple[tuple, ...]] = {}
    # The game's own style sheet (a static path), loaded after site.css by the pages that
    # show the game: its tables, replays and rules ({% game_stylesheet %}); none by default.
    stylesheet: str = ""
    # What only its rules pages draw (the book's examples), loaded after `stylesheet` there.
    rules_stylesheet: str = ""
    # What only its table-centre screen draws (GameWeb.centre), loaded after `stylesheet` there.
    centre_stylesheet: str = ""
    # The game's own script for a live table (a static path), loaded after
    # static/js/table.js and using what it offers (window.liveTable); none by default.
    script: str = ""
    # A player's statistics (players.stats): what their finished games are called there
    played_words = _("Games played")
    won_words = _("Games won")
    # By mode, the regions a finished game's replay draws for every seat at once, each from
    # its own view (a hand record: games.views.replays); none by default.
    record_regions: Mapping[str, tuple[str, ...]] = {}

    # By mode, the regions of the table-centre screen (a tablet or a TV in landscape, a
    # spectator's view: games.render.centre_screen), each (name, pane, reads): partials of
    # the game's centre template (`centre_template`); none by default.
    centre: Mapping[str, tuple[tuple, ...]] = {}

    def centre_template(self, mode: str) -> str:
        return f"games/{self.slug}/_centre.html"

    def centre_regions(self, mode: str) -> list[tuple[str, str, str, tuple[str, ...]]]:
        """(region, template, pane, reads) for each of the game's regions of the centre
        screen in `mode`, after the shared head (games.render.CENTRE)."""
        template = self.centre_template(mode)
        return [
            (name, f"{template}#{name}", pane, tuple(reads))
            for name, pane, reads in self.centre.get(mode, ())
        ]

    def sides(self, mode: str, players: int) -> tuple[tuple[int, ...], ...]:
        """The sides at a table of `players` (each a tuple of seat indexes): partners share
        one. By default each seat plays alone."""
        return tuple((seat,) for seat in range(players))

    def panel_template(self, mode: str) -> str:
        return f"games/{self.slug}/_{mode}.html"

    def screen(self, mode: str) -> list[tuple[str, str, str]]:
        """(region, template, pane) for each region of the screen of a table in play."""
        template = self.panel_template(mode)
        return [
            (name, template if name == "panel" else f"{template}#{name}", pane)
            for name, pane, *_reads in self.regions.get(mode, (("panel", "play"),))
        ]

    def reads(self, mode: str) -> dict[str, tuple[str, ...] | None]:
        """Region → the context paths it reads (None where the game declares none)."""
        return {
            name: (tuple(reads[0]) if reads else None)
            for name, _pane, *reads in self.regions.get(mode, (("panel", "play"),))
        }

    def parse(self, mode: str, fields) -> dict:
        """The engine action a phone's fields ask for; BadInput if malformed."""
        raise BadInput("kind")

    def board(self, mode: str, state: dict, names: dict) -> dict:
        """What every seat's screen shows alike (a spectator's too), the templates' `board`:
        worked out once per change and language and shared by the phones of a process
        (games.context.shared_context), as are the digests of what the regions read of it. A
        region that reads only the board (and the table) is drawn once for them all."""
        return {}

    def log_board(self, mode: str, state: dict, names: dict, rows: list[dict], config) -> dict:
        """`board`, for a game whose board also shows what only the log keeps (who entered
        a move, and when): `rows`, the snapshot's log rows, newest first (`log_rows(mode)`
        of them, each with its "version", "seat", "action", "acted_by" and, where known,
        "created"), and `config`, the table's. By default the `board` alone."""
        return self.board(mode, state, names)

    def panel(self, mode: str, state: dict, seat: int | None, names: dict, pending) -> dict:
        """The context of the panel template for `seat` (None: a spectator), besides the
        `board`."""
        raise NotImplementedError

    def ranking(self, mode: str, state: dict, names: dict) -> list[dict]:
        """The final ranking (`ranking` below) once the game is over, else []."""
        return []

    def tally(self, mode: str, state: dict, names: dict) -> "charts.Tally | None":
        """What the progress chart (games.charts) shows at `state`: one value per line (a
        player, a side; `names`: seat → name), read from the engine's state keys. None
        when there is nothing to draw: a game without a chart (the default), or a state in
        the middle of a move, whose point is the state that finishes it."""
        return None

    def standings(self, mode: str, state: dict) -> list[tuple[tuple[int, ...], int]]:
        """Once the game is over, each side (its seats: one for a game of each against
        all) with its final score, a higher score being better; else []. What a league
        rates (players.league)."""
        return []

    def facts(self, mode: str, state: dict, seat: int, steps: Callable) -> dict[str, int]:
        """What `seat` did in one finished game, for its player's statistics
        (players.stats): whole numbers read from the final `state` and, for what the state
        does not keep, from `steps()`, the game's log step by step (games.replay.Step:
        entry, before, after). The game's own numbers only: played and won are counted
        from `standings` by the caller."""
        return {}

    def fact_lines(self, mode: str, facts: list[dict]) -> list[tuple[str, str]]:
        """A player's statistics of this game and mode in words, (what, how much), from
        the `facts` of each finished game they played (at least one)."""
        return []

    def log_rows(self, mode: str) -> int:
        """How many of the newest log rows `log_lines` needs."""
        return self.log_length

    def log_lines(self, mode: str, rows: list[dict], names: dict) -> list[str]:
        """The latest moves in words, newest first (`rows`: the newest log rows first)."""
        lang = translation.get_language()
        return [
            self.described(mode, row["action"], labels.who(row, names), lang)
            for row in rows[: self.log_length]
        ]

    def described(self, mode: str, action: dict, name: str | None, lang: str) -> str:
        """`describe`, worded once per process for each language (`lang`, the active one):
        every phone draws the latest log lines after every move."""
        key = (self.slug, mode, lang, repr(action), name)
        line = _LINES.get(key)
        if line is None:
            if len(_LINES) >= LINES_KEPT:
                _LINES.clear()
            line = _LINES[key] = str(self.describe(mode, action, name))
        return line

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        """One logged action in words, in the active language."""
        raise NotImplementedError

    def options(self) -> dict:
        """Extra fields of the lobby's create form for this game: name → form field (a
        label says so when a field applies to one mode only)."""
        return {}

    def option_range(self, name: str) -> tuple[int, int] | None:
        """The bounds (lowest, highest) of a whole-number option, read from its field's own
        validators; None for an option without both. The lobby builds its error messages from
        them (games.labels.number_range): no shared module repeats a game's numbers."""
        field = self.options().get(name)
        low = high = None
        for validator in getattr(field, "validators", ()):
            if isinstance(validator, validators.MinValueValidator):
                low = validator.limit_value
            elif isinstance(validator, validators.MaxValueValidator):
                high = validator.limit_value
        return None if low is None or high is None else (low, high)

    def config(self, mode: str, players: int, cleaned: dict) -> dict:
        """The engine config of a new table from the create form's cleaned data."""
        return {"players": players}

    def option_errors(self, mode: str, players: int, cleaned: dict) -> dict:
        """Errors of options that depend on the mode or the number of players: field name →
        translated message (none by default)."""
        return {}

    def hinted(self, mode: str, panel: dict, action: dict) -> dict:
        """The seat's `panel` with `action`, the hint it was given (games.hints), marked
        where it shows (a card, a pile, a proposal: a class and words, never colour
        alone). The shared hint region says it in words in any case (`describe`); by
        default nothing more is marked."""
        return panel

    def hint_words(self, mode: str, action: dict) -> str:
        """A hint (games.hints) in words, in the active language: what to do ("Play the
        7"). By default the action as the log says it."""
        return self.describe(mode, action, None)

    def wants_step(self, mode: str, fields) -> bool:
        """Whether `fields` ask for the first step of a two-step move, not a move."""
        return False

    def step(self, mode: str, state: dict, seat: int, fields) -> str:
        """The value a seat keeps until its move (at most 18 characters), for a first step
        (raises games.errors.Refused when that step is not allowed, BadInput if malformed)."""
        raise BadInput("kind")

    def check_move(self, mode: str, pending: str | None, action: dict) -> None:
        """Refuse (games.errors.Refused) a move that does not finish the seat's pending step."""

    # the modes whose moves a phone may enter for an absent seat (act_for_kind)
    acts_for_modes: tuple[str, ...] = ()

    def act_for_kind(self, mode: str, action: dict) -> str | None:
        """Whether a phone may enter `action` for another seat whose phone is absent
        (games.services.may_act_for): "entry" (a turn's move), "answer" (an answer to
        what waits for that seat's own confirmation: the host only, once it is long
        gone), "own" (the phone's own move whichever seat it shows, entered as its own
        seat's: a correction proposed) or None (never; the default)."""
        return None

    # -- the review after a game (games.review) ----------------------------------------------

    # By mode, the keywords of `judge(mode)`'s budget (small in tests)
    review_budget: Mapping[str, dict] = {}
    # The least cost of a move (in `judge`'s units) the review lists: smaller differences
    # are the noise of sampled deals
    least_cost: float = 0.0

    def judge(self, mode: str) -> Callable | None:
        """A module-level pure function of the game's engine side, `judge(view, legal,
        played, rng, **budget) -> [(action, value)]`: the value to the seat of the action
        `played` and of the alternatives its strongest computer level weighs, from the
        seat's view, on the same sampled deals (a higher value being better). It runs in
        games.thinking's pool. None (the default): the game has no review in this mode."""
        return None

    def judged(self, mode: str, action: dict) -> bool:
        """Whether a decision of this kind is reviewed (e.g. not dealing the next hand);
        every one with a choice by default."""
        return True

    def review_words(self, mode: str, action: dict, name: str) -> str:
        """A move of a review (the one played, or a better one) in words: by default as
        the log words it (`describe`)."""
        return self.describe(mode, action, name)

    def cost_words(self, mode: str, cost: float) -> str:
        """What a move cost (a difference of `judge`'s values) in words."""
        return f"{cost:.2f}"

    def entered_for(self, mode: str, state: dict, seat: int, action: dict) -> int | None:
        """The seat `action` is entered for when a shared tracker lets any phone enter it
        for another (the log then says which phone entered it); None: the phone's own."""
        return None


def ranking(entries: list[dict]) -> list[dict]:
    """The final ranking: `entries` ({"name", "score", "words"}: the score, and the score
    in words) best first, each with its place; equal scores share a place (1, 1, 3)."""
    ordered = sorted(entries, key=lambda entry: -entry["score"])
    places, place = [], 0
    for i, entry in enumerate(ordered):
        if i == 0 or entry["score"] != ordered[i - 1]["score"]:
            place = i + 1
        places.append({**entry, "place": place})
    return places
