"""The WebSocket's Origin check: a page may open a table's socket only from the site
itself — the same scheme, host and port as the socket (the Host it was asked on, which
must be one of ALLOWED_HOSTS) — or from one of CSRF_TRUSTED_ORIGINS (the public origin
behind a TLS proxy). Channels' AllowedHostsOriginValidator compares host names only, so
a page on another port or scheme of an allowed host passed."""

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginValidator(OriginValidator):
    def __init__(self, application):
        super().__init__(application, allowed_origins=[])

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        origin = self._parse(headers.get(b"origin"))
        allowed = [*settings.CSRF_TRUSTED_ORIGINS]
        host = headers.get(b"host", b"").decode("latin1")
        domain, _port = split_domain_port(host)
        if domain and validate_host(domain, settings.ALLOWED_HOSTS):
            scheme = "https" if scope.get("scheme") == "wss" else "http"
            allowed.append(f"{scheme}://{host}")
        if origin is not None and any(self.match_allowed_origin(origin, p) for p in allowed):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    @staticmethod
    def _parse(raw: bytes | None):
        if raw is None:
            return None
        try:
            return urlparse(raw.decode("latin1"))
        except ValueError:
            return None
