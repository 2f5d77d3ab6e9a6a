"""WebSocket routes. The table consumers join here as the table layer grows."""

websocket_urlpatterns: list = []
