"""Our own static files — including htmx and its WebSocket extension, which
django-htmx ships — are served by the site itself, never from a CDN."""

import pytest


@pytest.mark.parametrize(
    "path",
    [
        "/static/css/site.css",
        "/static/django_htmx/htmx-2.min.js",
        "/static/django_htmx/ext/hx-ws-2.min.js",
    ],
)
def test_static_file_is_served_by_the_site(client, path):
    response = client.get(path)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert len(body) > 500
