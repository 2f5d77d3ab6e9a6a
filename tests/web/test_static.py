"""Our own static files — including htmx and its WebSocket extension, which
django-htmx ships — are served by the site itself, never from a CDN."""

import re

import pytest


@pytest.mark.parametrize(
    "path",
    [
        "/static/css/site.css",
        "/static/css/pages.css",
        "/static/js/table.js",
        "/static/js/triggs.js",
        "/static/js/triumfdrez.js",
        "/static/django_htmx/htmx-2.min.js",
        "/static/django_htmx/ext/hx-ws-2.min.js",
    ],
)
def test_static_file_is_served_by_the_site(client, path):
    response = client.get(path)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert len(body) > 500


LOADS = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


@pytest.mark.django_db
def test_a_table_page_loads_only_what_it_needs(client):
    """Site-wide rules and the game's; its script and the live table's; not the other
    pages' rules (pages.css) nor what only the rules pages draw (issue 16: first load)."""
    from tests.web.test_tables import create

    page = client.get(create(client)["Location"]).content.decode()
    assert LOADS.findall(page) == [
        "/static/css/site.css",
        "/static/css/triggs.css",
        "/static/js/table.js",
        "/static/js/triggs.js",
    ]
    rules = client.get("/es/rules/triggs/").content.decode()
    assert LOADS.findall(rules) == [
        "/static/css/site.css",
        "/static/css/pages.css",
        "/static/css/triggs.css",
        "/static/css/triggs-rules.css",
    ]
