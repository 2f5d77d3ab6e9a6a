"""The player's notification settings page, and the endpoints its script posts a
browser's push subscription to (static/js/notify.js)."""

import json

from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from notify import services, vapid
from notify.forms import PrefsForm, SubscriptionForm
from notify.models import PushSubscription
from players import identity


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request):
    player = identity.current(request)
    if player is None:
        return render(request, "notify/settings.html", {"player": None})
    prefs = services.prefs_of(player)
    form = PrefsForm(request.POST if request.method == "POST" else None, instance=prefs)
    if form.is_bound and form.is_valid():
        services.save_prefs(player, form.cleaned_data, get_language())
        return redirect("notify_settings")
    context = {
        "player": player,
        "form": form,
        "vapid_key": vapid.public_key(),
        "browsers": PushSubscription.objects.filter(player=player).count(),
    }
    return render(request, "notify/settings.html", context, status=400 if form.errors else 200)


def _subscription(request):
    """The subscription posted as JSON ({"endpoint", "keys": {"p256dh", "auth"}})."""
    try:
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        fields = {
            "endpoint": data.get("endpoint"),
            "p256dh": keys.get("p256dh"),
            "auth": keys.get("auth"),
        }
    except (ValueError, AttributeError):
        fields = {}
    return SubscriptionForm({k: v for k, v in fields.items() if isinstance(v, str)})


def _refused(message: str, status: int = 400):
    return JsonResponse({"ok": False, "error": message}, status=status)


@require_POST
def subscribe(request):
    player = identity.current(request)
    if player is None:
        return _refused(_("Sit at a table or sign in first."), 403)
    form = _subscription(request)
    if not form.is_valid():
        return _refused(str(SubscriptionForm.error))
    data = form.cleaned_data
    services.subscribe(player, data["endpoint"], data["p256dh"], data["auth"], get_language())
    return JsonResponse({"ok": True})


@require_POST
def unsubscribe(request):
    player = identity.current(request)
    if player is None:
        return _refused(_("Sit at a table or sign in first."), 403)
    try:
        endpoint = json.loads(request.body or b"{}").get("endpoint")
    except (ValueError, AttributeError):
        endpoint = None
    if not isinstance(endpoint, str):
        return _refused(str(SubscriptionForm.error))
    services.unsubscribe(player, endpoint)
    return JsonResponse({"ok": True})
