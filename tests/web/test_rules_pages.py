"""The rules pages say what the engines do and mark where they correct the books
(issue 18)."""

import re

import pytest

LANGS = ["es", "el", "ru", "fr"]


def text(client, url):
    html = client.get(url).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "La primera baza de cada partida la empieza el jugador que ganó la subasta."),
        ("el", "Την πρώτη λεβέ κάθε μοιρασιάς την ανοίγει ο παίκτης που κέρδισε την πλειοδοσία."),
        ("ru", "Первую взятку каждой раздачи начинает игрок, выигравший торговлю."),
        (
            "fr",
            "Le premier pli de chaque donne est entamé par le joueur qui a remporté les enchères.",
        ),
    ],
)
def test_the_declarer_leads_the_first_trick_on_the_rules_and_clarifications(client, lang, words):
    rules = client.get(f"/{lang}/rules/triumfdrez/").content.decode()
    paragraph = re.search(r'<p id="D-PLAY">(.*?)</p>', rules, re.S).group(1)
    assert words in " ".join(paragraph.split())
    assert f'href="/{lang}/rules/triumfdrez/clarifications/#D-PLAY"' in rules
    clarifications = client.get(f"/{lang}/rules/triumfdrez/clarifications/").content.decode()
    assert 'id="D-PLAY"' in clarifications


def test_a_correction_of_the_book_is_marked_with_the_book_s_words(client):
    el = client.get("/el/rules/triggs/").content.decode()
    assert re.search(r'class="correction">[^<]*«βγάλτε»', el)
    ru = client.get("/ru/rules/triggs/").content.decode()
    assert re.search(r'class="correction">[^<]*«друг напротив друга»', ru)
    # the page and the picture's caption now agree: the three piles side by side
    assert "кладутся рядом друг с другом" in ru and "рядом друг с другом.</figcaption>" in ru


def test_the_french_clarifications_say_obsolete_12s_are_always_removed(client):
    page = text(client, "/fr/rules/triggs/clarifications/")
    assert "Les « 12 » obsolètes sont toujours retirés" in page
    assert "toujours retirés" in text(client, "/fr/rules/triggs/")


@pytest.mark.parametrize(
    ("lang", "heading", "not_any"),
    [
        (
            "el",
            "Υποχρέωση ακολουθίας της φιγούρας",
            ["Υποχρέωση να ακολουθήσεις", "μεγαλύτερη ιεραρχία"],
        ),
        ("ru", "Обязанность отвечать в фигуру", ["Ход в фигуру"]),
    ],
)
def test_triumfdrez_headings_read_naturally(client, lang, heading, not_any):
    page = text(client, f"/{lang}/rules/triumfdrez/")
    assert heading in page
    assert not any(words in page for words in not_any)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("game", "rule"), [("triggs", "T-A"), ("triggs", "T-OBSOLETE-12"), ("triumfdrez", "D-RANK")]
)
def test_the_rulings_of_record_are_shown_in_every_language(client, lang, game, rule):
    """spec/rules.md: what the site decides where a book is silent is shown to players in
    every language (issue 36: the two cards of a draw, the obsolete 12s and 11s, and who
    wins a trick were shown nowhere, or in French only): a clarification that links to its
    rule, and a note on the rules page that links to the clarification."""
    clarifications = client.get(f"/{lang}/rules/{game}/clarifications/").content.decode()
    section = re.search(
        rf'<section id="{rule}" class="ruling">(.*?)</section>', clarifications, re.S
    )
    assert section, (lang, rule)
    assert f'href="/{lang}/rules/{game}/#{rule}"' in section.group(1)
    assert len(" ".join(re.sub(r"<[^>]+>", " ", section.group(1)).split())) > 200
    rules = client.get(f"/{lang}/rules/{game}/").content.decode()
    assert f'<p class="ruling-note"><a href="/{lang}/rules/{game}/clarifications/#{rule}">' in rules


@pytest.mark.parametrize(
    ("lang", "spanish"), [("el", "ισπανικά"), ("ru", "испанском"), ("fr", "espagnol")]
)
def test_the_triumfdrez_rules_say_first_that_they_translate_the_spanish_book(client, lang, spanish):
    """TriumfDrez has a Spanish book only: the Greek, Russian and French rules pages are the
    site's translation of it, and say so before anything else, with a link to the Spanish."""
    html = client.get(f"/{lang}/rules/triumfdrez/").content.decode()
    article = html.split('id="rules-triumfdrez"', 1)[1]
    note = re.search(r'<p class="translation-note">(.*?)</p>', article, re.S)
    assert note and article.index('class="translation-note"') < article.index('class="toc"')
    assert spanish in note.group(1) and 'href="/es/rules/triumfdrez/"' in note.group(1)
