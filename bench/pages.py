"""Page weight: bytes of the main pages and the static files they load, raw and
gzipped, as a phone on a poor connection would fetch them. Prints figures only.

Run from the repository root: `python bench/pages.py`. What a phone is sent after each
change (only the regions that changed for it) is measured by bench/updates.py.
"""

import gzip
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

STATIC = [
    "/static/css/site.css",
    "/static/js/table.js",
    "/static/django_htmx/htmx-2.min.js",
    "/static/django_htmx/ext/hx-ws-2.min.js",
    "/static/icons/icon.svg",
]


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def row(label: str, data: bytes) -> None:
    print(f"{label:<44} {len(data):>8,} B raw {len(gzip.compress(data, 6)):>8,} B gzip")


def main() -> None:
    call_command("migrate", verbosity=0)
    host, guest = Client(), Client()
    response = host.post(
        "/es/play/",
        {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana", "turn_marker": "on"},
    )
    code = response["Location"].split("/")[3]
    guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "bench-start"})
    pages = [
        ("home (es)", "/es/"),
        ("Triggs rules (el)", "/el/rules/triggs/"),
        ("TriumfDrez rules (ru)", "/ru/rules/triumfdrez/"),
        ("lobby (fr)", "/fr/play/"),
        ("companion Triggs table page (es)", f"/es/t/{code}/"),
    ]
    for label, url in pages:
        row(label, body(host.get(url)))
    total = body(host.get(f"/es/t/{code}/"))
    for url in STATIC:
        data = body(host.get(url))
        total += data
        row(url, data)
    row("table page with everything it loads", total)


if __name__ == "__main__":
    main()
