"""Translated sentences for what the table layer and the engines speak of in codes.

The table layer's own refusals and the codes every engine shares (the engine
contract's) are here; each game's adapter (games.adapter) words its engines' own
codes. `refusal` is the one place that turns a code into what a phone is shown: the
sentence and the link to the rule it enforces, from the registry. Everything here is
lazy so it follows the active language.
"""

from babel.lists import format_list
from django.utils.translation import get_language, ngettext_lazy, to_locale
from django.utils.translation import gettext_lazy as _

from games.templatetags.babel_tags import num

# Why a request was refused: the table layer's codes and the codes of the engine
# contract that every engine may give. Each sentence is shown with a link to its rule.
REFUSALS = {
    # the table layer
    "stale": _("Someone else played first: here is the table as it is now. Try again."),
    "not_playing": _("The game has not started yet."),
    "table_closed": _("This table has been closed."),
    "seat_taken": _("That seat has just been taken. Pick another one."),
    "seat_not_yours": _("This phone does not hold that seat."),
    "one_hand": _("This phone already holds a seat in this game: it cannot take a second one."),
    "not_host": _("Only the host can do that."),
    "seats_missing": _("Every seat needs a player before the game can start."),
    "already_started": _("The game has already started."),
    "bad_request": _("That request was not understood. Nothing was changed."),
    "too_large": _("That message is too large. Nothing was changed."),
    "slow_down": _("Too many messages at once: wait a moment and try again."),
    "bad_name": _("Enter a name of 1 to 24 characters."),
    "name_taken": _("Someone at this table already has that name: choose another."),
    # the game's own counts are in `players_choice`, shown wherever the game is known
    "bad_players": _("This game is not played with that number of players."),
    # temporary: one game's adapter still names this code for an option's errors; the
    # lobby's form replaces them with `number_range` (that game's helper drops the code)
    "bad_target": _("The table's settings are not valid."),
    "busy": _("The site is busy: please try again."),
    "no_such_table": _("There is no table with that code. Check the six characters."),
    "bad_handover": _("This link has expired, has already been used or has been replaced."),
    "bad_seat": _("There is no such seat at this table."),
    "bots_digital_only": _("Computer players can only sit at digital tables."),
    "game_not_over": _("A new game can be dealt once this one is over."),
    "phrases_off": _("The host has switched off the table phrases."),
    "hints_off": _("The host does not allow hints at this table."),
    "not_in_play": _("A computer player can play for you only during a digital game."),
    "act_for_hidden": _("Nobody may enter moves for another seat in a game of hidden hands."),
    "act_for_host_only": _("At this table only the host may enter moves for another seat."),
    "act_for_present": _(
        "That player's phone is here: they enter their own moves. You may enter for a "
        "seat whose phone is gone or away."
    ),
    "act_for_not_this": _("That cannot be entered for another seat."),
    "act_for_not_gone": _(
        "Only the host may answer for a seat, once its phone has been gone for a minute."
    ),
    # every engine
    "bad_config": _("The table's settings are not valid."),
    "bad_action": _("That move is not understood. Nothing was changed."),
    "unknown_action": _("That move is not understood. Nothing was changed."),
    "missing_field": _("That move is incomplete. Nothing was changed."),
    "unexpected_field": _("That move has unexpected parts. Nothing was changed."),
    "game_over": _("The game is over."),
    "not_your_turn": _("It is not your turn."),
    "wrong_phase": _("That is not possible at this stage of the game."),
}


# Why a replay parts from the saved session; shown to staff above the replay.
REPLAY_REASONS = {
    "no_start": _(
        "The log does not begin with the start of the game "
        "(version 1, no seat, a whole-number seed)."
    ),
    "bad_version": _("Version %(expected)s was expected here, but the log has %(found)s."),
    "bad_config": _("The engine refuses the table's settings."),
    "refused": _("The rules refuse this action (%(code)s): %(reason)s"),
    "no_log": _("The table has a saved state but no log to replay."),
    "no_saved_state": ngettext_lazy(
        "The log has %(count)s action but the table has no saved state.",
        "The log has %(count)s actions but the table has no saved state.",
        "count",
    ),
    "version_differs": _(
        "The table is at version %(saved)s but its log ends at version %(logged)s."
    ),
    "state_differs": _("The replayed state differs from the saved state in: %(keys)s."),
}


# Why a session file is refused at import (games.transfer).
IMPORT_REASONS = {
    "no_file": _("Choose a session file to import."),
    "too_large": _("The file is larger than 2 MB."),
    "not_json": _("The file is not a JSON document in UTF-8."),
    "bad_format": _("This file is not a session exported from this site."),
    "bad_format_version": _(
        "This session file has format version %(found)s; this site reads version %(expected)s."
    ),
    "unknown_game": _("Unknown game: %(game)s."),
    "unknown_mode": _("Unknown mode: %(mode)s."),
    "bad_field": _("The field “%(field)s” is missing or has the wrong type."),
    "bad_config": REFUSALS["bad_config"],
    "busy": REFUSALS["busy"],
    "bad_seats": _("The seats must be numbered 0 to %(last)s, one for each player."),
    "bad_name": _(
        "The name in “%(field)s” (“%(name)s”) is not one a player could choose: 1 to "
        "%(max)s characters with something visible, no control, formatting or "
        "text-direction characters (such as a right-to-left override) and no extra spaces."
    ),
    "unknown_level": _(
        "Unknown computer level in “%(field)s”: %(level)s. The levels of %(game)s are: %(levels)s."
    ),
    "not_started": _("This session never started: there is nothing to replay or resume."),
    "diverges": _("The log does not replay at step %(step)s: %(reason)s"),
    "version_mismatch": _(
        "The file says the session ends at version %(claimed)s but its log ends at "
        "version %(logged)s."
    ),
    "hash_mismatch": _(
        "The replayed session does not end on the state recorded in the file (its SHA-256 "
        "differs): the file has been altered or damaged."
    ),
    # a zip of sessions (the export of several tables)
    "bad_archive": _("The zip file is damaged or cannot be read."),
    "empty_archive": _("The zip file holds no session file."),
    "too_many_sessions": ngettext_lazy(
        "The zip file holds more than %(max)s file: import its sessions in smaller zips.",
        "The zip file holds more than %(max)s files: import its sessions in smaller zips.",
        "max",
    ),
    "archive_too_large": _("Unpacked, the zip file's sessions take more than %(max)s MB."),
    "in_archive": _("In the file “%(file)s” of the zip: %(reason)s"),
}


