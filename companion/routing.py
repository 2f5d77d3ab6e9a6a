"""WebSocket routes: one socket per phone at a table."""

from django.urls import re_path

from games.consumers import TableConsumer, UnknownPath

websocket_urlpatterns = [
    re_path(r"^ws/table/(?P<code>[A-Z0-9]{6})/$", TableConsumer.as_asgi()),
    re_path(r"", UnknownPath.as_asgi()),
]
