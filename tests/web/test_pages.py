"""Every page answers in every language, with the right lang and a translated title."""

import re
from html import unescape as html_unescape

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.registry import GAMES

LANGS = [code for code, _ in settings.LANGUAGES]
ENGLISH_TITLES = {
    "home": "Card games at your table",
    "rules": "Rules of",
    "clarifications": "rules clarifications",
}


def page_urls(lang):
    with translation.override(lang):
        yield "home", reverse("home")
        for slug in GAMES:
            yield "rules", reverse("rules", kwargs={"game": slug})
            yield "clarifications", reverse("clarifications", kwargs={"game": slug})


def title_of(html):
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_answers_in_its_language(client, lang):
    for kind, url in page_urls(lang):
        assert url.startswith(f"/{lang}/")
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html, url
        title = title_of(html)
        assert title and ENGLISH_TITLES[kind] not in title, (url, title)
        assert "Table companion" not in title, (url, title)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", list(GAMES))
def test_rules_page_has_an_anchor_for_every_rule(client, lang, slug):
    game = GAMES[slug]
    with translation.override(lang):
        html = client.get(reverse("rules", kwargs={"game": slug})).content.decode()
    for rule_id in game.rule_ids:
        assert f'id="{rule_id}"' in html, (lang, rule_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", list(GAMES))
def test_clarifications_list_every_ruling_and_link_to_its_rule(client, lang, slug):
    game = GAMES[slug]
    with translation.override(lang):
        html = client.get(reverse("clarifications", kwargs={"game": slug})).content.decode()
        rules_url = reverse("rules", kwargs={"game": slug})
    for rule_id in game.ruling_ids:
        assert f'id="{rule_id}"' in html, (lang, rule_id)
        assert f'href="{rules_url}#{rule_id}"' in html, (lang, rule_id)


def test_unknown_game_is_404(client):
    assert client.get("/es/rules/chess/").status_code == 404


def test_root_redirects_to_the_browser_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5")
    assert response.status_code == 302
    assert response["Location"] == "/ru/"


def test_language_choice_is_remembered_and_keeps_the_page(client):
    html = client.get("/fr/rules/triggs/").content.decode()
    button = re.search(r'<button[^>]*value="el"[^>]*formaction="([^"]*)"', html)
    assert button, "no Greek entry in the switcher"
    response = client.post(html_unescape(button.group(1)), {"language": "el"})
    assert response.status_code == 302
    assert response["Location"] == "/el/rules/triggs/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "el"
    # The remembered choice wins over the browser's preference on the bare address.
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="fr").headers["Location"] == "/el/"


def test_a_shared_link_opens_in_the_sharers_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get("/ru/rules/triumfdrez/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="ru">' in html


@pytest.mark.parametrize("lang", LANGS)
def test_switcher_on_every_page(client, lang):
    for _kind, url in page_urls(lang):
        html = client.get(url).content.decode()
        for code in LANGS:
            assert f'name="language" value="{code}"' in html, url
        assert 'href="#main"' in html and 'id="main"' in html


def test_page_head_has_no_outside_resources(client):
    html = client.get("/es/").content.decode()
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_numbers_and_lists_follow_the_locale(client):
    html = client.get("/ru/").content.decode()
    assert "español, Ελληνικά, Русский и français" in html
    html = client.get("/fr/").content.decode()
    assert "español, Ελληνικά, Русский et français" in html
