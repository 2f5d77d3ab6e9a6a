"""The admin's login is throttled (issue 17, item 3): after five wrong passwords for one
account from one address, that account is locked out from that address for a while —
even with the right password — with the message in the page's language; another
account, or the same account from another address, is not affected."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

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
