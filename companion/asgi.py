"""ASGI entry point: HTTP through Django, WebSockets through Channels (companion.routing)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from companion.routing import websocket_urlpatterns  # noqa: E402
from companion.websocket import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

# What start-up loaded (Django, the apps, the URL and template machinery) lives as long as
# the process: out of the collector's sight, a full collection pauses every table of the
# process for less (a third of the pause under bench/load.py: bench/RESULTS.md).
gc.freeze()
# A young collection every 10,000 allocations rather than Python's 700: most of a move's
# objects (its snapshot, each phone's context) are gone before one runs, so few of them
# are moved to the old generation, whose full collections walk every socket's objects.
# Under bench/load.py at 200 tables no full collection runs in the process's minute
# (bench/RESULTS.md, 2026-11-25).
gc.set_threshold(10_000, 10, 10)
