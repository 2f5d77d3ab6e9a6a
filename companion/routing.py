"""WebSocket routes: one socket per phone at a table, and one per phone looking at the
open tables."""

from django.urls import re_path

from games.consumers import OpenTablesConsumer, TableConsumer, UnknownPath

websocket_urlpatterns = [
    re_path(r"^ws/table/(?P<code>[A-Z0-9]{6})/$", TableConsumer.as_asgi()),
    re_path(r"^ws/open/$", OpenTablesConsumer.as_asgi()),
    re_path(r"", UnknownPath.as_asgi()),
]
