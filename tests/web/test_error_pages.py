"""Error pages (issue 17, item 17): a bad or expired table link, a refused page, a bad
request and a server error each answer in the request's language, in the site's frame,
with a way back home and to the lobby — with DEBUG off, as in production."""

import pytest
from django.conf.urls.i18n import i18n_patterns
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.template import loader
from django.test import Client, override_settings
from django.urls import path
from django.utils import translation

from companion.urls import urlpatterns as site_urlpatterns

LANGUAGES = ("es", "el", "ru", "fr")


def refuse(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("a request the site cannot make sense of")


def crash(request):
    raise RuntimeError("a bug")


# This module is the URLconf of the tests that need a view that fails on purpose: the
# site's own URLs (for the links home and to the lobby) and three more.
urlpatterns = [
    *site_urlpatterns,
    *i18n_patterns(
        path("test-errors/403/", refuse),
        path("test-errors/400/", suspicious),
        path("test-errors/500/", crash),
        prefix_default_language=True,
    ),
]

ERRORS = {
    404: ("Page not found", "This page does not exist."),
    403: ("Access denied", "You are not allowed to open this page."),
    400: ("Bad request", "The server could not understand this request."),
    500: ("Server error", "Something went wrong on the server."),
}


def words(lang: str, *english: str) -> list[str]:
    with translation.override(lang):
        return [translation.gettext(text) for text in english]


def check_page(response, lang: str, status: int) -> str:
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    title, first_sentence = words(lang, *ERRORS[status])
    # translated, not the English source
    assert (title, first_sentence) != ERRORS[status] and first_sentence != ERRORS[status][1]
    assert f"<h1>{title}</h1>" in html
    assert first_sentence in html
    # The way back: the site's name to its home page, the home page and the lobby.
    home, lobby = words(lang, "Home page", "Create or join a table")
    assert f'href="/{lang}/">{home}</a>' in html
    assert f'href="/{lang}/play/">{lobby}</a>' in html
    assert 'class="site-header"' in html and 'class="site-footer"' in html
    if status != 500:  # drawn with the request: the whole frame, language switch included
        assert all(f'name="language" value="{code}"' in html for code in LANGUAGES)
    assert "Not Found" not in html and "Server Error (500)" not in html
    return html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(DEBUG=False)
def test_a_bad_table_link_is_a_translated_404_with_a_way_back(client, lang):
    html = check_page(client.get(f"/{lang}/t/QQQ999/"), lang, 404)
    # A full page of the site: its language switch keeps the address.
    assert "?next=/fr/t/QQQ999/" in html or lang == "fr"
    assert "QQQ999" not in html.split("<main", 1)[1]  # nothing echoed from the address
    check_page(client.get(f"/{lang}/no/such/page/"), lang, 404)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_a_refused_page_is_a_translated_403(client, lang):
    check_page(client.get(f"/{lang}/test-errors/403/"), lang, 403)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(DEBUG=False)
def test_an_expired_form_is_a_translated_403(lang):
    """A form posted without its CSRF cookie (a phone's old page): the site's page says
    what to do, not Django's English one."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/play/", {"game": "triggs"})
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    (title, advice, lobby) = words(
        lang, "This form has expired", "Reload the page and try again.", "Create or join a table"
    )
    assert f"<h1>{title}</h1>" in html and advice in html
    assert title != "This form has expired" and advice != "Reload the page and try again."
    assert f'href="/{lang}/play/">{lobby}</a>' in html
    assert "CSRF" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_a_bad_request_is_a_translated_400(client, lang):
    check_page(client.get(f"/{lang}/test-errors/400/"), lang, 400)


@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_a_server_error_is_a_translated_500_that_needs_no_database(lang):
    """No django_db mark: pytest-django blocks the database, so a page that needed it
    would fail to render (and the test with it)."""
    client = Client(raise_request_exception=False)
    response = client.get(f"/{lang}/test-errors/500/")
    check_page(response, lang, 500)
    assert str(response.exc_info[1]) == "a bug"  # the view's own error, nothing later


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_500_page_renders_with_no_context_at_all(lang):
    """Django draws 500.html with an empty context, no request and no context
    processors: the page must not need them."""
    with translation.override(lang):
        html = loader.get_template("500.html").render()
    assert f'<html lang="{lang}">' in html
    assert words(lang, "Something went wrong on the server.")[0] in html
    assert "Something went wrong" not in html
    assert f'href="/{lang}/play/"' in html
