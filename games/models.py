"""Tables, their seats and the append-only log of actions.

A table's `state` is the engine state (plain JSON) and `version` counts the
changes applied to it; only games.services writes either.
"""

import hashlib
import secrets
import time

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# Six characters without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
# Seconds after which a hint being worked out (games.hints) is given up for lost (its
# process died), past settings.THINK_TIMEOUT: the seat may ask again.
HINT_LOST_AFTER = 10.0


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ActFor(models.TextChoices):
    """Who may enter a move for a seat whose phone is absent (companion mode)."""

    HOST = "host", _("The host only")
    ANY = "any", _("Any seated player")


class Table(models.Model):
    ActFor = ActFor

    class Mode(models.TextChoices):
        COMPANION = "companion", _("Companion")
        DIGITAL = "digital", _("Digital")

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Closed")

    # verbose names: the admin's column titles (games.admin)
    code = models.CharField(_("code"), max_length=CODE_LENGTH, unique=True)
    game = models.CharField(_("game"), max_length=20)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    config = models.JSONField(_("settings"), default=dict)
    state = models.JSONField(_("state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.LOBBY
    )
    host_token_hash = models.CharField(max_length=64)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("last activity"), auto_now=True)
    # Set by staff (games.admin): a finished session kept as a record, never purged.
    archived = models.BooleanField(_("archived"), default=False)
    # whether the players may say the table phrases (games.phrases); the host decides
    phrases = models.BooleanField(_("table phrases"), default=True)
    # Online play (games.online), digital tables only: listed among the open tables for
    # anyone to join; its free seats get computer players after `fill_after` seconds of
    # waiting (None: never); a person's seat whose phone is gone on its turn goes to a
    # computer player of `takeover_level` after `takeover` seconds (None: the table
    # waits); a turn clock (games.online.clock_new; {}: none). `lang`: the host's language.
    open = models.BooleanField(_("open to anyone"), default=False)
    fill_after = models.PositiveIntegerField(null=True, blank=True)
    takeover = models.PositiveSmallIntegerField(null=True, blank=True)
    takeover_level = models.CharField(max_length=20, blank=True)
    clock = models.JSONField(default=dict, blank=True)
    lang = models.CharField(max_length=8, blank=True)
    # Companion mode: who may enter for a seat whose phone is gone or away (the host may
    # enter for any other seat whatever this says; games.services.apply_action)
    act_for = models.CharField(
        _("who may act for an absent seat"),
        max_length=5,
        choices=ActFor.choices,
        default=ActFor.HOST,
    )

    # Hints (games.hints): whether a seated player may ask what the computer would play
    # (a digital table's lobby option; the host decides)
    hints = models.BooleanField(_("hints"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated"]
        indexes = [
            models.Index(fields=["status", "updated"]),
            models.Index(fields=["open", "status", "created"]),
        ]

    def __str__(self):
        return self.code

    @property
    def players(self) -> int:
        return self.config["players"]

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_token_hash, hash_token(token))


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", _("Human")
        BOT = "bot", _("Computer")

    class StandIn(models.TextChoices):
        """Whether a computer player plays for the person in this seat, and why."""

        NONE = "", _("No")
        ASKED = "asked", _("Asked by the player")
        GONE = "gone", _("The phone was gone on its turn")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=24, blank=True)
    # a person or a computer: the admin's column of the player's kind
    kind = models.CharField(_("player"), max_length=5, choices=Kind.choices, default=Kind.HUMAN)
    bot_level = models.CharField(_("computer level"), max_length=20, blank=True)
    # Empty while the seat is free. The token itself lives only in the phone's cookie.
    token_hash = models.CharField(max_length=64, blank=True)
    # A one-time link that moves the seat to another phone.
    handover_hash = models.CharField(max_length=64, blank=True)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # The first step of a two-step move, "<version>:<value>", stored for the game's adapter
    # while the seat chooses the second (games.adapter.GameWeb.step; e.g. the pile a
    # seat took its first card from): valid only at that version.
    pending = models.CharField(max_length=20, blank=True)
    stand_in = models.CharField(max_length=5, choices=StandIn.choices, blank=True)
    # Hints (games.hints), seen by this seat's phones only: the action the computer would
    # play ({"thinking": time} while it is being worked out) at table version
    # `hint_version` (ignored once the table moved on), and how many hints the seat was
    # given this game.
    hint = models.JSONField(null=True, blank=True)
    hint_version = models.PositiveIntegerField(null=True, blank=True)
    hints = models.PositiveSmallIntegerField(_("hints"), default=0)
    # who sat here last (players.models.Player), kept after the table ends: their games
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="unique_seat_index"),
        ]

    def __str__(self):
        return f"{self.table.code}#{self.index} {self.name}"

    @property
    def taken(self) -> bool:
        return bool(self.token_hash) or self.kind == self.Kind.BOT

    def pending_at(self, version: int) -> str | None:
        """The seat's pending step if it was taken at this version of the table."""
        stamp, _sep, value = self.pending.partition(":")
        return value if value and stamp == str(version) else None

    def hint_at(self, version: int) -> dict | None:
        """The hint this seat was given at this version of the table, if any."""
        given = isinstance(self.hint, dict) and "type" in self.hint
        return self.hint if given and self.hint_version == version else None

    def hint_thinking(self, version: int) -> bool:
        """Whether a hint for this version of the table is being worked out now (not given
        up for lost: HINT_LOST_AFTER seconds past the thinking's own timeout)."""
        hint = self.hint
        if self.hint_version != version or not isinstance(hint, dict) or "type" in hint:
            return False
        since = hint.get("thinking")
        lost_after = HINT_LOST_AFTER + settings.THINK_TIMEOUT
        return isinstance(since, int | float) and time.time() - since <= lost_after


class Action(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="The table's version once this action applied.")
    seat = models.SmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    client_action_id = models.CharField(max_length=64)
    # the seat of the phone that entered it for `seat` (an absent seat's, or on a shared
    # tracker); None when the seat's own phone did
    acted_by = models.SmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="unique_action_version"),
            models.UniqueConstraint(
                fields=["table", "client_action_id"], name="unique_client_action"
            ),
        ]

    def __str__(self):
        return f"{self.table.code} v{self.version}"


class Review(models.Model):
    """The review after a finished digital game of one seat's decisions (games.review):
    each judged by the game's hard computer level from that seat's view at that moment,
    the moments that cost most kept in `moments`. One per table, seat and the table's
    version (a rematch is another game), computed once by a job of the task queue."""

    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("review status", "Waiting")
        RUNNING = "running", pgettext_lazy("review status", "Running")
        DONE = "done", pgettext_lazy("review status", "Done")
        FAILED = "failed", pgettext_lazy("review status", "Failed")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("table")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    version = models.PositiveIntegerField(_("version"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.WAITING
    )
    # decisions judged so far, of `total`
    done = models.PositiveIntegerField(_("decisions judged"), default=0)
    total = models.PositiveIntegerField(_("decisions"), default=0)
    # the costliest moments, costliest first: {"step", "played", "best", "cost"}
    moments = models.JSONField(_("costliest moves"), default=list, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("last activity"), auto_now=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat", "version"], name="unique_review_of_a_game"
            ),
        ]

    def __str__(self):
        return f"{self.table.code}#{self.seat} v{self.version}"
