"""Per-client rate limits (issue 17, item 12): table codes cannot be probed and tables
cannot be created without limit from one address. Over a limit the phone gets 429 and the
lobby saying so in its language; nothing is created."""

import time

import pytest
from django.test import Client
from django.utils import translation

from games import labels
from games import ratelimit as views
from games.models import Table

pytestmark = pytest.mark.django_db

FORM = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}


def slow_down(lang):
    with translation.override(lang):
        return str(labels.REFUSALS["slow_down"])


@pytest.fixture
def low(settings):
    settings.RATE_LIMITS = {"unknown_code": (3, 60), "create_table": (3, 600)}


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """Each test inside one window of every limit (their windows are 60 s to an hour,
    counted from the epoch): a test that crossed a window's boundary would see its counts
    start again. The clock runs on from the start of an hour."""
    start, real = 3600 * 500_000, time.monotonic()
    monkeypatch.setattr(views.time, "time", lambda: start + time.monotonic() - real)


def test_probing_codes_is_stopped_after_a_few_unknown_ones(low):
    known = Client().post("/es/play/", FORM)["Location"].split("/")[3]
    prober = Client()
    for code in ("QQQQQQ", "QQQQQR", "QQQQQT"):
        assert prober.get("/es/join/", {"code": code}).status_code == 404
    response = prober.get("/es/join/", {"code": "QQQQQU"})
    assert response.status_code == 429
    assert slow_down("es") in response.content.decode()
    # once over the limit even a code that exists is not answered: nothing to learn
    assert prober.get("/es/join/", {"code": known}).status_code == 429
    assert prober.get(f"/fr/join/{known}/").status_code == 429
    assert slow_down("fr") in prober.get(f"/fr/join/{known}/").content.decode()
    # another address is not concerned
    other = Client(REMOTE_ADDR="10.0.0.7")
    assert other.get("/es/join/", {"code": "QQQQQQ"}).status_code == 404
    assert other.get("/es/join/", {"code": known}).status_code == 302


def test_known_codes_do_not_count(low):
    known = Client().post("/es/play/", FORM)["Location"].split("/")[3]
    phone = Client()
    for _ in range(20):
        assert phone.get("/es/join/", {"code": known}).status_code == 302
        assert phone.get(f"/es/join/{known}/").status_code == 200
        assert phone.get(f"/es/t/{known}/").status_code == 200


def test_the_join_and_table_pages_of_unknown_codes_count_too(low):
    prober = Client()
    for path in ("/el/join/QQQQQQ/", "/el/t/QQQQQR/", "/el/join/qqqqqq/"):
        assert prober.get(path).status_code == 404
    response = prober.get("/el/join/QQQQQT/")
    assert response.status_code == 429
    assert slow_down("el") in response.content.decode()


def test_creating_tables_is_limited_per_address_for_a_client_with_no_cookie(low):
    phone = Client()  # posts without ever loading a page: no CSRF cookie, its address counts
    for _ in range(3):
        assert phone.post("/ru/play/", FORM).status_code == 302
    response = phone.post("/ru/play/", FORM)
    assert response.status_code == 429
    assert slow_down("ru") in response.content.decode()
    assert Table.objects.count() == 3
    assert Client(REMOTE_ADDR="10.0.0.8").post("/ru/play/", FORM).status_code == 302
    assert Table.objects.count() == 4


def test_the_default_limits_hold_in_a_loop(settings):
    settings.RATE_LIMITS = {}  # the site's own limits
    unknown, per_minute = views.RATE_LIMITS["unknown_code"]
    assert (unknown, per_minute) == (10, 60)
    prober = Client()
    statuses = [prober.get("/es/join/", {"code": "QQQQQQ"}).status_code for _ in range(24)]
    assert statuses == [404] * 10 + [429] * 14
    created, per_ten_minutes = views.RATE_LIMITS["create_table"]
    assert (created, per_ten_minutes) == (10, 600)
    host = phone()
    statuses = [host.post("/es/play/", FORM).status_code for _ in range(30)]
    assert statuses == [302] * 10 + [429] * 20
    assert Table.objects.count() == 10


