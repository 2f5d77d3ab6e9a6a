"""The people who play: a Player is remembered by a phone from the first time it sits
down (a guest: a signed cookie holds its token, only the token's hash is stored) and may
be tied to an account (Django's auth user) to follow its owner to other phones. A table's
seat names the Player who sat there (games.models.Seat.player).

Only players.services writes them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    # empty for a player reached only through its account (its guest cookie was merged)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    name = models.CharField(_("name"), max_length=24, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("account"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    seen = models.DateTimeField(_("last seen"), auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["-seen"]

    def __str__(self):
        return self.name or f"#{self.pk}"


class Group(models.Model):
    """Friends who play together ("Thursday table"): its members, the tables they tagged
    with it and, from those, its league (players.league)."""

    name = models.CharField(_("name"), max_length=40)
    code = models.CharField(max_length=6, unique=True)
    # the invite link's token is derived from it (players.services.invite_token): a new
    # one replaces the link. Empty for a group made before it, whose link is the code's.
    invite_nonce = models.CharField(max_length=32, blank=True, default="", editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    members = models.ManyToManyField(
        Player, through="Membership", related_name="groups", verbose_name=_("members")
    )
    tables = models.ManyToManyField(
        "games.Table", related_name="groups", blank=True, verbose_name=_("tables")
    )

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["name"]

    def __str__(self):
        return self.name


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE)
    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="one_membership"),
        ]

    def __str__(self):
        return f"{self.player} · {self.group}"
