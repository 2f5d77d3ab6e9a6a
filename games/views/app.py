"""What makes the site installable on a phone's home screen: its web app manifest, in
the page's language, and /favicon.ico for clients that ask for it by that name."""

from pathlib import Path

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.templatetags.registry_tags import game_names

BACKGROUND = "#fbfaf7"  # static/css/site.css: --paper
THEME = "#0b5cad"  # --accent, the icon's background


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def manifest(request):
    name = gettext("Table companion")
    data = {
        "name": name,
        "short_name": name,
        "description": gettext(
            "Score sheets, bid trackers and online matches for %(names)s, "
            "shared live between the phones at your table."
        )
        % {"names": game_names()},
        "lang": get_language(),
        "dir": "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def favicon(request):
    return redirect(static("icons/icon.svg"))


SERVICE_WORKER = Path(__file__).resolve().parents[2] / "static" / "js" / "sw.js"


@require_safe
@cache_control(public=True, max_age=3600)
def service_worker(request):
    """The service worker that shows "your turn" as a system notification (static/js/sw.js),
    served from the site's root so that it may serve every page."""
    return HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
