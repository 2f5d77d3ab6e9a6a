"""What a player asked to be told while their browser is closed: the browsers they
subscribed to Web Push (PushSubscription, one per browser's push endpoint) and what to
be told, when not, and by e-mail (NotificationPrefs, one per player).

Only notify.services writes them."""

import zoneinfo

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Player

KINDS = ("turn", "ended", "seated", "correction")


def validate_time_zone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(_("Unknown time zone: %(zone)s"), params={"zone": value}) from None


class PushSubscription(models.Model):
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("player"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=128)  # the browser's P-256 key, base64url
    auth = models.CharField(max_length=48)  # its auth secret, base64url
    language = models.CharField(_("language"), max_length=8)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_success = models.DateTimeField(_("last delivered"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["-created"]

    def __str__(self):
        return f"{self.player} · {self.endpoint[:40]}"

    def info(self) -> dict:
        """As pywebpush takes it (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class NotificationPrefs(models.Model):
    player = models.OneToOneField(
        Player,
        on_delete=models.CASCADE,
        related_name="notification_prefs",
        verbose_name=_("player"),
    )
    turn = models.BooleanField(_("It is my turn"), default=True)
    ended = models.BooleanField(_("A game I play ended"), default=True)
    seated = models.BooleanField(_("Someone sat at my table"), default=True)
    correction = models.BooleanField(_("A correction waits for my confirmation"), default=True)
    quiet_start = models.PositiveSmallIntegerField(
        _("quiet from (hour)"), null=True, blank=True, validators=[MaxValueValidator(23)]
    )
    quiet_end = models.PositiveSmallIntegerField(
        _("quiet until (hour)"), null=True, blank=True, validators=[MaxValueValidator(23)]
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    language = models.CharField(_("language"), max_length=8, default="es")
    digest = models.BooleanField(_("daily e-mail digest"), default=False)
    email = models.EmailField(_("e-mail address"), blank=True)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self):
        return str(self.player)

    def wants(self, kind: str) -> bool:
        return kind in KINDS and getattr(self, kind)

    def quiet(self, now) -> bool:
        """Whether `now` (aware) falls in the quiet hours, in the player's time zone:
        from quiet_start to quiet_end (past midnight when the end is the smaller)."""
        start, end = self.quiet_start, self.quiet_end
        if start is None or end is None or start == end:
            return False
        hour = now.astimezone(zoneinfo.ZoneInfo(self.time_zone)).hour
        return start <= hour < end if start < end else hour >= start or hour < end
