"""TriumfDrez on the web: the adapter the shared layer asks (games.adapter), and the
cards' words (D-DECK: every card shown with its figure symbol, number and colour name,
never colour alone).

Panels are built from `view(state, seat)` only (D-AUCTION, D-PLAY, D-OPEN, D-SCORE): the
playable cards and why another is not, the lowest bids that beat the current one, why
the last trick was won and what a hand was worth all come from the engine.
"""

import functools
import json

from django import forms
from django.utils import translation
from django.utils.functional import Promise
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import fields as f
from games import labels
from games.adapter import GameWeb, ranking
from games.bots import triumfdrez as bots
from games.charts import Tally
from games.forms import first_seat, first_seat_error, first_seat_field
from games.render import draw
from games.template_loader import in_language
from games.templatetags.babel_tags import mean, num, part_of
from games.triumfdrez import companion, engine
from games.triumfdrez.cards import DECK, FIGURE, NUMBER
from games.triumfdrez.scoring import made, team_of

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
PASS = _("pass")

# A player's statistics (players.stats): the tricks the declaring side took, as each
# mode's finished hands keep them
TAKEN = {"digital": "tricks_taken", "companion": "tricks_won"}
STATS = {
    "declared": _("Contracts you declared"),
    "made": _("Contracts made"),
    "margin": _("Tricks above (+) or below (-) your contract, on average"),
    "open": _("Open contracts made"),
    "points": _("Points per hand for your side"),
}

# the progress chart (games.charts): each side's running score and the target (D-MATCH)
CHART_TITLE = pgettext_lazy("chart", "Score per side")
CHART_UNIT = pgettext_lazy("chart axis", "hands")

# the engines' own codes (games/triumfdrez/errors.py); games.labels has the shared ones
REFUSALS = {
    "bad_tricks": _("A bid names from 1 to 13 tricks."),
    "bad_trump": _("Choose a trump figure, or no trump."),
    "bad_supertrump": _("Choose a super-trump colour from 1 to 9, or none."),
    "must_bid": _("The first bidder cannot pass and must bid."),
    "opening_bid_names_both": _(
        "The opening bid names a trump figure and a super-trump colour: only a later bid "
        "may drop them."
    ),
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

# Why the winning card of a trick won (D-RANK), by the strength it had.
TRICK_REASONS = {
    "best": _("the trump figure in the super-trump colour, the strongest card"),
    "supertrump": _("the super-trump colour, highest figure first"),
    "trump": _("the highest card of the trump figure"),
    "led": _("the highest card of the led figure"),
    "leader": _("only neutral cards: the leader takes it"),
}


def figure_of(card_id: str) -> str:
    return FIGURE[card_id] or "neutral"


def card_context(card_id: str) -> dict:
    """What a card's drawing shows: symbol, figure, number and colour name; `html`, the
    drawing itself (games/triumfdrez/_card.html) in the active language."""
    return _card_context(translation.get_language(), card_id)


@functools.lru_cache(maxsize=4 * 64)
def _card_context(lang: str, card_id: str) -> dict:
    """Once per process and language (a table's screen shows dozens): never changed. Its
    names worded in `lang` (a lazy translation is slow to compare: games.template_inputs)."""
    with in_language(lang):
        card = {k: str(v) if isinstance(v, Promise) else v for k, v in _card(card_id).items()}
    return card | {"html": card_html(lang, card_id)}


@functools.lru_cache(maxsize=4 * 64)
def card_html(lang: str, card_id: str) -> str:
    """A card drawn once per process and language: a table's screen shows dozens. As a
    plain str, written with |safe: a hand's cards are digested with every update of a
    phone (games.template_inputs), and a SafeString takes seven times longer to pickle."""
    with in_language(lang):
        return draw("games/triumfdrez/_card.html", {"card": _card(card_id)})


def _card(card_id: str) -> dict:
    figure, number = figure_of(card_id), NUMBER[card_id]
    neutral = figure == "neutral"
    return {
        "id": card_id,
        "figure": figure,
        "number": number,
        "neutral": neutral,
        "symbol": FIGURE_SYMBOLS[figure],
        "figure_name": FIGURE_NAMES[figure],
        "colour_name": None if neutral else COLOUR_NAMES[number],
    }


def card_words(card_id: str) -> str:
    """'knight-9' → '♞ Knight 9 (green)': symbol, figure, number and colour, never one alone."""
    figure, number = figure_of(card_id), NUMBER[card_id]
    if figure == "neutral":
        return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]}"
    return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]} {number} ({COLOUR_NAMES[number]})"


