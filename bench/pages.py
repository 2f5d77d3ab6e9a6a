"""Page weight: bytes of the main pages and the static files they load, raw and
gzipped, as a phone on a poor connection would fetch them. Prints figures only.

Run from the repository root: `python bench/pages.py [--deals 10]`. The static files
are measured as production sends them: collected by the production storage (minified,
hashed) into a temporary folder, whatever DEBUG says. What a phone is sent
after each change (only the regions that changed for it) is measured by bench/updates.py.
A digital table's page varies with the deal: with --deals N, each digital table is also
dealt N times from seeds 1..N (the same deals for every checkout) and the first load's
smallest and largest are printed.
"""

import argparse
import gzip
import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from bench.updates import Dealt  # noqa: E402
from games import services  # noqa: E402
from games.models import Table  # noqa: E402
from games.registry import get_game  # noqa: E402

# what a page loads before it is usable: its style sheets, scripts and icon
# (a phone takes one icon: the first, an SVG)
LOADS = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')
ICON = re.compile(r'<link rel="icon" href="([^"]+)"')
SETUPS = [
    ("triggs", "companion", {"turn_marker": "on"}),
    ("triggs", "digital", {}),
    ("triumfdrez", "companion", {}),
    ("triumfdrez", "digital", {}),
]


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def row(label: str, data: bytes) -> None:
    print(f"{label:<44} {len(data):>8,} B raw {len(gzip.compress(data, 6)):>8,} B gzip")


def table(game: str, mode: str, options: dict) -> tuple[Client, str]:
    """A started table of two people (digital: one and a computer player), its host; a
    digital one at the start of the host's turn (the computer player's moves made here,
    each its first legal action), as the page is heaviest when its player has to act."""
    host, guest = Client(), Client()
    web = get_game(game).web
    defaults = {name: field.initial for name, field in web.options().items()}
    fields = {"game": game, "mode": mode, "players": "2", "name": "Ana", **defaults, **options}
    code = host.post("/es/play/", {k: v for k, v in fields.items() if v is not None})
    code = code["Location"].split("/")[3]
    if mode == "digital":
        host.post(f"/es/t/{code}/bot/", {"index": "1", "level": next(iter(web.bot_levels))})
    else:
        guest.post(f"/es/join/{code}/", {"seat": "1", "name": "Boris"})
    host.post(f"/es/t/{code}/start/", {"action_id": "bench-start"})
    if mode == "digital":
        table, engine = Table.objects.get(code=code), get_game(game).engine(mode)
        while engine.to_act(table.state) and engine.to_act(table.state)[0] != 0:
            seat, action = engine.to_act(table.state)[0], engine.legal_actions(table.state)[0]
            services.apply_action(table, seat, action, table.version, f"bench-{table.version}")
            table.refresh_from_db()
    return host, code


class Collected:
    """The static files as `collectstatic` writes them for production."""

    def __init__(self, root: str):
        storage = {"BACKEND": "companion.storage.MinifiedManifestStaticFilesStorage"}
        with override_settings(
            STATIC_ROOT=root, STORAGES={**settings.STORAGES, "staticfiles": storage}
        ):
            call_command("collectstatic", interactive=False, verbosity=0)
        self.root = Path(root)
        self.names = json.loads((self.root / "staticfiles.json").read_text())["paths"]

    def read(self, url: str) -> bytes:
        """The bytes production sends for a page's link to `url` (unhashed or hashed)."""
        name = url.removeprefix(
            settings.STATIC_URL
            if settings.STATIC_URL.startswith("/")
            else "/" + settings.STATIC_URL
        )
        return (self.root / self.names.get(name, name)).read_bytes()


def first_load(game: str, mode: str, options: dict, static: Collected, show: bool = False) -> bytes:
    """A table page in play and everything it loads."""
    host, code = table(game, mode, options)
    page = body(host.get(f"/es/t/{code}/"))
    if show:
        row(f"{game} {mode} table page", page)
    total = page
    text = page.decode()
    for url in [*sorted(set(LOADS.findall(text))), ICON.search(text).group(1)]:
        data = static.read(url)
        total += data
        if show:
            row(f"  {url}", data)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=0, help="seeded deals per digital table")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    with tempfile.TemporaryDirectory() as root:
        measure(args, Collected(root))


def measure(args, static: Collected) -> None:
    host = Client()
    pages = [
        ("home (es)", "/es/"),
        ("Triggs rules (el)", "/el/rules/triggs/"),
        ("TriumfDrez rules (ru)", "/ru/rules/triumfdrez/"),
        ("lobby (fr)", "/fr/play/"),
    ]
    for label, url in pages:
        row(label, body(host.get(url)))
    print(
        "First load of a table page in play, with everything it loads (es; digital: at the"
        " start of the player's turn, which varies with the deal):"
    )
    for game, mode, options in SETUPS:
        row(f"  {game} {mode}: all", first_load(game, mode, options, static, show=True))
    dealt = services.secrets
    for game, mode, options in SETUPS if args.deals else ():
        if mode != "digital":
            continue
        sizes = []
        for seed in range(1, args.deals + 1):
            services.secrets = Dealt(seed)
            cache.clear()  # the rate limit on new tables
            sizes.append(len(first_load(game, mode, options, static)))
        services.secrets = dealt
        print(
            f"{game} {mode}, {args.deals} seeded deals: first load "
            f"{min(sizes):,}-{max(sizes):,} B raw"
        )


if __name__ == "__main__":
    main()
