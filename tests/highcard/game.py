"""Highcard's registry entry and how the tests offer it: registered (games.registry) and
its templates folder made visible to Django, both only while `installed()` is open."""

import contextlib
from pathlib import Path

from django.conf import settings
from django.test import override_settings

from games.registry import Game, register, unregister

SLUG = "highcard"
TEMPLATES = Path(__file__).resolve().parent / "templates"

GAME = Game(
    slug=SLUG,
    name="Highcard",
    tagline="Three cards each; the higher card takes the round.",
    min_players=2,
    max_players=2,
    rule_ids=("H-DEAL", "H-PLAY", "H-WIN"),
    ruling_ids=(),
    # the score of real cards (no hidden hands), and the whole game on the phones
    engines={"companion": "tests.highcard.companion", "digital": "tests.highcard.engine"},
    web_module="tests.highcard.web",
)


@contextlib.contextmanager
def installed():
    """Highcard offered by the site, with its templates, until the block ends."""
    engines = [
        {**engine, "DIRS": [*engine.get("DIRS", ()), TEMPLATES]} if i == 0 else engine
        for i, engine in enumerate(settings.TEMPLATES)
    ]
    register(GAME)
    try:
        with override_settings(TEMPLATES=engines):
            yield GAME
    finally:
        unregister(SLUG)