def bid_words(action: dict, lang: str | None = None) -> str:
    """A bid in words (in `lang`, else the active language): tricks, trump, super-trump,
    and "open" if it is."""
    bid = (
        action["tricks"],
        action.get("trump"),
        action.get("supertrump"),
        bool(action.get("open")),
    )
    return _bid_words(lang or translation.get_language(), *bid)


@functools.lru_cache(maxsize=1024)
def _bid_words(
    lang: str, tricks: int, trump: str | None, supertrump: int | None, open_: bool
) -> str:
    parts = [
        ngettext("%(n)s trick", "%(n)s tricks", tricks) % {"n": tricks},
        f"{FIGURE_SYMBOLS[trump]} {FIGURE_NAMES[trump]}" if trump else str(_("no trump")),
        f"{supertrump} {COLOUR_NAMES[supertrump]}" if supertrump else str(_("no super-trump")),
    ]
    if open_:
        parts.append(str(_("open")))
    return " · ".join(parts)


def _bid_fields(fields) -> dict:
    return {
        "tricks": f.integer(fields, "tricks", 1, engine.MAX_TRICKS),
        "trump": f.choice(fields, "trump", engine.FIGURES),
        "supertrump": f.optional_integer(fields, "supertrump", 1, len(engine.COLOURS)),
        "open": f.flag(fields, "open"),
    }


def _auction_words(view: dict, names: dict, lang: str) -> tuple[str, ...]:
    """The auction so far, a line for each bid or pass (`auction_line`)."""
    passed = _offered(lang)["pass"]
    return tuple(
        auction_line(
            names.get(entry["seat"], ""),
            passed if entry.get("pass") else bid_words(entry, lang),
            bool(entry.get("pass")),
        )
        for entry in view["auction"]
    )


@functools.lru_cache(maxsize=4096)
def auction_line(name: str, words: str, passed: bool) -> str:
    """A bid or a pass in the auction: who, and the bid in words (`words`, worded).
    Written once per process for each content and shared by every phone: the auction's
    template looped over every line with each bid. A plain str, written with |safe."""
    css = mark_safe(' class="pass"') if passed else ""
    return str.__str__(format_html("<li{}><strong>{}</strong>: {}</li>", css, name, words))


def _bid_choices(lowest: int, default: int | None, lang: str) -> dict:
    """What a bid's fields offer (games/triumfdrez/_bid_tricks.html): tricks from `lowest`,
    `default` chosen; the figures and colours, the same at every table. Drawn once per
    process for each language and content ({% fragment %})."""
    return {
        "bid_range": tuple(range(lowest, engine.MAX_TRICKS + 1)),  # a range is slow to digest
        "default": default,
        "choices": _offered(lang)["bid_choices"],
    }


@functools.lru_cache(maxsize=16)
def _offered(lang: str) -> dict:
    """What every bid form and auction says, worded in `lang` once per process (a lazy
    translation is slow to word and to compare: games.template_inputs)."""
    with in_language(lang):
        return {
            "bid_choices": {
                "figures": tuple(
                    (f, FIGURE_SYMBOLS[f], str(FIGURE_NAMES[f])) for f in engine.FIGURES
                ),
                "colours": tuple((n, str(name)) for n, name in COLOUR_NAMES.items()),
            },
            "pass": str(PASS),
            "figure_names": {f: str(name) for f, name in FIGURE_NAMES.items()},
            "reasons": {reason: str(words) for reason, words in TRICK_REASONS.items()},
            "too_low": str(REFUSALS["bid_too_low"]),
        }