def reason(reasons: dict, code: str, params: dict) -> str:
    """One of `reasons` in the active language, filled in with `params` (a whole number
    picks the plural form of a reason that counts it)."""
    values = {key: value if type(value) is int else str(value) for key, value in params.items()}
    return str(reasons[code] % values)


def sentence(code: str, web=None) -> str:
    """A refusal code in words: the game's own (`web`, its adapter), else the shared."""
    if web is not None and code in web.refusals:
        return web.refusals[code]
    return REFUSALS.get(code, REFUSALS["bad_request"])


PLAYERS_CHOICE = ngettext_lazy("Choose %(counts)s player.", "Choose %(counts)s players.", "n")
NUMBER_RANGE = _("Choose a number from %(min)s to %(max)s.")


def players_choice(game) -> str:
    """ "Choose 2, 3 or 4 players." from the registry's counts of `game` (its Game), the
    list as the active language writes it (Babel)."""
    counts = [num(n) for n in range(game.min_players, game.max_players + 1)]
    listed = format_list(counts, style="or", locale=to_locale(get_language() or "es"))
    return str(PLAYERS_CHOICE % {"counts": listed, "n": game.max_players})


def number_range(low: int, high: int) -> str:
    """The error of a whole-number option outside its range (the field's own bounds:
    games.adapter.GameWeb.option_range)."""
    return str(NUMBER_RANGE % {"min": num(low), "max": num(high)})


# refusals whose sentence depends on the game: code → sentence(the registry's Game)
BY_GAME = {"bad_players": players_choice}


def refusal(error, game=None) -> dict:
    """A refusal as shown to a phone: its sentence and, if any, the rule it enforces
    (`game`: the registry's Game of the table, for the rule's page)."""
    rule = getattr(error, "rule", None)
    web = game.web if game is not None else None
    linked = rule and game is not None
    by_game = game is not None and error.code in BY_GAME
    return {
        "code": error.code,
        "message": BY_GAME[error.code](game) if by_game else sentence(error.code, web),
        "rule": rule,
        "rule_url": game.rule_url(rule) if linked else None,
        "rule_name": game.rule_name(rule) if linked else rule,
    }


def bot_name(index: int, level: str = "", game=None) -> str:
    """'Computer 2' for the bot on seat index 1: short enough for a seat's place on a
    phone; its level is said beside it, as a badge (`bot_level`)."""
    return _("Computer %(n)s") % {"n": index + 1}


def bot_level(seat, game=None) -> str:
    """A computer player's level in words ('strong'), '' for a person (`game`: the
    registry's Game)."""
    if seat.kind != seat.Kind.BOT:
        return ""
    levels = game.web.bot_levels if game is not None else {}
    return str(levels[seat.bot_level][1]) if seat.bot_level in levels else ""


def bot_levels(game) -> tuple[tuple[str, str, str], ...]:
    """The computer players' levels of `game` (the registry's Game), each (level, name,
    what it is in one line: GameWeb.bot_level_notes), in the active language."""
    notes = game.web.bot_level_notes
    return tuple(
        (level, str(label), str(notes.get(level, "")))
        for level, (_player, label) in game.web.bot_levels.items()
    )


def who(row: dict, names: dict) -> str | None:
    """Who a log row is by, as its line names them: the seat's name, and the name of the
    phone's seat that entered it for them when another did («Ana (entered by Boris)»)."""
    name = names.get(row["seat"])
    by = row.get("acted_by")
    if by is None or by == row["seat"]:
        return name
    return _("%(who)s (entered by %(by)s)") % {
        "who": name or _("Someone"),
        "by": names.get(by) or _("Someone"),
    }


def seat_name(seat, game=None) -> str:
    """A person's own name; a computer player's, worded in the active language."""
    if seat.kind == seat.Kind.BOT:
        return bot_name(seat.index, seat.bot_level, game)
    return seat.name


# A long time left, in words the page's script fills in as it counts down (data-hm, data-dh)
HOURS_MINUTES = _("%(hours)s h %(minutes)s min")
DAYS_HOURS = _("%(days)s d %(hours)s h")


def time_left(seconds: float) -> str:
    """A clock's time left as a phone shows it: minutes and seconds under an hour (the
    page counts those down), hours and minutes, or days and hours (a turn-based table)."""
    left = max(0, int(seconds))
    if left < 3600:
        return f"{left // 60}:{left % 60:02d}"
    hours, minutes = divmod(left // 60, 60)
    if hours < 24:
        return str(HOURS_MINUTES) % {"hours": hours, "minutes": minutes}
    days, hours = divmod(hours, 24)
    return str(DAYS_HOURS) % {"days": days, "hours": hours}