def test_a_limit_opens_again_in_the_next_window(low, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(views.time, "time", lambda: now[0])
    phone = Client()
    for _ in range(3):
        phone.post("/es/play/", FORM)
    assert phone.post("/es/play/", FORM).status_code == 429
    now[0] += 600
    assert phone.post("/es/play/", FORM).status_code == 302


# -- a club night behind one address (issue 39) ---------------------------------------------


def phone(address="203.0.113.5") -> Client:
    """A phone as a browser is one: it loads the lobby first, which gives it its CSRF
    cookie; every phone here comes through the same public address (a café's)."""
    client = Client(REMOTE_ADDR=address)
    client.get("/es/play/")
    assert client.cookies.get("csrftoken")
    return client


def test_twenty_tables_from_one_address_are_a_club_night_not_a_flood(settings):
    """Every phone at a café shares one public address: ten new tables per ten minutes
    per address refused a ten-table evening. Limits are per phone now, the address having
    ADDRESS_ENVELOPE phones' worth."""
    settings.RATE_LIMITS = {}
    hosts = [phone() for _ in range(20)]
    assert [host.post("/es/play/", FORM).status_code for host in hosts] == [302] * 20
    assert Table.objects.count() == 20
    # and a second table each for half of them (a rematch elsewhere): still fine
    assert [host.post("/es/play/", FORM).status_code for host in hosts[:10]] == [302] * 10
    assert Table.objects.count() == 30


@pytest.mark.parametrize("lang", ["es", "el", "ru", "fr"])
def test_one_phone_is_held_by_its_own_limit_not_its_neighbours(settings, lang):
    settings.RATE_LIMITS = {}
    greedy = phone()
    statuses = [greedy.post(f"/{lang}/play/", FORM).status_code for _ in range(30)]
    assert statuses == [302] * 10 + [429] * 20
    response = greedy.post(f"/{lang}/play/", FORM)
    assert response.status_code == 429
    assert slow_down(lang) in response.content.decode()
    assert Table.objects.count() == 10
    # the phone's refused attempts did not use up its neighbours' envelope
    neighbours = [phone() for _ in range(5)]
    assert [n.post(f"/{lang}/play/", FORM).status_code for n in neighbours] == [302] * 5
    # "Play now" opens tables too: counted alike
    response = greedy.post(f"/{lang}/open/play/", {"game": "triggs", "name": "Ana"})
    assert response.status_code == 429 and slow_down(lang) in response.content.decode()
    assert Table.objects.count() == 15


def test_a_signed_in_player_is_one_phone_on_every_phone(settings, django_user_model):
    """An account is counted as one, whichever phone it creates tables from."""
    settings.RATE_LIMITS = {"create_table": (3, 600)}
    user = django_user_model.objects.create_user("ana", password="s3cret-pass-word")
    made = []
    for _ in range(5):
        client = phone()
        client.force_login(user)
        made.append(client.post("/es/play/", FORM).status_code)
    assert made == [302] * 3 + [429] * 2
    assert Table.objects.count() == 3


def test_a_client_changing_its_cookie_is_held_by_the_address(settings):
    """A client that drops its cookie (or makes up a new one) at every request is a new
    phone each time: its address's envelope (ADDRESS_ENVELOPE phones' worth) holds it, and
    other addresses are not concerned."""
    settings.RATE_LIMITS = {}
    per_phone, _seconds = views.RATE_LIMITS["create_table"]
    envelope = per_phone * views.ADDRESS_ENVELOPE
    assert envelope == 60
    statuses = []
    for n in range(envelope + 10):
        rotating = Client(REMOTE_ADDR="198.51.100.9")
        rotating.cookies["csrftoken"] = f"{n:032d}"
        statuses.append(rotating.post("/fr/play/", FORM).status_code)
    assert statuses == [302] * envelope + [429] * 10
    assert Table.objects.count() == envelope
    last = Client(REMOTE_ADDR="198.51.100.9")
    response = last.post("/fr/play/", FORM)  # no cookie at all: the address still
    assert response.status_code == 429 and slow_down("fr") in response.content.decode()
    assert phone("198.51.100.10").post("/fr/play/", FORM).status_code == 302
