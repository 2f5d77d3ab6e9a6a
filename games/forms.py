"""The lobby's forms: creating a table (a game's own options come from its adapter) and
taking a seat. Refusals are the table layer's translated sentences (games.labels)."""

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games import labels, online, services
from games.models import Table
from games.registry import GAMES
from games.services import NAME_MAX, Refused

# Each mode's label in the lobby (a mode without one here is shown by its name).
MODE_LABELS = {
    "companion": _("Companion: real cards, phones keep the score"),
    "digital": _("Digital: cards on the screens, hidden hands, computer players"),
}


class NameField(forms.CharField):
    def __init__(self, html_id: str, **kwargs):
        attrs = {"autocomplete": "nickname", "maxlength": NAME_MAX, "id": html_id}
        # longer than NAME_MAX: the site's own refusal, not Django's "at most … characters"
        messages = {
            "required": labels.REFUSALS["bad_name"],
            "max_length": labels.REFUSALS["bad_name"],
        }
        super().__init__(
            label=_("Your name"),
            max_length=NAME_MAX,
            widget=forms.TextInput(attrs),
            error_messages=messages,
            **kwargs,
        )

    def to_python(self, value):
        # counted composed (NFC), as services.clean_name counts: "é" typed as e + accent
        # is one character
        return unicodedata.normalize("NFC", super().to_python(value))

    def clean(self, value):
        value = super().clean(value)  # at most NAME_MAX characters (after stripping)
        try:
            return services.clean_name(value)
        except Refused as refusal:
            raise forms.ValidationError(labels.sentence(refusal.code)) from None


def _option(label, coerce=None, **options) -> forms.ChoiceField:
    """An optional choice of the lobby (its choices set by the form for the game), a value
    it does not offer refused as a bad set-up; `coerce`: the type its value is read as."""
    errors = {"invalid_choice": labels.REFUSALS["bad_config"]}
    if coerce is not None:
        field, options = forms.TypedChoiceField, {"coerce": coerce, "empty_value": None, **options}
    else:
        field = forms.ChoiceField
    return field(label=label, required=False, error_messages=errors, **options)


