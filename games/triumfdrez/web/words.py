"""TriumfDrez in words: the refusals of its engines, the rules' names, the cards' figure
symbols, figure and colour names (D-DECK: a card always shows its symbol, number and
colour name, never colour alone), bids and the log's lines.

Each function translates into the active language and returns plain str: the regions'
context is digested after every change, and a lazy translation is slow to digest."""

import functools

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.triumfdrez.engine import BID_MAX, FIGURE, FIGURES, NUMBER

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
    "no_such_hand": _("No hand of that number has been recorded."),
    "no_change": _("That correction changes nothing in the hand."),
    "no_correction": _("There is no correction waiting for your answer."),
    "same_side": _("A player of another side confirms the correction."),
    "bids_entered": _("The dealer is set before the first bid of the hand."),
    "bad_team": _("Choose a side of this table."),
    "bad_points": _("Adjust by a whole number of points from -1000 to 1000, not 0."),
    "bad_reason": _("Give a reason of 1 to 80 characters."),
}

# Why the winning card of a trick won (D-RANK), by the strength it had (the engine's
# tricks.win_reason).
TRICK_REASONS = {
    "best": _("the trump figure in the super-trump colour, the strongest card"),
    "supertrump": _("the super-trump colour, highest figure first"),
    "trump": _("the highest card of the trump figure"),
    "led": _("the highest card of the led figure"),
    "leader": _("only neutral cards: the leader takes it"),
}

# The rules' names, the text of links to them (the rulebooks' own headings).
RULE_NAMES = {
    "D-DECK": pgettext_lazy("rule", "The deck"),
    "D-PLAYERS": pgettext_lazy("rule", "Players and partners"),
    "D-DEAL": pgettext_lazy("rule", "The deal, and who plays next"),
    "D-AUCTION": pgettext_lazy("rule", "Choosing the trump: the auction"),
    "D-PLAY": pgettext_lazy("rule", "The declarer leads"),
    "D-FOLLOW": pgettext_lazy("rule", "Following the figure"),
    "D-RANK": pgettext_lazy("rule", "Trumps and super-trumps"),
    "D-NEUTRAL": pgettext_lazy("rule", "The neutral cards"),
    "D-OPEN": pgettext_lazy("rule", "Playing with open cards"),
    "D-SCORE": pgettext_lazy("rule", "Scoring"),
    "D-MATCH": pgettext_lazy("rule", "Winning the match"),
}


def figure_of(card_id: str) -> str:
    return FIGURE[card_id] or "neutral"


def card(card_id: str) -> dict:
    """What a card's template (games/triumfdrez/_card.html) shows: its symbol, figure,
    number and colour name, and `label`, all of it in words for screen readers."""
    return _card(translation.get_language(), card_id)


@functools.lru_cache(maxsize=8 * 64)
def _card(lang: str, card_id: str) -> dict:
    """Cached per language: a screen shows dozens of cards, each the same every time
    (callers must not change the dict)."""
    figure, number = figure_of(card_id), NUMBER[card_id]
    neutral = figure == "neutral"
    figure_name = str(FIGURE_NAMES[figure])
    colour_name = None if neutral else str(COLOUR_NAMES[number])
    if neutral:
        label = gettext("%(figure)s card") % {"figure": figure_name}
    else:
        label = gettext("%(figure)s %(number)s (%(colour)s)") % {
            "figure": figure_name,
            "number": number,
            "colour": colour_name,
        }
    return {
        "id": card_id,
        "figure": figure,
        "number": number,
        "neutral": neutral,
        "symbol": FIGURE_SYMBOLS[figure],
        "figure_name": figure_name,
        "colour_name": colour_name,
        "label": label,
    }


def figure(name: str) -> dict:
    """A figure's symbol and name (`name`: the engine's figure, or "neutral")."""
    return {"symbol": FIGURE_SYMBOLS[name], "name": str(FIGURE_NAMES[name])}


def card_words(card_id: str) -> str:
    """'knight-9' → '♞ Knight 9 (green)': symbol, figure, number and colour, never one alone."""
    figure, number = figure_of(card_id), NUMBER[card_id]
    if figure == "neutral":
        return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]}"
    return f"{FIGURE_SYMBOLS[figure]} {FIGURE_NAMES[figure]} {number} ({COLOUR_NAMES[number]})"


def bid_words(bid: dict) -> str:
    """A bid in words: tricks, trump, super-trump, and "open" if it is."""
    return _bid_words(
        translation.get_language(),
        bid["tricks"],
        bid.get("trump"),
        bid.get("supertrump"),
        bool(bid.get("open")),
    )


@functools.lru_cache(maxsize=1024)
def _bid_words(lang: str, tricks: int, trump, supertrump, open_: bool) -> str:
    """Cached per language: every board translates its auction after every move, and a
    plural (ngettext) is slow to look up."""
    parts = [
        ngettext("%(n)s trick", "%(n)s tricks", tricks) % {"n": tricks},
        f"{FIGURE_SYMBOLS[trump]} {FIGURE_NAMES[trump]}" if trump else gettext("no trump"),
        f"{supertrump} {COLOUR_NAMES[supertrump]}" if supertrump else gettext("no super-trump"),
    ]
    if open_:
        parts.append(gettext("open"))
    return " · ".join(parts)


