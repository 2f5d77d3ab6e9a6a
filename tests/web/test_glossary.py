"""One term per concept, the rulebook's own (issue 18): no catalogue uses a variant that
locale/GLOSSARY.md lists under "Not"."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LINE = re.compile(r"^- (es|el|ru|fr) · `(.+?)` · (.+)$")


def forbidden():
    text = (LOCALE / "GLOSSARY.md").read_text(encoding="utf-8")
    return [LINE.match(line).groups() for line in text.splitlines() if LINE.match(line)]


def test_the_glossary_lists_variants_for_every_language():
    assert {lang for lang, _pattern, _use in forbidden()} == {"es", "el", "ru", "fr"}


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_no_catalogue_uses_a_forbidden_variant(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "django.po", "rb") as fh:
        catalogue = read_po(fh)
    texts = [
        form
        for message in catalogue
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
    ]
    found = [
        (pattern, use, text)
        for language, pattern, use in forbidden()
        if language == lang
        for text in texts
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert found == []


def test_french_keeps_its_punctuation_on_the_line_of_its_word():
    """A colon, semicolon, ! or ? (and the inside of « ») takes a no-break space in
    French: "Objectif : 50" must not break before its colon on a narrow phone."""
    with open(LOCALE / "fr" / "LC_MESSAGES" / "django.po", "rb") as fh:
        catalogue = read_po(fh)
    loose = [
        form
        for message in catalogue
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        if re.search(r" [:;!?»]|« ", form)
    ]
    assert loose == []
