"""The player's notification settings, and a browser's push subscription as its page
sends it (PushSubscription.toJSON())."""

import base64
import binascii
import zoneinfo
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from notify.models import NotificationPrefs
from notify.services import PREF_FIELDS

HOURS = [("", "—")] + [(str(h), f"{h:02d}:00") for h in range(24)]


def zones() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(zoneinfo.available_timezones())]


class PrefsForm(forms.ModelForm):
    quiet_start = forms.TypedChoiceField(
        label=_("Quiet from"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    quiet_end = forms.TypedChoiceField(
        label=_("Quiet until"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=zones)

    class Meta:
        model = NotificationPrefs
        fields = PREF_FIELDS
        labels = {"digest": _("Send me a daily e-mail digest"), "email": _("E-mail address")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].error_messages["invalid_choice"] = _(
            "Choose a time zone from the list."
        )
        for name in ("quiet_start", "quiet_end"):
            self.fields[name].error_messages["invalid_choice"] = _("Choose an hour from the list.")

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("quiet_start"), cleaned.get("quiet_end")
        if (start is None) != (end is None) and "quiet_start" not in self.errors:
            raise forms.ValidationError(
                _("Give both hours of the quiet time, or neither."), code="quiet"
            )
        if cleaned.get("digest") and not cleaned.get("email"):
            self.add_error("email", _("The daily digest needs an e-mail address."))
        return cleaned


def _b64url(value: str, size: int) -> bool:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size


class SubscriptionForm(forms.Form):
    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=128)
    auth = forms.CharField(max_length=48)

    error = _("This browser's subscription could not be read: try again.")

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        scheme = urlsplit(endpoint).scheme
        if scheme != "https" and not (scheme == "http" and settings.PUSH_ALLOW_HTTP):
            raise forms.ValidationError(self.error, code="scheme")
        return endpoint

    def clean_p256dh(self):
        value = self.cleaned_data["p256dh"]
        if not _b64url(value, 65):  # an uncompressed P-256 point
            raise forms.ValidationError(self.error, code="key")
        return value

    def clean_auth(self):
        value = self.cleaned_data["auth"]
        if not _b64url(value, 16):
            raise forms.ValidationError(self.error, code="auth")
        return value