# The rules' names, the text of links to them (the rulebooks' own headings).
RULE_NAMES = {
    "D-DECK": pgettext_lazy("rule", "The deck"),
    "D-PLAYERS": pgettext_lazy("rule", "Players and partners"),
    "D-DEAL": pgettext_lazy("rule", "The deal"),
    "D-AUCTION": pgettext_lazy("rule", "Choosing the trump: the auction"),
    "D-PLAY": pgettext_lazy("rule", "The declarer leads"),
    "D-FOLLOW": pgettext_lazy("rule", "Following the figure"),
    "D-RANK": pgettext_lazy("rule", "Trumps and super-trumps"),
    "D-NEUTRAL": pgettext_lazy("rule", "The neutral cards"),
    "D-OPEN": pgettext_lazy("rule", "Playing with open cards"),
    "D-SCORE": pgettext_lazy("rule", "Scoring"),
    "D-MATCH": pgettext_lazy("rule", "Winning the match"),
}


class TriumfDrezWeb(GameWeb):
    slug = "triumfdrez"
    stylesheet = "css/triumfdrez.css"
    rules_stylesheet = "css/triumfdrez-rules.css"
    script = "js/triumfdrez.js"
    # the regions a finished game's replay shows for every seat at once (a hand record)
    record_regions = {"digital": ("hand",)}
    # a player's statistics count matches to the target, each of many hands
    played_words = _("Matches played")
    won_words = _("Matches won")
    regions = {
        "digital": (
            ("status", "play"),
            ("trick", "play"),
            ("auction", "play"),
            ("result", "play"),
            ("hand", "play"),
            ("bid", "play"),
            ("open", "play"),
            ("scores", "players"),
            ("others", "players"),
        ),
        "companion": (
            ("status", "play"),
            ("scores", "play"),
            ("auction", "play"),
            ("entry", "play"),
            ("history", "players"),
        ),
    }
    refusals = REFUSALS
    rule_names = RULE_NAMES
    bot_levels = {
        "heuristic": (bots.heuristic, pgettext_lazy("computer player level", "steady")),
        "strong": (bots.strong, pgettext_lazy("computer player level", "strong")),
        "random": (bots.random_legal, pgettext_lazy("computer player level", "random")),
    }
    phrases = {
        "what_a_contract": pgettext_lazy("phrase", "What a contract!"),
        "nice_trick": pgettext_lazy("phrase", "Nice trick!"),
        "partner": pgettext_lazy("phrase", "Well played, partner!"),
        "bold_bid": pgettext_lazy("phrase", "Bold bid!"),
        "trump_me": pgettext_lazy("phrase", "Trump it!"),
        "next_hand": pgettext_lazy("phrase", "We'll get it next hand."),
    }

    def parse(self, mode: str, fields) -> dict:
        kind = fields.get("kind")
        if kind == "bid":
            return {"type": "bid", **_bid_fields(fields)}
        if mode == "companion":
            if kind == "contract":
                declarer = f.integer(fields, "declarer", 0, 3)
                return {"type": "contract", "seat": declarer, **_bid_fields(fields)}
            if kind == "result":
                return {"type": "result", "tricks": f.integer(fields, "tricks", 0, 13)}
            if kind in ("pass", "undo_bid", "undo_hand"):
                return {"type": kind}
            raise f.BadInput("kind")
        if kind == "play":
            card = fields.get("card")
            if not isinstance(card, str) or card not in DECK:
                raise f.BadInput("card")
            return {"type": "play", "card": card}
        if kind in ("pass", "next_hand"):
            return {"type": kind}
        raise f.BadInput("kind")

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
                    "sit around the table in seat order, to the right."
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

    def board(self, mode, state, names) -> dict:
        if mode == "companion":
            return _companion_board(state, names)
        return _digital_board(state, names)

    def panel(self, mode, state, seat, names, pending) -> dict:
        if mode == "companion":  # the tracker is the same for every seat: the board
            return {"view": companion.view(state, seat)}
        return _digital(state, seat, names)

    def ranking(self, mode, state, names) -> list[dict]:
        return self.board(mode, state, names)["ranking"]

    def standings(self, mode, state) -> list[tuple[tuple[int, ...], int]]:
        rules = companion if mode == "companion" else engine
        if not rules.is_over(state):
            return []
        return [(tuple(team), state["scores"][i]) for i, team in enumerate(state["teams"])]

    def facts(self, mode, state, seat, steps) -> dict[str, int]:
        hands, taken = state["history"], TAKEN[mode]
        side = team_of(state["teams"], seat)
        declared = [hand for hand in hands if hand["contract"]["seat"] == seat]
        won = [made(hand["contract"]["tricks"], hand[taken]) for hand in declared]
        opened = [hand["contract"]["open"] for hand in declared]
        return {
            "hands": len(hands),
            "points": sum(hand["points"][side] for hand in hands),
            "declared": len(declared),
            "made": sum(won),
            "margin": sum(hand[taken] - hand["contract"]["tricks"] for hand in declared),
            "open": sum(opened),
            "open_made": sum(o and w for o, w in zip(opened, won, strict=True)),
        }

    def fact_lines(self, mode, facts) -> list[tuple[str, str]]:
        total = {key: sum(game[key] for game in facts) for key in facts[0]}
        declared, opened = total["declared"], total["open"]
        lines = [(STATS["declared"], num(declared))]
        if declared:
            lines += [
                (STATS["made"], part_of(total["made"], declared)),
                (STATS["margin"], mean(total["margin"], declared, signed=True)),
            ]
        if opened:
            lines.append((STATS["open"], part_of(total["open_made"], opened)))
        if total["hands"]:
            lines.append((STATS["points"], mean(total["points"], total["hands"])))
        return lines

    def tally(self, mode, state, names) -> Tally:
        scores, target = state["scores"], state["target"]
        return Tally(
            series=tuple(tuple(_names_of(names, members)) for members in state["teams"]),
            values=tuple(scores),
            top=max(target, *scores),
            target=target,
            unit=CHART_UNIT,
            title=CHART_TITLE,
            # the companion can take a hand back (undo_hand): so does its chart
            rounds=len(state["history"]) if mode == "companion" else None,
        )

    def describe(self, mode: str, action: dict, name: str | None) -> str:
        kind = action.get("type")
        who = name or str(_("Someone"))
        if kind == "start":
            if mode == "digital":
                return str(_("The cards were dealt."))
            return str(_("The game started."))
        if kind == "bid":
            if mode == "digital":
                return _("%(who)s bid %(bid)s.") % {"who": who, "bid": bid_words(action)}
            return _("%(who)s entered a bid: %(bid)s.") % {"who": who, "bid": bid_words(action)}
        if kind == "pass":
            if mode == "digital":
                return _("%(who)s passed.") % {"who": who}
            return _("%(who)s entered a pass.") % {"who": who}
        if kind == "play":
            return _("%(who)s played %(card)s.") % {"who": who, "card": card_words(action["card"])}
        if kind == "next_hand":
            return _("%(who)s dealt the next hand.") % {"who": who}
        if kind == "contract":
            return _("%(who)s entered the contract: %(bid)s.") % {
                "who": who,
                "bid": bid_words(action),
            }
        if kind == "result":
            tricks = action["tricks"]
            return ngettext(
                "%(who)s entered %(tricks)s trick for the declaring side.",
                "%(who)s entered %(tricks)s tricks for the declaring side.",
                tricks,
            ) % {"who": who, "tricks": tricks}
        if kind == "undo_bid":
            return _("%(who)s took back the last bid.") % {"who": who}
        if kind == "undo_hand":
            return _("%(who)s took back the last hand.") % {"who": who}
        return _("%(who)s played.") % {"who": who}


