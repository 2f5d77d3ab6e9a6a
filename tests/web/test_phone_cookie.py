"""One cookie per phone (issue 17, item 13): every seat and host token a phone holds, at
every table, lives in one signed, bounded cookie (games.phones) — not two cookies per
table, which passed nginx's 8 KB of headers at ~85 tables and daphne's 16 KB at ~175."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import phones, services
from games.models import Table
from players import identity
from tests.tables import config

pytestmark = pytest.mark.django_db

FORM = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}


def jar(client) -> dict:
    return {name: morsel.value for name, morsel in client.cookies.items() if morsel.value}


def cookie_header(client) -> str:
    return "; ".join(f"{name}={value}" for name, value in jar(client).items())


def held(client, code):
    return phones.identify(Table.objects.get(code=code), jar(client), None)


def lobby_table(players=2):
    table, host, _token = services.create_table(
        "triggs", "companion", config("triggs", "companion", players), "Host"
    )
    return table, host


def test_creating_and_joining_leave_one_cookie_of_seats():
    """One cookie holds every seat; the player's own (players.identity) is written once,
    when the phone first sits down."""
    phone = Client()
    response = phone.post("/es/play/", FORM)
    code = response["Location"].split("/")[3]
    assert set(response.cookies) == {phones.COOKIE_NAME, identity.COOKIE_NAME}
    table, _host = lobby_table()
    response = phone.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    assert set(response.cookies) == {phones.COOKIE_NAME}
    assert set(jar(phone)) == {phones.COOKIE_NAME, identity.COOKIE_NAME}
    cookie = response.cookies[phones.COOKIE_NAME]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    assert cookie["max-age"] == 30 * 24 * 60 * 60
    assert held(phone, code) == phones.Phone([0], 0, True)
    assert held(phone, table.code) == phones.Phone([1], 1, False)


def test_the_cookie_is_secure_over_https():
    response = Client().post("/es/play/", FORM, secure=True)
    assert response.cookies[phones.COOKIE_NAME]["secure"]


def test_a_phone_at_200_tables_sends_under_8_kb_and_keeps_its_latest_tables():
    phone = Client()
    codes, hosted = [], set()
    for i in range(200):
        if i % 2:
            table, _host = lobby_table()
            response = phone.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
            codes.append(table.code)
        else:
            response = phone.post("/es/play/", FORM)
            codes.append(response["Location"].split("/")[3])
            hosted.add(codes[-1])
        assert response.status_code == 302
    header = cookie_header(phone)
    assert len(header) < 8 * 1024
    assert all(len(f"{n}={v}") < 4000 for n, v in jar(phone).items())  # browsers' limit
    for code in codes[-phones.MAX_TABLES // 2 :]:  # the latest tables are all still held
        expected = phones.Phone([0], 0, True) if code in hosted else phones.Phone([1], 1, False)
        assert held(phone, code) == expected
    for code in codes[:100]:  # the oldest are forgotten
        assert held(phone, code) == phones.Phone([], None, False)
    # the site still answers this phone, as the host of its latest table
    latest = codes[-1] if codes[-1] in hosted else codes[-2]
    response = phone.post(f"/es/t/{latest}/free/", {"index": "1"})
    assert response.status_code == 302


def test_a_forged_or_altered_cookie_is_ignored():
    host = Client()
    code = host.post("/es/play/", FORM)["Location"].split("/")[3]
    value = jar(host)[phones.COOKIE_NAME]
    text, _sep, _signature = value.partition(":")
    book = phones.read({phones.COOKIE_NAME: value})
    assert book[code].host and book[code].seats
    forged = [
        text,  # unsigned
        text + ":" + value.split(":", 1)[1][:-1] + ("A" if value[-1] != "A" else "B"),
        value.replace(text, text[:-1] + ("A" if text[-1] != "A" else "B")),
        "",
        "~|~.",
    ]
    for cookie in forged:
        cookies = {phones.COOKIE_NAME: cookie}
        assert phones.read(cookies) == {}
        assert phones.token_hashes(cookies, code) == set()
        thief = Client()
        thief.cookies[phones.COOKIE_NAME] = cookie
        assert held(thief, code) == phones.Phone([], None, False)  # a spectator
        response = thief.post(f"/es/t/{code}/start/", {"action_id": "start-0001"})
        assert response.status_code == 409  # only the host can
    # the same cookie, signed for another purpose, is no more use
    from django.core import signing

    other = signing.get_cookie_signer(salt="something else").sign(text)
    assert phones.read({phones.COOKIE_NAME: other}) == {}


def test_the_socket_reads_the_same_cookie():
    table, _host = lobby_table()
    phone = Client()
    phone.post(f"/es/join/{table.code}/", {"seat": "1", "name": "Boris"})
    seat = table.seats.get(index=1)
    assert phones.token_hashes(jar(phone), table.code) == {seat.token_hash}
    assert phones.cookie_tokens(jar(phone), "QQQQQQ") == []


def test_a_table_closed_or_finished_over_a_day_ago_is_dropped_when_seen():
    phone = Client()
    old = phone.post("/es/play/", FORM)["Location"].split("/")[3]
    recent = phone.post("/es/play/", FORM)["Location"].split("/")[3]
    host = phones.host_token(jar(phone), old)
    services.close_table(Table.objects.get(code=old), host)
    services.close_table(Table.objects.get(code=recent), phones.host_token(jar(phone), recent))
    # closed an hour ago: kept
    phone.get(f"/es/t/{recent}/")
    assert held(phone, recent).host
    # closed two days ago: dropped when the phone opens it…
    Table.objects.filter(code=old).update(updated=timezone.now() - timedelta(days=2))
    response = phone.get(f"/es/t/{old}/")
    assert response.status_code == 200
    assert old not in phones.read(jar(phone))
    assert recent in phones.read(jar(phone))
    # …and whenever the cookie is written (a table that no longer exists too)
    Table.objects.filter(code=recent).update(updated=timezone.now() - timedelta(days=2))
    gone = phone.post("/es/play/", FORM)["Location"].split("/")[3]
    Table.objects.filter(code=gone).delete()
    phone.post("/es/play/", FORM)
    assert recent not in phones.read(jar(phone)) and gone not in phones.read(jar(phone))
    assert len(phones.read(jar(phone))) == 1


def test_a_second_player_on_the_same_phone_shares_the_cookie():
    table, _host = lobby_table(players=4)
    phone = Client()
    for seat, name in ((1, "Boris"), (2, "Chloé"), (3, "Dmitri")):
        assert (
            phone.post(f"/es/join/{table.code}/", {"seat": str(seat), "name": name}).status_code
            == 302
        )
    assert held(phone, table.code).seats == [1, 2, 3]
    assert set(jar(phone)) == {phones.COOKIE_NAME, identity.COOKIE_NAME}
    # the phone's player is the first to sit; the others are other people
    players = [seat.player for seat in table.seats.order_by("index")]
    assert players[0] is None and players[1] is not None and players[2:] == [None, None]
    assert players[1].name == "Boris"


def test_the_earlier_per_table_cookies_are_read_once_and_moved():
    table, host = lobby_table()
    token = services.claim_seat(table, 1, "Boris")
    phone = Client()
    phone.cookies[f"seats_{table.code}"] = token
    phone.cookies[f"host_{table.code}"] = host
    response = phone.get(f"/es/t/{table.code}/")
    assert response.status_code == 200
    assert response.cookies[f"seats_{table.code}"]["max-age"] == 0  # deleted
    assert response.cookies[f"host_{table.code}"]["max-age"] == 0
    assert set(jar(phone)) == {phones.COOKIE_NAME, "csrftoken"}
    assert held(phone, table.code) == phones.Phone([1], 1, True)


def test_the_bounds_hold_for_phones_with_four_seats_everywhere():
    book = {}
    for i in range(100):
        code = f"{i:06d}".translate(str.maketrans("0123456789", "ACDEFGHJKM"))
        for s in range(4):
            book = phones.with_seat(book, code, f"{'t' * 31}{s}")
        book = phones.with_host(book, code, "h" * 32)
    value = phones.cookie_value(book)
    assert len(value) <= phones.MAX_COOKIE_CHARS
    kept = phones.read({phones.COOKIE_NAME: value})
    assert 0 < len(kept) <= phones.MAX_TABLES
    assert list(kept) == list(book)[-len(kept) :]  # the newest kept, the oldest dropped
    assert all(len(entry.seats) == 4 for entry in kept.values())
