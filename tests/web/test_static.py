"""Our own static files — including htmx and its WebSocket extension, which
django-htmx ships — are served by the site itself, never from a CDN."""

import re
from pathlib import Path

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


# the style sheets that draw a game (a table, a replay, the rules, the centre screen)
GAME_SHEETS = (
    "games/triggs/static/css/triggs.css",
    "games/triggs/static/css/triggs-rules.css",
    "games/triumfdrez/static/css/triumfdrez.css",
    "games/triumfdrez/static/css/triumfdrez-rules.css",
    "static/css/centre.css",
    "static/css/pages.css",
)
ROOT = Path(__file__).resolve().parents[2]
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgb|hsl)a?\(|\b(?:white|black)\b")


def declarations(css: str) -> list[str]:
    """Each property's value, comments left out, fallbacks of var() left out."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    values = re.findall(r":\s*([^;{}]+)[;}]", css)
    return [re.sub(r"var\(--[\w-]+,\s*[^()]*\)", "var()", v) for v in values]


@pytest.mark.parametrize("sheet", GAME_SHEETS)
def test_a_game_s_style_sheet_draws_with_the_site_s_variables(sheet):
    """Issue 39: every colour of a game page is one of site.css's variables, which have a
    dark value too, so that the page follows the system's dark mode; each it uses exists."""
    css = (ROOT / sheet).read_text(encoding="utf-8")
    assert [v for v in declarations(css) if COLOUR.search(v)] == []
    site = (ROOT / "static/css/site.css").read_text(encoding="utf-8")
    # the site's, and the sheet's own (layout values such as a seat's place, not colours)
    defined = set(re.findall(r"(--[\w-]+)\s*:", site + css))
    used = set(re.findall(r"var\((--[\w-]+)", css)) - {"--card-colour"}  # set by a card's class
    assert used - defined == set()


def test_every_colour_site_css_changes_in_dark_mode_is_one_it_defines_in_light():
    site = (ROOT / "static/css/site.css").read_text(encoding="utf-8")
    light = site[site.index(":root {") : site.index("}", site.index(":root {"))]
    dark = site[site.index("@media (prefers-color-scheme: dark)") :]
    dark = dark[: dark.index("\n}\n")]
    assert "data-game-css" not in site  # no page is left out of dark mode
    light_names = set(re.findall(r"(--[\w-]+)\s*:", light))
    dark_names = set(re.findall(r"(--[\w-]+)\s*:", dark))
    assert dark_names <= light_names
    # the games' own colours each have a dark value (the cards' nine colours are the deck's)
    games = {n for n in light_names if n.startswith(("--card-", "--sheet-", "--tap-", "--pick-"))}
    assert games | {"--highlight"} <= dark_names