adapter = TriumfDrezWeb()


def _names_of(names: dict, seats) -> list[str]:
    return [names.get(s, "") for s in seats]


def _ranking(view: dict, teams, names: dict) -> list[dict]:
    """Once the match is won (D-MATCH): the sides, best score first."""
    if view.get("winner") is None:
        return []
    return ranking(
        [
            {
                "name": " + ".join(_names_of(names, members)),
                "score": view["scores"][i],
                "words": ngettext("%(n)s point", "%(n)s points", view["scores"][i])
                % {"n": view["scores"][i]},
            }
            for i, members in enumerate(teams)
        ]
    )


# The tracker's buttons for the tricks the declaring side won: 0 to all of them (numbers
# only), written once rather than looped over in the template with each draw of its region.
TRICKS_PAD = "".join(
    f'<button name="tricks" value="{n}">{n}</button>' for n in range(engine.MAX_TRICKS + 1)
)


@functools.lru_cache(maxsize=1024)
def seat_options(names: tuple[tuple[int, str], ...]) -> str:
    """The players as the options of the tracker's list of declarers (`names`: (seat,
    name) pairs), their names escaped: once per process for each table's players, where a
    loop of template nodes cost 0.1 ms with each draw of the bid's region. A plain str,
    written with |safe."""
    return str.__str__(format_html_join("", '<option value="{}">{}</option>', names))


