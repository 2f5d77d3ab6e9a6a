"""One term per concept, the rulebook's own (issue 18), one register per language (issue
36): no catalogue, and no page the site writes itself, uses a variant that
locale/GLOSSARY.md lists under "Not"."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"


def game_templates(game: str) -> Path:
    """A game's template folder: in its own app (games/<game>/templates/games/<game>), or
    the site's templates/games/<game>."""
    own = ROOT / "games" / game / "templates" / "games" / game
    return own if own.is_dir() else ROOT / "templates" / "games" / game


LINE = re.compile(r"^- (es|el|ru|fr) · `(.+?)` · (.+)$")


def forbidden():
    text = (LOCALE / "GLOSSARY.md").read_text(encoding="utf-8")
    return [LINE.match(line).groups() for line in text.splitlines() if LINE.match(line)]


SEEDS = ROOT / "seeds"
BOOKS = {  # seeds/README.md
    ("triggs", "es"): "000_00891bc7aaa369e4.txt",
    ("triggs", "el"): "001_a01105c098e70cc0.txt",
    ("triggs", "ru"): "002_40053bdb5faf14b9.txt",
    ("triggs", "fr"): "003_3bc58c88d216a0b1.txt",
    ("triumfdrez", "es"): "004_78e89a808c9cc75a.txt",
}
SECTIONS = {"## Triggs": "triggs", "## TriumfDrez": "triumfdrez"}
QUOTED = re.compile(r"\b(es|el|ru|fr)(?: (Triggs|TriumfDrez))? (book|page) ((?:“[^”]+”(?:, )?)+)")


def quotes():
    """(game, language, book or page, words) for every quote of the glossary's tables."""
    game = None
    for line in (LOCALE / "GLOSSARY.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            game = SECTIONS.get(line.strip())
        if not line.startswith("| "):
            continue
        for lang, named, kind, words in QUOTED.findall(line.rsplit(" | ", 1)[-1]):
            for quote in re.findall(r"“([^”]+)”", words):
                yield (named.lower() or game), lang, kind, quote


def test_the_glossary_quotes_only_what_the_books_and_pages_say():
    """A quote of the "From" column is word for word in that language's book of that game
    (bold marks and line breaks aside), or on the site's own rules or clarifications page."""
    missing = []
    for game, lang, kind, quote in quotes():
        if kind == "book":
            text = (SEEDS / BOOKS[game, lang]).read_text(encoding="utf-8").replace("**", "")
        else:
            text = " ".join(
                page_text(game_templates(game) / part / f"{lang}.html")
                for part in ("rules", "rulings")
            )
        if quote not in " ".join(text.split()):
            missing.append((game, lang, kind, quote))
    assert len(list(quotes())) > 60
    assert missing == []


def test_the_glossary_lists_variants_for_every_language():
    assert {lang for lang, _pattern, _use in forbidden()} == {"es", "el", "ru", "fr"}


# Variants the glossary has turned away, each of which its "Not" patterns must go on
# catching in its language, so that a pattern narrowed later cannot let one back quietly.
CAUGHT = [
    ("es", "Cruces"),
    ("es", "teléfono"),
    ("es", "Meta"),
    ("es", "Quien propuso"),
    ("el", "Σταυροί"),
    ("fr", "Croix"),
    ("fr", "à son tour"),
    ("ru", "набор"),
    ("ru", "центральной колоды"),
    ("ru", "Центр"),
]


@pytest.mark.parametrize(("lang", "variant"), CAUGHT)
def test_the_forbidden_patterns_still_catch_each_known_variant(lang, variant):
    patterns = [pattern for language, pattern, _use in forbidden() if language == lang]
    assert any(re.search(pattern, variant, re.IGNORECASE) for pattern in patterns), variant


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


def own_pages(lang):
    """The rules pages the site writes in its own words: every clarifications page, and
    the TriumfDrez rules outside Spanish (the only TriumfDrez book is the Spanish one);
    the Triggs rules pages and the Spanish TriumfDrez page mirror the printed books."""
    pages = [game_templates(game) / "rulings" / f"{lang}.html" for game in ("triggs", "triumfdrez")]
    if lang != "es":
        pages.append(game_templates("triumfdrez") / "rules" / f"{lang}.html")
    return pages


def page_text(path):
    """A page's words: tags and template tags out, whitespace as single spaces."""
    return " ".join(re.sub(r"<[^>]+>|{%.*?%}", " ", path.read_text(encoding="utf-8")).split())


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_the_site_s_own_pages_use_no_forbidden_variant(lang):
    found = [
        (path.relative_to(ROOT).as_posix(), pattern, match.group(0))
        for path in own_pages(lang)
        for language, pattern, _use in forbidden()
        if language == lang
        for match in re.finditer(pattern, page_text(path), re.IGNORECASE)
    ]
    assert found == []


def test_spanish_says_partida_only_for_a_triumfdrez_hand():
    """The TriumfDrez book's «partida» is one hand (one deal, scored on its own): a whole
    game is a «juego» and a TriumfDrez match an «encuentro» (GLOSSARY.md). So a Spanish
    translation says partida only where the English says hand, and the Spanish Triggs
    clarifications (a game without hands, in the site's own words) never do."""
    with open(LOCALE / "es" / "LC_MESSAGES" / "django.po", "rb") as fh:
        catalogue = read_po(fh)
    wrong = [
        (message.id, form)
        for message in catalogue
        if message.id
        and not re.search(
            r"\bhands?\b",
            " ".join(message.id) if isinstance(message.id, tuple) else message.id,
            re.IGNORECASE,
        )
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        if re.search(r"\bpartidas?\b", form, re.IGNORECASE)
    ]
    assert wrong == []
    triggs = page_text(game_templates("triggs") / "rulings" / "es.html")
    assert re.findall(r"\bpartidas?\b", triggs, re.IGNORECASE) == []


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


def test_the_french_rules_pages_keep_their_punctuation_on_the_line_of_its_word():
    """The same no-break space on the French rules and clarifications pages, where a plain
    one before « : » or inside « » can break a line: «Précision du site : …»."""
    loose = []
    pages = [game_templates(game).glob("rul*/fr.html") for game in ("triggs", "triumfdrez")]
    for path in sorted(path for found in pages for path in found):
        html = re.sub(r"{%.*?%}|<[^>]+>", " ", path.read_text(encoding="utf-8"))
        text = re.sub(r"[ \t\n]+", " ", html)  # the no-break spaces stay
        loose += [
            (path.parent.name, match.group(0))
            for match in re.finditer(r".{0,20}(?: [:;!?»]|« ).{0,20}", text)
        ]
    assert loose == []
