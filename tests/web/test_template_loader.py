"""Templates as they are loaded (games.template_loader): their {% translate %} and
{% blocktranslate %} keep their words per language, and draw exactly what Django's own
nodes draw, in every language, whichever language drew them first."""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, engines
from django.template.autoreload import reset_loaders
from django.template.loader import get_template
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils import translation

from games import template_loader
from games.template_loader import WordedBlockTranslateNode, WordedTranslateNode, word

LANGS = ("es", "el", "ru", "fr")
# tags of each kind our templates use, with words from the catalogues
SOURCES = (
    '{% translate "Your turn." %}',
    '{% translate "Discard pile" context "pile" %}',
    "{% blocktranslate trimmed with name=who %}{{ name }}'s\n    turn.{% endblocktranslate %}",
    "{% blocktranslate trimmed count n=count %}{{ n }} card in hand{% plural %}{{ n }} cards"
    " in hand{% endblocktranslate %}",
    "{% blocktranslate trimmed count target=count %}Target: {{ target }} point{% plural %}"
    "Target: {{ target }} points{% endblocktranslate %}",
    # a variable of the context itself, not of the tag's `with`
    "{% blocktranslate trimmed %}{{ who }}'s turn.{% endblocktranslate %}",
    # a message with no translation, and one whose variable is missing
    '{% translate "Not in any catalogue" %}',
    "{% blocktranslate trimmed with name=nobody %}{{ name }}'s turn.{% endblocktranslate %}",
)


def compiled(source: str, worded: bool):
    template = engines["django"].engine.from_string("{% load i18n %}" + source)
    if worded:
        word(template)
    return template


@pytest.mark.parametrize("source", SOURCES)
def test_worded_tags_draw_what_djangos_draw_in_every_language(source):
    django_own, worded = compiled(source, False), compiled(source, True)
    kinds = {type(n) for n in worded.nodelist if isinstance(n, TranslateNode | BlockTranslateNode)}
    assert kinds <= {WordedTranslateNode, WordedBlockTranslateNode} and kinds
    drawn = set()
    # each language twice, in turns: a language never gets another's words
    for lang in (*LANGS, *reversed(LANGS)):
        for count in (1, 2, 5, 21, 22):
            for autoescape in (True, False):
                context = {"who": "<Ana & Boris>", "count": count}
                with translation.override(lang):
                    expected = django_own.render(Context(context, autoescape=autoescape))
                    got = worded.render(Context(context, autoescape=autoescape))
                    # as games.render.draw draws: the language set on the Context
                    told = Context(context, autoescape=autoescape)
                    told.language = lang
                    got_told = worded.render(told)
                assert got == expected == got_told, (lang, count, autoescape)
                drawn.add(got)
    assert len(drawn) > 1 or "Not in any catalogue" in source


@pytest.mark.parametrize("source", SOURCES[:5])
def test_the_words_are_those_of_the_language_on_the_context(source):
    """A Context that says its language (as games.render.draw's does) gets that
    language's words, whichever is active, and keeps them for it alone."""
    worded = compiled(source, True)
    for told, active in (("ru", "es"), ("es", "ru"), ("ru", "ru")):
        context = Context({"who": "Ana", "count": 2})
        context.language = told
        with translation.override(active):
            got = worded.render(context)
        with translation.override(told):
            assert got == compiled(source, False).render(Context({"who": "Ana", "count": 2}))


def test_a_counted_message_takes_each_numbers_form():
    template = compiled(SOURCES[3], True)
    with translation.override("ru"):
        words = [template.render(Context({"count": n})) for n in (1, 2, 5, 21, 22, 5)]
    assert words == [
        "1 карта на руке",
        "2 карты на руке",
        "5 карт на руке",
        "21 карта на руке",
        "22 карты на руке",
        "5 карт на руке",
    ]


def test_a_translation_of_a_variable_or_kept_as_a_variable_is_djangos_own():
    template = compiled('{% translate who %}{% translate "Pass" as word %}{{ word }}', True)
    assert [type(n) for n in template.nodelist if isinstance(n, TranslateNode)] == [
        TranslateNode,
        TranslateNode,
    ]
    with translation.override("fr"):
        assert template.render(Context({"who": "Pass"})) == "PassePasse"


def test_the_table_screens_words_are_looked_up_once_per_language():
    for name in ("games/triggs/_digital.html", "games/triumfdrez/_digital.html"):
        nodes = get_template(name).template.nodelist
        tags = nodes.get_nodes_by_type(TranslateNode) + nodes.get_nodes_by_type(BlockTranslateNode)
        assert len(tags) > 20
        assert all(type(n) in (WordedTranslateNode, WordedBlockTranslateNode) for n in tags)


def test_no_template_switches_language():
    """games.render.draw tells a template's words the language on its Context: right only
    if no template switches language inside ({% language %})."""
    root = Path(settings.BASE_DIR)
    found = [
        path
        for folder in ("templates", "tests")
        for path in (root / folder).rglob("*.html")
        if "{% language" in path.read_text()
    ]
    assert found == []


def test_a_compiled_template_is_kept_until_the_loaders_are_reset():
    """games.render.draw finds a region's template once, until a template changes in
    development (Django's autoreloader resets the loaders, as here)."""
    engine = engines["django"]
    first = template_loader.compiled(engine, "games/_live.html#log")
    assert first is engine.get_template("games/_live.html#log").template
    assert template_loader.compiled(engine, "games/_live.html#log") is first
    reset_loaders()
    again = template_loader.compiled(engine, "games/_live.html#log")
    assert again is not first
    assert again is engine.get_template("games/_live.html#log").template


def test_lines_of_tags_that_draw_nothing_leave_out_their_line_ends(tmp_path):
    """Loaded without indentation, and without the line end of a line holding only tags
    that draw nothing: what is drawn is the same to a browser (the line before ends with
    one), without the blank lines."""
    source = (
        "{% load i18n %}{# a comment #}\n"
        "<ul>\n"
        "  {% for item in items %}\n"
        "    {% if item %}\n"
        "    <li>{{ item }}</li>\n"
        "    {% endif %}\n"
        "  {% endfor %}\n"
        "</ul>\n"
        '{% translate "Your turn." %}\n'  # draws words: its line end stays
        "{% if items %}{{ items|length }}{% endif %}\n"  # draws a variable: it stays
        "<p>{% if items %}x{% endif %}</p>\n"
        "end"
    )
    (tmp_path / "t.html").write_text(source)
    engine = engines["django"].engine
    loader = template_loader.Loader(engine, [str(tmp_path)])
    origin = next(loader.get_template_sources("t.html"))
    loaded = loader.get_contents(origin)
    assert loaded == (
        "{% load i18n %}{# a comment #}<ul>\n{% for item in items %}{% if item %}<li>{{ item }}</li>\n"
        '{% endif %}{% endfor %}</ul>\n{% translate "Your turn." %}\n'
        "{% if items %}{{ items|length }}{% endif %}\n<p>{% if items %}x{% endif %}</p>\nend"
    )
    with translation.override("es"):
        drawn = engine.from_string(loaded).render(Context({"items": ["a", "", "b"]}))
        turn = translation.gettext("Your turn.")
    assert drawn == f"<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n{turn}\n3\n<p>x</p>\nend"
