"""The admin's login is throttled (issue 17, item 3): after five wrong passwords for one
account from one address, that account is locked out from that address for a while —
even with the right password — with the message in the page's language; another
account, or the same account from another address, is not affected.

Password spraying (issue 34): failed sign-ins from one address are limited whatever the
username, on the players' sign-in page and the admin's login alike (players.throttle)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from games import ratelimit
from players.views import REFUSED

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
LOCKED = {
    "es": "Demasiados intentos fallidos",
    "el": "Πάρα πολλές αποτυχημένες προσπάθειες",
    "ru": "Слишком много неудачных попыток",
    "fr": "Trop de tentatives de connexion échouées",
}


@pytest.fixture
def staff():
    User.objects.create_user("ana", password=PASSWORD, is_staff=True, is_superuser=True)
    User.objects.create_user("boris", password=PASSWORD, is_staff=True, is_superuser=True)


def login(lang, username, password, ip="203.0.113.7"):
    client = Client(REMOTE_ADDR=ip)
    return client.post(
        f"/{lang}/admin/login/?next=/{lang}/admin/",
        {"username": username, "password": password, "next": f"/{lang}/admin/"},
    )


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_five_wrong_passwords_lock_the_account_from_that_address(staff, lang):
    for _ in range(4):
        response = login(lang, "ana", "wrong")
        assert response.status_code == 200  # the login form again, with its error
    fifth = login(lang, "ana", "wrong")
    assert fifth.status_code == 429
    right = login(lang, "ana", PASSWORD)
    assert right.status_code == 429, "the right password must not get in while locked"
    html = right.content.decode()
    assert LOCKED[lang] in html
    assert f'lang="{lang}"' in html
    assert "sessionid" not in right.cookies
    # another account from the same address, the same account from another address
    assert login(lang, "boris", PASSWORD).status_code == 302
    assert login(lang, "ana", PASSWORD, ip="198.51.100.9").status_code == 302


def test_a_successful_login_before_the_limit_forgives_the_failures(staff):
    for _ in range(4):
        login("es", "ana", "wrong")
    assert login("es", "ana", PASSWORD).status_code == 302
    for _ in range(4):
        login("es", "ana", "wrong")
    assert login("es", "ana", PASSWORD).status_code == 302


# -- one password tried on many accounts ------------------------------------------------


@pytest.fixture
def quick_hashes(settings):
    """(a cheap hasher: these tests check a password some twenty times)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(lang, username, password, ip="203.0.113.7"):
    client = Client(REMOTE_ADDR=ip)
    return client.post(f"/{lang}/account/sign-in/", {"username": username, "password": password})


def too_many(lang) -> str:
    with translation.override(lang):
        return escape(str(REFUSED["too_many_sign_ins"]))


def spray(login_or_sign_in, lang, count):
    """One password tried on `count` usernames, some real, from one address."""
    for n in range(count):
        username = ("ana", "boris")[n] if n < 2 else f"user{n}"
        assert login_or_sign_in(lang, username, "Summer2025!").status_code == 200


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_one_password_tried_on_many_accounts_is_stopped_at_sign_in(quick_hashes, staff, lang):
    limit, _seconds = ratelimit.RATE_LIMITS["login_failed"]
    assert limit == 20
    spray(sign_in, lang, limit)
    refused = sign_in(lang, "ana", PASSWORD)
    assert refused.status_code == 429, "the right password must not get in while limited"
    assert too_many(lang) in refused.content.decode()
    assert "sessionid" not in refused.cookies
    # the admin's login is closed to that address too; another address is not concerned
    assert login(lang, "boris", PASSWORD).status_code == 429
    assert sign_in(lang, "ana", PASSWORD, ip="198.51.100.9").status_code == 302


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_one_password_tried_on_many_accounts_is_stopped_at_the_admins_login(
    quick_hashes, staff, lang
):
    limit, _seconds = ratelimit.RATE_LIMITS["login_failed"]
    spray(login, lang, limit)
    refused = login(lang, "boris", PASSWORD)
    assert refused.status_code == 429
    html = refused.content.decode()
    assert too_many(lang) in html and LOCKED[lang] in html and f'lang="{lang}"' in html
    assert "sessionid" not in refused.cookies
    assert sign_in(lang, "ana", PASSWORD).status_code == 429
    assert login(lang, "boris", PASSWORD, ip="198.51.100.9").status_code == 302


def test_failed_sign_ins_below_the_limit_refuse_nothing(quick_hashes, staff, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login_failed": (3, 3600)}
    for username in ("nobody", "ana"):
        assert sign_in("es", username, "wrong").status_code == 200
    assert sign_in("es", "ana", PASSWORD).status_code == 302
    # a success forgives nothing: one more failure reaches the limit
    assert sign_in("es", "boris", "wrong").status_code == 200
    assert sign_in("es", "boris", PASSWORD).status_code == 429