def _companion_board(state: dict, names: dict) -> dict:
    """The tracker, the same for every seat: auction in words, sides with their players,
    history (D-AUCTION, D-SCORE)."""
    view = companion.view(state, None)
    lang = translation.get_language()  # once: looking it up costs 4 µs
    teams = view["teams"]
    contract = view.get("contract")
    declaring = view.get("declaring_team")
    # the undo actions alone: not a list of every bid that beats the current one
    undoable = [action["type"] for action in companion.undo_actions(state)]
    history = [
        {
            "hand_no": hand["hand_no"],
            "dealer": names.get(hand["dealer"], ""),
            "declarer": names.get(hand["contract"]["seat"], ""),
            "contract": bid_words(hand["contract"], lang),
            "tricks_won": hand["tricks_won"],
            "made": hand["tricks_won"] >= hand["contract"]["tricks"],
            # per side: what the hand brought, and the running total after it
            "results": [
                {"gain": gain, "total": total}
                for gain, total in zip(hand["points"], hand["scores"], strict=True)
            ],
        }
        for hand in view["history"]
    ]
    return {
        "sides": [
            {"index": i, "names": _names_of(names, members), "score": view["scores"][i]}
            for i, members in enumerate(teams)
        ],
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(view["turn"]),
        "auction": _auction_words(view, names, lang),
        "contract_words": bid_words(contract, lang) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "declaring_names": _names_of(names, teams[declaring]) if declaring is not None else [],
        "history": history,
        "winner_names": _names_of(names, teams[view["winner"]])
        if view.get("winner") is not None
        else [],
        "ranking": _ranking(view, teams, names),
        # A bid of as many tricks can still beat the current one (open, fewer trumps).
        "bid": _bid_choices(1, (view.get("current_bid") or {}).get("tricks", 1), lang),
        "seat_options": seat_options(tuple(sorted(names.items()))),
        # every entry can be taken back until the hand is confirmed, a contract entered
        # directly too (the engine's legal actions say what can)
        "can_undo_bid": "undo_bid" in undoable,
        "undo_contract": view["phase"] == "tricks" and not view["auction"],
        "can_undo_hand": "undo_hand" in undoable,
        "tricks_pad": TRICKS_PAD,
    }


def _trick_seats(view: dict, names: dict, to_act, lang: str) -> list[str]:
    """Each seat's place in the trick, in seat order, as `trick_slot` draws it: the same
    for every phone at the table (the page's style lays them out from the phone's own
    seat round, and marks its own: `data-me`, games.render.live_html)."""
    played = {p["seat"]: p["card"] for p in view["trick"]}
    return [
        trick_slot(
            seat,
            names.get(seat, ""),
            len(to_act) == 1 and seat in to_act,
            card_html(lang, played[seat]) if seat in played else "",
        )
        for seat in range(len(view["hand_sizes"]))
    ]


