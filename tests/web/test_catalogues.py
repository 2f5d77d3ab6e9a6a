"""Every message of the site is translated into es, el, ru and fr: no entry is
missing, empty or fuzzy, and placeholders match. Extraction runs here with the
same Babel configuration as `make messages`, so a new string without its four
translations fails this test."""

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po

from games.i18n import KEYWORDS, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def extracted():
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(list(KEYWORDS))}
    messages = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        key = message[0] if isinstance(message, tuple) else message
        messages[(key, context)] = f"{filename}:{lineno}"
    assert len(messages) > 40
    return messages


def load(lang):
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po", "rb") as po:
        return read_po(po, locale=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_translates_every_message(extracted, lang):
    catalogue = load(lang)
    problems = []
    for (msgid, context), where in sorted(extracted.items()):
        entry = catalogue.get(msgid, context=context)
        if entry is None:
            problems.append(f"missing: {msgid!r} ({where})")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            problems.append(f"untranslated: {msgid!r} ({where})")
        if entry.fuzzy:
            problems.append(f"fuzzy: {msgid!r} ({where})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_placeholders_and_plurals_are_consistent(lang):
    catalogue = load(lang)
    errors = [(m.id, [str(e) for e in errs]) for m, errs in catalogue.check()]
    assert not errors
    assert not any(m.fuzzy for m in catalogue if m.id)
    expected_plurals = {"es": 2, "el": 2, "fr": 2, "ru": 3}[lang]
    assert catalogue.num_plurals == expected_plurals
