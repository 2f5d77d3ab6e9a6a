"""The site can be added to a phone's home screen (issue 16): a web app manifest in the
page's language with icons drawn by the project (SVG and PNG), linked from every page,
and /favicon.ico for clients that ask for it by that name."""

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

LANGS = {"es": "Compañero de mesa", "el": None, "ru": None, "fr": None}


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_manifest_is_in_the_pages_language_with_its_icons(lang):
    response = Client().get(f"/{lang}/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["lang"] == lang and data["display"] == "standalone"
    assert data["start_url"] == f"/{lang}/" and data["scope"] == "/"
    assert data["name"] != "Table companion" and data["description"]  # translated
    if LANGS[lang]:
        assert data["name"] == LANGS[lang]
    widths = set()
    for icon in data["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}"
            widths.add(width)
        else:
            assert Path(path).read_text().startswith("<svg")
    assert {192, 512} <= widths
    assert any(icon.get("purpose") == "maskable" for icon in data["icons"])


def test_every_page_links_the_icons_and_the_manifest():
    html = Client().get("/ru/").content.decode()
    assert '<link rel="manifest" href="/ru/manifest.webmanifest">' in html
    assert 'rel="icon" href="/static/icons/icon.svg" type="image/svg+xml"' in html
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in html
    assert '<meta name="theme-color"' in html
    assert png_size(finders.find("icons/apple-touch-icon.png")) == (180, 180)


def test_favicon_ico_leads_to_the_icon():
    response = Client().get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/icons/icon.svg"
