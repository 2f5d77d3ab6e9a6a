"""Security headers (issue 17, item 14): with DEBUG off every page carries HSTS, a
Content-Security-Policy that allows no inline script and no inline style (and that the
pages pass: no inline <script>, no style attribute), a Permissions-Policy,
and pages that show a private hand or a one-time link are never stored by a cache."""

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client, override_settings

from games.models import Table

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def production():
    """The security settings as production computes them (DEBUG=0, a secret key)."""
    names = ("SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD")
    probe = (
        "import json, companion.settings as s; "
        f"print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DEBUG"))}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**env, "DEBUG": "0", "SECRET_KEY": "x" * 60},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


class Inline(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.styles, self.handlers, self.style_elements = [], [], [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and not attrs.get("src"):
            self.scripts.append(attrs)
        if tag == "style":
            self.style_elements += 1
        if "style" in attrs:
            self.styles.append(attrs["style"])
        self.handlers += [name for name in attrs if name.startswith("on")]


def assert_page_passes_its_policy(response):
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["style-src"] == ["'self'"]
    assert "'self'" in directives["connect-src"]
    assert "data:" in directives["img-src"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    page = Inline()
    page.feed(response.content.decode())
    assert page.scripts == [], "inline <script> on the page"
    assert page.handlers == [], "inline event handlers on the page"
    assert page.style_elements == 0, "a <style> element on the page"
    assert "style-src-attr" not in directives  # style attributes fall under style-src
    assert page.styles == [], "a style attribute on the page"


PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


@pytest.fixture
def table_with_two():
    host, guest = Client(), Client()
    response = host.post(
        "/es/play/",
        {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana", "turn_marker": "on"},
    )
    code = response["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
    return Table.objects.get(code=code), host, guest


@pytest.mark.parametrize("path", ["/es/", "/el/play/", "/ru/rules/triggs/", "/fr/t/{code}/"])
def test_pages_carry_the_security_headers_with_debug_off(production, table_with_two, path):
    table, host, _guest = table_with_two
    assert production["SECURE_HSTS_SECONDS"] >= 31536000
    with override_settings(DEBUG=False, **production):
        phone = Client()  # a new client loads its middleware under these settings
        phone.cookies = host.cookies  # the host's seat, for the table page
        response = phone.get(path.format(code=table.code), secure=True)
    assert response.status_code == 200
    hsts = response.headers["Strict-Transport-Security"]
    assert hsts == f"max-age={production['SECURE_HSTS_SECONDS']}"  # no subdomains, no preload
    assert response.headers["Permissions-Policy"] == PERMISSIONS
    assert_page_passes_its_policy(response)


def test_the_table_page_passes_its_policy_with_the_hand_shown(table_with_two):
    table, host, guest = table_with_two
    for client in (host, guest):
        response = client.get(f"/es/t/{table.code}/", secure=True)
        assert 'id="score-sheet"' in response.content.decode()
        assert_page_passes_its_policy(response)
    spectator = Client().get(f"/es/t/{table.code}/")
    assert_page_passes_its_policy(spectator)


def no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


def test_private_pages_are_never_stored(table_with_two):
    table, host, guest = table_with_two
    code = table.code
    assert no_store(host.get(f"/es/t/{code}/"))
    assert no_store(Client().get(f"/es/t/{code}/"))  # a spectator's too: same address
    table.refresh_from_db()
    act = guest.post(f"/es/t/{code}/act/", {"seat": "1", "version": "0", "action_id": "x-1"})
    assert no_store(act)
    handover = guest.post(f"/es/t/{code}/handover/", {"seat": "1"})
    assert handover.status_code == 200 and "/es/h/" in handover.content.decode()
    assert no_store(handover)
    link = re.search(r'value="http://testserver(/es/h/[^"]+)"', handover.content.decode())
    claim = Client().get(link.group(1))
    assert claim.status_code == 200 and no_store(claim)
    assert no_store(host.post(f"/es/t/{code}/close/", {"seat": "0"}))
    refused = Client().post(link.group(1))  # the table closed meanwhile
    assert refused.status_code == 410 and no_store(refused)


def test_the_admin_keeps_script_src_self(admin_client):
    response = admin_client.get("/es/admin/", secure=True)
    directives = policy(response)
    assert directives["script-src"] == ["'self'"]
    assert response.headers["Permissions-Policy"] == PERMISSIONS