def auction(view: dict, names: dict) -> list[dict]:
    """The auction so far, each bid or pass: who, in words, and whether it is a pass."""
    passed = str(PASS)
    return [
        {
            "name": names.get(entry["seat"], ""),
            "words": passed if entry.get("pass") else bid_words(entry),
            "passed": bool(entry.get("pass")),
        }
        for entry in view["auction"]
    ]


def bid_choices(
    lowest: int,
    default: int | None,
    opening: bool = False,
    chosen: dict | None = None,
    blank: bool = False,
) -> dict:
    """What a bid's fields offer (games/triumfdrez/_bid_tricks.html): tricks from `lowest`
    to the most a bid names, `default` chosen; the figures and the colours, without "no
    trump" and "no super-trump" for the `opening` bid of a hand (D-AUCTION ruling); and
    `key`, all of it, that its HTML is cached by ({% cache %} in the templates).
    `chosen`: a bid whose tricks, figure, colour and openness the fields show chosen (the
    lowest that beats the current one); `blank`: no tricks chosen (no bid beats it)."""
    shown = None
    if chosen is not None:
        shown = (chosen["tricks"], chosen["trump"], chosen["supertrump"], bool(chosen["open"]))
    return _bid_choices(translation.get_language(), lowest, default, opening, shown, blank)


@functools.lru_cache(maxsize=256)
def _bid_choices(
    lang: str, lowest: int, default: int | None, opening: bool, shown: tuple | None, blank: bool
) -> dict:
    """Cached per language (callers must not change the dict)."""
    tricks, trump, supertrump, open_ = shown or (default, None, None, False)
    choices = {
        "tricks": tuple(range(lowest, BID_MAX + 1)),
        "default": None if blank else tricks,
        "blank": blank,
        "opening": opening,
        "figures": tuple((f, FIGURE_SYMBOLS[f], str(FIGURE_NAMES[f])) for f in FIGURES),
        "colours": tuple((n, str(name)) for n, name in COLOUR_NAMES.items()),
        "trump": trump,
        "supertrump": supertrump,
        "open": open_,
    }
    choices["key"] = repr(tuple(choices.values()))
    return choices


def to_beat(view: dict, names: dict) -> dict | None:
    """The bid to beat in the auction (the latest), in words and who bid it; None before
    the first bid."""
    top = view.get("current_bid")
    if top is None:
        return None
    return {"name": names.get(top["seat"], ""), "words": bid_words(top)}


def describe(mode: str, action: dict, name: str | None) -> str:
    """One logged action in words, in the active language."""
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
        return _("%(who)s entered the contract: %(bid)s.") % {"who": who, "bid": bid_words(action)}
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
    if kind == "correct_hand":
        return ngettext(
            "%(who)s proposed a correction of hand %(n)s: %(bid)s, %(tricks)s trick won.",
            "%(who)s proposed a correction of hand %(n)s: %(bid)s, %(tricks)s tricks won.",
            action["won"],
        ) % {"who": who, "n": action["hand_no"], "bid": bid_words(action), "tricks": action["won"]}
    if kind == "confirm":
        return _("%(who)s confirmed the correction.") % {"who": who}
    if kind == "reject":
        return _("%(who)s turned down the correction.") % {"who": who}
    if kind == "set_dealer":
        return _("%(who)s set who deals this hand.") % {"who": who}
    if kind == "adjust":
        return _("%(who)s adjusted a score by %(points)+d: %(reason)s") % {
            "who": who,
            "points": action["points"],
            "reason": action["reason"],
        }
    return _("%(who)s played.") % {"who": who}


def tricks_words(won: int) -> str:
    return ngettext("%(n)s trick won", "%(n)s tricks won", won) % {"n": won}


def hand_words(hand: dict, names: dict) -> str:
    """A hand's contract and tricks in words: 'Ana: 7 tricks · … · 8 tricks won'."""
    declarer = names.get(hand["contract"]["seat"], "")
    return f"{declarer}: {bid_words(hand['contract'])} · {tricks_words(hand['tricks_won'])}"


def event_line(event: dict, names: dict, teams) -> str:
    """A correction, an adjustment or a dealer set, for the history: what, who entered it
    (and who confirmed a correction)."""
    who = names.get(event["by"], "")
    kind = event["type"]
    if kind == "dealer":
        return _("%(who)s set the dealer: %(dealer)s (was %(before)s).") % {
            "who": who,
            "dealer": names.get(event["dealer"], ""),
            "before": names.get(event["before"], ""),
        }
    if kind == "adjustment":
        return _("%(who)s adjusted %(side)s by %(points)+d: %(reason)s") % {
            "who": who,
            "side": " + ".join(names.get(s, "") for s in teams[event["team"]]),
            "points": event["points"],
            "reason": event["reason"],
        }
    return _(
        "%(who)s corrected hand %(n)s, confirmed by %(confirmer)s: %(before)s → %(after)s."
    ) % {
        "who": who,
        "n": event["hand_no"],
        "confirmer": names.get(event["confirmed_by"], ""),
        "before": hand_words(event["before"], names),
        "after": hand_words(event["after"], names),
    }


def hint_words(action: dict) -> str:
    """What the computer would do (a hint: games.hints), as a phone says it, in the
    active language: "Play ♞ Knight 9 (green)"."""
    kind = action.get("type")
    if kind == "play":
        return _("Play %(card)s") % {"card": card_words(action["card"])}
    if kind == "bid":
        return _("Bid: %(bid)s") % {"bid": bid_words(action)}
    if kind == "pass":
        return str(_("Pass"))
    return describe("digital", action, None)