@functools.lru_cache(maxsize=4096)
def other_player(lang: str, seat: int, name: str, cards: int, dealer: bool, turn: bool) -> str:
    """A player in the players' pane: name, cards in hand, "dealer", "their turn".
    Drawn once per process for each language and content and shared by every phone: a
    card played changes two or three of them in each language at the table, so written
    here with the catalogue's words (0.03 ms, where a template took about 0.1). Every
    seat is listed, the same for every phone: the page's style hides the phone's own
    (`data-me`, games.render.live_html). A plain str, written with |safe."""
    with in_language(lang):
        words = [name, ngettext("%(n)s card", "%(n)s cards", cards) % {"n": cards}]
        if dealer:
            words.append(gettext("dealer"))
        if turn:
            words.append(gettext("their turn"))
    css = ' class="their-turn"' if turn else ""
    return f'<li id="player-{seat}"{css}>{" · ".join(map(escape, words))}</li>'


@functools.lru_cache(maxsize=4096)
def hand_card(lang: str, card_id: str, legal: bool, reason: str | None) -> str:
    """A card of the phone's own hand as a button: one to play it, or, when it may not be
    played, one that says why (`reason`, a code). Drawn once per process for each language
    and content and shared by every phone: the hand's template drew 10 to 14 of them with
    each update of its region (0.5 ms). A plain str, written with |safe."""
    entry = {"id": card_id, "html": card_html(lang, card_id), "legal": legal, "reason": reason}
    return draw("games/triumfdrez/_hand_card.html", {"entry": entry}, lang).strip()


@functools.lru_cache(maxsize=1024)
def last_trick_html(
    lang: str, moment: str, winner: str, reason: str, plays: tuple[tuple[str, str], ...]
) -> str:
    """The last trick (a part of the trick's region): who won it and why (`reason`,
    worded), and each card played in it (`plays`: (name, card) pairs). Drawn once per
    process for each language and trick and shared by every phone: the trick's region is
    drawn with every card played, the last trick changes once a trick. `moment`: what
    the page's script shows it by, once (the hand and the tricks played). A plain str,
    written with |safe."""
    last = {
        "moment": moment,
        "winner": winner,
        "reason": reason,
        "plays": [{"name": name, "card": card_html(lang, card)} for name, card in plays],
    }
    with in_language(lang):
        return draw("games/triumfdrez/_last_trick.html", {"last": last}, lang).strip()


@functools.lru_cache(maxsize=4096)
def trick_slot(seat: int, name: str, turn: bool, card: str) -> str:
    """A seat's place in the trick (a part of the trick's region): its name, and the card
    it played (`card`, drawn in the phone's language; "" for none). Drawn once per
    process for each content and shared by every phone: a card played changes one place
    (and whose turn it is), and the others are not drawn again. A plain str, written
    with |safe."""
    slot = {"seat": seat, "name": name, "turn": turn, "card": card}
    return draw("games/triumfdrez/_trick_slot.html", {"slot": slot})


def _led(trick: list[dict], lang: str) -> dict | None:
    """The figure the trick was led with (what others follow, D-FOLLOW)."""
    if not trick:
        return None
    figure = figure_of(trick[0]["card"])
    return {"symbol": FIGURE_SYMBOLS[figure], "name": _offered(lang)["figure_names"][figure]}


