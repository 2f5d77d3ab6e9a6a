"""Every write of notify's models: a browser's subscription, a player's settings, and
what the push services answered."""

from django.db import transaction
from django.utils import timezone

from notify.models import NotificationPrefs, PushSubscription


def prefs_of(player) -> NotificationPrefs:
    """The player's settings, unsaved defaults when they have none yet."""
    found = NotificationPrefs.objects.filter(player=player).first()
    return found or NotificationPrefs(player=player)


def save_prefs(player, cleaned: dict, language: str) -> NotificationPrefs:
    """Save a valid settings form's cleaned data (notify.forms.PrefsForm)."""
    fields = {name: cleaned[name] for name in PREF_FIELDS if name in cleaned}
    prefs, _created = NotificationPrefs.objects.update_or_create(
        player=player, defaults={**fields, "language": language}
    )
    return prefs


PREF_FIELDS = (
    "turn",
    "ended",
    "seated",
    "correction",
    "quiet_start",
    "quiet_end",
    "time_zone",
    "digest",
    "email",
)


def subscribe(player, endpoint: str, p256dh: str, auth: str, language: str) -> PushSubscription:
    """This browser's push subscription, for `player` (a browser that was someone else's
    on this phone is now theirs); the player's language follows it."""
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"player": player, "p256dh": p256dh, "auth": auth, "language": language},
        )
        NotificationPrefs.objects.get_or_create(player=player, defaults={"language": language})
    return subscription


def unsubscribe(player, endpoint: str) -> bool:
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return bool(deleted)


def delivered(subscription_id: int) -> None:
    PushSubscription.objects.filter(pk=subscription_id).update(last_success=timezone.now())


def forget_subscription(subscription_id: int) -> None:
    """The push service said the subscription is gone (404, 410)."""
    PushSubscription.objects.filter(pk=subscription_id).delete()


def merge(guest, player) -> None:
    """A guest signs in (players.services.signed_in): the browsers it subscribed are the
    account's now, and its settings too if the account has none."""
    PushSubscription.objects.filter(player=guest).update(player=player)
    if not NotificationPrefs.objects.filter(player=player).exists():
        NotificationPrefs.objects.filter(player=guest).update(player=player)