class CreateTableForm(forms.Form):
    """A new table of `game` (the registry's Game): mode, players, the game's options."""

    mode = forms.ChoiceField(
        label=_("Mode"),
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": labels.REFUSALS["bad_request"]},
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": labels.REFUSALS["bad_players"]},
    )
    name = NameField("host-name")
    # how a digital table plays online (games.online, services.Online)
    open = forms.BooleanField(
        label=_("Open to anyone: list it among the open tables"), required=False
    )
    fill_after = _option(_("If nobody comes, computer players take the free seats"), int)
    takeover = _option(_("When a player's phone is gone on their turn"), int)
    takeover_level = _option(_("Computer player who stands in"))
    clock = _option(_("Turn clock"))
    pace = _option(_("Pace"), int)
    # hints (games.hints): on by default, off for a group's league table (`league`)
    hints = forms.BooleanField(
        label=_("Hints: a player may ask what the computer would play"),
        required=False,
        initial=True,
    )
    ONLINE = ("pace", "open", "fill_after", "takeover", "takeover_level", "clock", "hints")
    # companion mode: who may enter moves for a seat whose phone is absent
    act_for = _option(
        _("Companion mode: who may enter moves for a player whose phone is gone"),
        choices=Table.ActFor.choices,
        initial=Table.ActFor.HOST,
    )

    def __init__(self, game, *args, league: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        if league:  # a table of a group's league: its results are rated
            self.fields["hints"].initial = False
        if game.web.hint_player is None:  # the game has no hint player
            del self.fields["hints"]
        self.fields["mode"].choices = [(mode, MODE_LABELS.get(mode, mode)) for mode in game.modes]
        self.fields["mode"].initial = game.modes[0]
        counts = range(game.min_players, game.max_players + 1)
        self.fields["players"].choices = [(n, str(n)) for n in counts]
        self.fields["players"].initial = game.max_players
        self.fields["players"].error_messages["invalid_choice"] = labels.players_choice(game)
        self.options = game.web.options()
        for name, field in self.options.items():
            bounds = game.web.option_range(name)
            if bounds is not None:  # its errors say the field's own range
                message = labels.number_range(*bounds)
                for key in ("required", "invalid", "min_value", "max_value"):
                    field.error_messages[key] = message
            if getattr(field, "seat_choice", False):  # the seats of this game only
                field.choices = [
                    (value, text)
                    for value, text in field.choices
                    if not value.isdigit() or int(value) < game.max_players
                ]
        self.fields.update(self.options)
        if not game.web.acts_for_modes:  # the game's phones enter nothing for another
            del self.fields["act_for"]
        self.fields["fill_after"].choices = [
            ("", _("Never")),
            *((str(s), after_minutes(s // 60)) for s in online.FILL_CHOICES),
        ]
        self.fields["takeover"].choices = [
            ("", _("Wait for them")),
            *((str(s), after_seconds(s)) for s in online.TAKEOVER_CHOICES),
        ]
        self.fields["takeover"].initial = str(online.TAKEOVER_CHOICES[1])
        levels = game.web.bot_levels
        self.fields["takeover_level"].choices = [(k, label) for k, (_p, label) in levels.items()]
        self.fields["clock"].choices = [
            ("", _("No clock")),
            *((f"{m}+{i}", clock_words(m, i)) for m, i in online.CLOCK_CHOICES),
        ]
        self.fields["pace"].choices = [
            ("", _("Real time: everyone at the table now")),
            *((str(s), per_move_words(s)) for s in online.PER_MOVE_CHOICES),
        ]

    def act_for_field(self):
        return self["act_for"] if "act_for" in self.fields else None

    def online_fields(self):
        return [self[name] for name in self.ONLINE if name in self.fields]

    def online(self, lang: str) -> services.Online:
        """How the new table plays online: a companion table does not."""
        data = self.cleaned_data
        if not self.game.hidden_hands(data["mode"]):
            return services.Online(lang=lang, act_for=data.get("act_for") or Table.ActFor.HOST)
        clock = tuple(map(int, data["clock"].split("+"))) if data.get("clock") else None
        return services.Online(
            open=bool(data.get("open")),
            fill_after=data.get("fill_after"),
            takeover=data.get("takeover"),
            takeover_level=data.get("takeover_level") or "",
            clock=clock,
            per_move=data.get("pace"),
            lang=lang,
            hints=bool(data.get("hints")),
        )

    def option_fields(self):
        return [self[name] for name in self.options]

    def clean(self):
        cleaned = super().clean()
        if "mode" in cleaned and "players" in cleaned:
            errors = self.game.web.option_errors(cleaned["mode"], cleaned["players"], cleaned)
            for name, message in errors.items():
                self.add_error(name, message)
        mode = cleaned.get("mode")
        if mode and not self.game.hidden_hands(mode):
            for name in ("open", "clock", "pace"):
                if cleaned.get(name):
                    self.add_error(name, DIGITAL_ONLY)
                    break
        elif cleaned.get("pace") and cleaned.get("clock"):
            self.add_error("clock", CLOCK_OR_PACE)
        return cleaned

    def config(self) -> dict:
        """The engine config of the new table (the game's adapter builds it)."""
        data = self.cleaned_data
        return self.game.web.config(data["mode"], data["players"], data)


class JoinForm(forms.Form):
    """A free seat of `seats` (a table's Seat rows) and the player's name; `partners`: seat
    → the seat numbers of its partners (games.context.partners_of), named by its choice."""

    seat = forms.TypedChoiceField(
        label=_("Pick a free seat"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": labels.REFUSALS["seat_taken"]},
    )
    name = NameField("player-name")

    def __init__(self, seats, *args, partners=None, **kwargs):
        super().__init__(*args, **kwargs)
        free = [seat for seat in seats if not seat.taken]
        partners = partners or {}
        self.fields["seat"].choices = [
            (seat.index, seat_label(seat, partners.get(seat.index, ()))) for seat in free
        ]
        if len(free) == 1:
            self.fields["seat"].initial = free[0].index


DIGITAL_ONLY = _("Only a digital table can be open to anyone, turn-based or have a turn clock.")
CLOCK_OR_PACE = _("A turn-based table has its time per move: choose no turn clock.")


def after_minutes(minutes: int) -> str:
    return ngettext_lazy(
        "After %(n)s minute of waiting", "After %(n)s minutes of waiting", minutes
    ) % {"n": minutes}


def after_seconds(seconds: int) -> str:
    if seconds % 60:
        return ngettext_lazy(
            "A computer player after %(n)s second", "A computer player after %(n)s seconds", seconds
        ) % {"n": seconds}
    minutes = seconds // 60
    return ngettext_lazy(
        "A computer player after %(n)s minute", "A computer player after %(n)s minutes", minutes
    ) % {"n": minutes}


def per_move_words(seconds: int) -> str:
    hours = seconds // 3600
    if hours % 24:
        return ngettext_lazy(
            "Turn-based: %(n)s hour per move", "Turn-based: %(n)s hours per move", hours
        ) % {"n": hours}
    days = hours // 24
    return ngettext_lazy(
        "Turn-based: %(n)s day per move", "Turn-based: %(n)s days per move", days
    ) % {"n": days}


def clock_words(minutes: int, increment: int) -> str:
    return _("%(minutes)s min per player, +%(seconds)s s per move") % {
        "minutes": minutes,
        "seconds": increment,
    }


class PlayNowForm(forms.Form):
    """ "Play now": a game with a digital mode, and the player's name."""

    game = forms.ChoiceField(error_messages={"invalid_choice": labels.REFUSALS["bad_request"]})
    name = NameField("play-now-name")

    def __init__(self, games, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(game.slug, game.name) for game in games]


class SwitchForm(forms.Form):
    """A switch the table page posts: "1" on, "0" off."""

    on = forms.ChoiceField(
        choices=(("1", "1"), ("0", "0")),
        error_messages={"invalid_choice": labels.REFUSALS["bad_request"]},
    )


def seat_label(seat, partners=()) -> str:
    label = seat_number(seat.index)
    label = f"{label} — {seat.name}" if seat.name else label
    for n in partners:
        label += " — " + str(_("partner of seat %(n)s") % {"n": n})
    return label


def first_seat_field(label, help_text) -> forms.ChoiceField:
    """A lobby option: who starts (or deals first) at a table of real cards: a seat drawn
    at random when the game starts (the default), or one the players chose. Its seats are
    those of the largest table any game has; the create form offers those of its game."""
    seats = max(game.max_players for game in GAMES.values())
    field = forms.ChoiceField(
        label=label,
        help_text=help_text,
        choices=[("random", _("At random")), *((str(i), seat_number(i)) for i in range(seats))],
        initial="random",
        required=False,
        error_messages={"invalid_choice": labels.REFUSALS["bad_seat"]},
    )
    field.seat_choice = True
    return field


def first_seat(cleaned: dict, name: str, players: int) -> int | None:
    """The chosen seat of a first_seat_field, or None for "at random"."""
    value = cleaned.get(name) or "random"
    return None if value == "random" else int(value)


def first_seat_error(cleaned: dict, name: str, players: int) -> dict:
    seat = first_seat(cleaned, name, players)
    return {name: labels.REFUSALS["bad_seat"]} if seat is not None and seat >= players else {}


def seat_number(index: int) -> str:
    return str(_("Seat %(n)s") % {"n": index + 1})


class SayForm(forms.Form):
    """A phrase said at the table, by its key (the table's game offers it: `offered`)."""

    phrase = forms.CharField(max_length=40)

    def __init__(self, data, offered):
        super().__init__(data)
        self.offered = offered

    def clean_phrase(self):
        phrase = self.cleaned_data["phrase"]
        if phrase not in self.offered:
            raise forms.ValidationError(labels.REFUSALS["bad_request"])
        return phrase