def _digital_board(state: dict, names: dict) -> dict:
    """What every seat sees alike at a digital table (a spectator too): the auction, the
    contract, the trick, the last trick and why it was won, the sides' tricks and scores,
    the other players, the hand's result and the match's."""
    view = engine.view(state, None)
    lang = translation.get_language()  # once: looking it up costs 4 µs
    offered = _offered(lang)
    contract = view.get("contract")
    to_act = engine.to_act(state)
    # one seat to act: the auction or the play; several: the hand is over and anyone
    # deals the next; none: the match is over
    hand_done = len(to_act) != 1
    teams = view["teams"]
    declaring = engine.team_of(teams, contract["seat"]) if contract else None
    sides = [
        {
            "index": i,
            "names": _names_of(names, members),
            "tricks": sum(view["tricks_won"][s] for s in members),
            "score": view["scores"][i],
            "declaring": i == declaring,
        }
        for i, members in enumerate(teams)
    ]
    top = view.get("current_bid")
    last = view.get("last_trick")
    last_trick = None
    if last and contract:
        last_trick = last_trick_html(
            lang,
            f"trick-{view['hand_no']}-{sum(view['tricks_won'])}",
            names.get(last["winner"], ""),
            offered["reasons"][last["reason"]],
            tuple((names.get(p["seat"], ""), p["card"]) for p in last["cards"]),
        )
    result = view.get("last_result")
    explained = None
    if result and hand_done:
        c = result["contract"]
        won, bid = result["tricks_taken"], c["tricks"]
        explained = {
            "declarer": names.get(c["seat"], ""),
            "contract": bid_words(c, lang),
            "bid": bid,
            "won": won,
            "made": result["made"],
            "difference": abs(won - bid),
            "points": result["value"],
            "sides": [
                {"names": _names_of(names, teams[i]), "points": p}
                for i, p in enumerate(result["points"])
            ],
        }
    return {
        "can_pass": top is not None,
        "bid": _bid_choices(top["tricks"] if top else 1, None, lang),
        "auction": _auction_words(view, names, lang),
        "contract_words": bid_words(contract, lang) if contract else None,
        "declarer_name": names.get(contract["seat"]) if contract else None,
        "sides": sides,
        # the trick laid out by seat, each phone's page from its own seat round
        "trick_seats": _trick_seats(view, names, to_act, lang),
        "led": _led(view["trick"], lang),
        "last_trick": last_trick,
        "others": [
            other_player(
                lang,
                seat,
                names.get(seat, ""),
                size,
                seat == view["dealer"],
                len(to_act) == 1 and seat in to_act,
            )
            for seat, size in enumerate(view["hand_sizes"])
        ],
        "dealer_name": names.get(view["dealer"]),
        "turn_name": names.get(to_act[0]) if len(to_act) == 1 else None,
        "explained": explained,
        "over": engine.is_over(state),
        "winner_names": _names_of(names, teams[view["winner"]])
        if view.get("winner") is not None
        else [],
        "ranking": _ranking(view, teams, names),
        "too_low": offered["too_low"],
    }


def _digital(state: dict, me, names: dict) -> dict:
    """The table from one seat's view, besides what every seat sees (`_digital_board`):
    its own hand with the cards it may play now, its side, whether it bids, and other
    hands only where the view shows them (an open contract, D-OPEN)."""
    view = engine.view(state, me)
    lang = translation.get_language()  # once: looking it up costs 4 µs
    card_of = functools.partial(_card_context, lang)
    hand = view.get("hand") or []
    to_act = engine.to_act(state)
    bidding = me is not None and me in to_act and view.get("lowest_beating") is not None
    legal = set(view.get("playable") or ())
    unplayable = view.get("unplayable") or {}

    # the hand by figure, each card drawn ahead (`hand_card`); why a card may not be
    # played is a code, its sentence sent once (`reasons`)
    hand_cards = tuple(
        hand_card(lang, card, card in legal, unplayable.get(card))
        for figure in (*engine.FIGURES, "neutral")
        for card in hand
        if figure_of(card) == figure
    )
    open_hands = [
        {
            "seat": seat,
            "name": names.get(seat, ""),
            "cards": "".join(card_of(c)["html"] for c in cards),
        }
        for seat, cards in enumerate(view.get("open_hands") or [])
        if cards and seat != me
    ]
    return {
        "view": view,
        "hand": hand_cards,
        # why the unplayable cards may not be played, each sentence once (static/js/triumfdrez.js)
        "reasons": json.dumps(
            {code: str(labels.sentence(code, adapter)) for code in set(unplayable.values())},
            ensure_ascii=False,
            sort_keys=True,
        ),
        "my_turn": bidding or bool(legal),
        "bidding": bidding,
        # the Bid button is enabled only for bids that beat the current one (static/js/triumfdrez.js)
        "lowest_beating": ",".join(map(str, view.get("lowest_beating") or ())),
        "my_side": None if me is None else engine.team_of(view["teams"], me),
        "open_hands": open_hands,
    }
