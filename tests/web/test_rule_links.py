"""Links to the rules read as the rule's name in the reader's language, not as an id
(issue 18): "Espacio adicional", not "T-C-BONUS"; the id stays in the anchor."""

import importlib
import re

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games.registry import GAMES

LANGS = [code for code, _ in settings.LANGUAGES]


@pytest.mark.parametrize("slug", ["triggs", "triumfdrez"])
def test_every_rule_has_a_name_in_every_language(slug):
    game = GAMES[slug]
    assert set(game.web.rule_names) == set(game.rule_ids)
    with translation.override("en"):  # no catalogue: the names as written in the code
        english = {rule: game.rule_name(rule) for rule in game.rule_ids}
    for lang in LANGS:
        with translation.override(lang):
            for rule in game.rule_ids:
                name = game.rule_name(rule)
                assert name != english[rule] and not re.search(r"[TD]-[A-Z]", name), (lang, rule)


@pytest.mark.parametrize("lang", LANGS)
def test_a_rule_link_shows_the_name_and_keeps_the_id_in_the_anchor(lang):
    template = Template('{% load live_tags %}{% rule_link "triggs" "T-C-BONUS" %}')
    with translation.override(lang):
        html = template.render(Context())
        name = GAMES["triggs"].rule_name("T-C-BONUS")
    assert html == (
        f'<a class="rule-link" href="/{lang}/rules/triggs/#T-C-BONUS" title="T-C-BONUS">{name}</a>'
    )


def test_no_game_template_shows_a_rule_id_as_link_text():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    folders = [root / "templates" / "games", *(root / "games").glob("*/templates/games")]
    for path in (path for folder in folders for path in folder.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r">\s*[TD]-[A-Z][A-Z0-9-]*\s*</a>", text), path


# the turn order, in each language: what a "not your turn" refusal's rule must speak of
NEXT = {"es": "quién sigue", "el": "ποιος παίζει μετά", "ru": "кто", "fr": "qui joue ensuite"}


@pytest.mark.parametrize("slug", ["triggs", "triumfdrez"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_for_playing_out_of_turn_links_to_the_rule_of_who_plays_next(slug, lang):
    """Issue 39: «No es tu turno» linked to «Quién empieza», which says nothing of whose
    turn it is now; the rule it enforces (who starts, then seat order) is named by both."""
    from games.labels import refusal

    game = GAMES[slug]
    errors = importlib.import_module(f"games.{slug}.errors")
    with translation.override(lang):
        shown = refusal(errors.IllegalAction("not_your_turn"), game)
    assert NEXT[lang] in shown["rule_name"].lower(), shown
