"""Issue 34's findings tried again against the README's deployment (tests/deploy): each
path that showed a hand to the wrong person, and each way an attacker got round a limit,
is refused there. A forged X-Forwarded-For rides along on every attacker's request."""

import asyncio
import json
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.triumfdrez.cards import DECK
from tests.deploy.conftest import HOST, next_address
from tests.deploy.test_deployment import forged
from tests.services.conftest import NAMES, HandshakeRefused, Phone, close_all

pytestmark = pytest.mark.services

CARD = re.compile(r'data-card(?:-id)?="([a-z]+-\d)"')


def hand_of(deployment, code: str, seat: int) -> set[str]:
    return set(deployment.table(code)["state"]["hands"][seat])


def create(deployment, front, game="triumfdrez", players=2, **fields):
    browser = front.browser()
    browser.get("/es/play/")
    form = {"game": game, "mode": "digital", "players": str(players), "name": "Ana"}
    if game == "triumfdrez":
        form["target"] = "50"
    status, url, body = browser.post("/es/play/", {**form, **fields}, headers=forged())
    code = re.search(r"/t/([A-Z0-9]{6})/", url).group(1)
    return browser, code


def join(front, code: str, seat: int, name: str):
    browser = front.browser()
    browser.get(f"/es/join/{code}/")
    status, url, _body = browser.post(f"/es/join/{code}/", {"seat": str(seat), "name": name})
    return browser, status == 200 and f"/t/{code}/" in url


# -- item 2: a replay showed another seat's hand --------------------------------------


def test_the_replay_shows_no_hand_of_a_seat_left_or_handed_over(deployment):
    front = deployment.front.at(next_address())
    # the host leaves seat 0 in the lobby, sits at seat 1, a computer player takes seat 0
    host, code = create(deployment, front)
    host.post(f"/es/t/{code}/leave/", {"seat": "0", "on": "1"})
    assert join_back(host, code, 1)
    host.post(f"/es/t/{code}/bot/", {"index": "0", "seat": "1", "level": ""})
    host.post(f"/es/t/{code}/start/", {"seat": "1", "action_id": secrets.token_hex(8)})
    status, _url, body = host.get(f"/es/t/{code}/replay/?seat=0")
    assert not set(CARD.findall(body)) & hand_of(deployment, code, 0)
    # a seat handed to a friend: its cards are the friend's, not the host's any more
    other, code = create(deployment, front)
    guest, joined = join(front, code, 1, "Boris")
    assert joined
    other.post(f"/es/t/{code}/start/", {"seat": "0", "action_id": secrets.token_hex(8)})
    page = other.post(f"/es/t/{code}/handover/", {"seat": "0"})[2]
    link = re.search(r"https://[^/]+(/es/h/[^\"<\s]+/)", page).group(1)
    friend = front.browser()
    friend.get(link)
    assert friend.post(link, {})[0] == 200
    for path in (f"/es/t/{code}/replay/?seat=0", f"/es/t/{code}/?seat=0", f"/es/t/{code}/"):
        body = other.get(path)[2]
        assert not set(CARD.findall(body)) & hand_of(deployment, code, 0), path
    assert set(CARD.findall(friend.get(f"/es/t/{code}/")[2])) >= hand_of(deployment, code, 0)


def join_back(browser, code: str, seat: int) -> bool:
    browser.get(f"/es/join/{code}/")
    status, url, _ = browser.post(f"/es/join/{code}/", {"seat": str(seat), "name": "Ana"})
    return f"/t/{code}/" in url


# -- item 3: leaving a table that waits left a hand for anyone to claim ------------------


def test_a_seat_left_at_a_table_that_waits_goes_to_a_computer_player(deployment):
    front = deployment.front.at(next_address())
    host, code = create(deployment, front, takeover="")
    guest, joined = join(front, code, 1, "Boris")
    assert joined
    host.post(f"/es/t/{code}/start/", {"seat": "0", "action_id": secrets.token_hex(8)})
    guest.post(f"/es/t/{code}/leave/", {"seat": "1", "on": "1"})
    (kind, token), *_ = deployment.query(
        "SELECT s.kind, s.token_hash FROM games_seat s JOIN games_table t ON t.id = s.table_id"
        " WHERE t.code = %s AND s.index = 1",
        code,
    )
    assert kind == "bot" and token == ""
    # nobody can claim it: not the opponent already seated, not a stranger
    assert not join(front, code, 1, "Eve")[1]
    status, url, _body = host.post(f"/es/join/{code}/", {"seat": "1", "name": "Ana2"})
    assert f"/t/{code}/" not in url
    body = host.get(f"/es/t/{code}/")[2]
    assert not set(CARD.findall(body)) & hand_of(deployment, code, 1)


# -- item 5: strangers crowding a table kept its player out -------------------------------


async def test_strangers_filling_a_table_on_both_processes_cannot_keep_its_player_out(
    deployment,
):
    table = deployment.new_table(game="triggs", mode="digital", players=2, turn_marker=False)
    crowd, refused = [], 0
    try:
        for n in range(140):  # the spectators' room of both processes (64 each), and more
            stranger = Phone(f"x{n}", table.code, auto_reconnect=False)
            try:
                await stranger.connect(deployment.front.at(next_address()))
            except HandshakeRefused:  # the room is full
                refused += 1
                continue
            crowd.append(stranger)
        assert refused >= 140 - 2 * 64
        ana = Phone(NAMES[0], table.code, (table.tokens[0],))
        await ana.connect(deployment.front.at(next_address()))
        await ana.wait_version(1, timeout=10)
        await asyncio.sleep(1)
        assert ana.connected and ana.closes == []
        crowd.append(ana)
    finally:
        await close_all(crowd)


# -- item 6: the lows ----------------------------------------------------------------------


async def test_a_seat_says_one_phrase_at_a_time_on_any_number_of_processes(deployment):
    table = deployment.new_table(game="triggs", mode="digital", players=2, turn_marker=False)
    tabs = [Phone(f"tab{i}", table.code, (table.tokens[0],)) for i in range(4)]
    try:
        for i, tab in enumerate(tabs):  # straight to each process, two tabs on each
            await tab.connect(Direct(deployment, deployment.servers[i % 2]))
            await tab.wait_version(1)
        for tab in tabs:
            await tab.send({"kind": "say", "phrase": "thanks"})
        await asyncio.sleep(1.5)
        refused = [tab for tab in tabs if any("Demasiados" in r.flash for r in tab.renders)]
        assert len(refused) == len(tabs) - 1
    finally:
        await close_all(tabs)


class Direct:
    """A server process of the deployment reached without nginx, under the site's name (a
    test that must choose the process a phone talks to)."""

    def __init__(self, deployment, server):
        self.port, self.base, self.name = server.port, deployment.front.base, server.name
        self.tls, self.source = (None, HOST), next_address()


def test_group_codes_cannot_be_probed_whatever_address_is_claimed(deployment):
    prober = deployment.front.at(next_address()).browser()
    answers = [prober.get(f"/es/g/Q{n:05d}/", headers=forged())[0] for n in range(11)]
    assert answers[:10] == [404] * 10 and answers[10] == 429


def test_sign_in_spraying_is_limited_whatever_address_is_claimed(deployment):
    sprayer = deployment.front.at(next_address()).browser()
    sprayer.get("/es/account/sign-in/")
    answers = [
        sprayer.post(
            "/es/account/sign-in/",
            {"username": f"victim{n}", "password": "Summer2026!"},
            headers=forged(),
        )[0]
        for n in range(21)
    ]
    assert 429 not in answers[:20] and answers[20] == 429


def test_sign_up_counts_every_attempt_and_names_no_taken_username(deployment):
    front = deployment.front.at(next_address())
    first = front.browser()
    first.get("/es/account/sign-up/")
    password = "tréboles-42-xyz"
    fields = {"username": "carmen", "password1": password, "password2": password}
    assert first.post("/es/account/sign-up/", fields)[0] == 200  # signed up, redirected
    answers = []
    for n in range(10):
        again = front.browser()
        again.get("/es/account/sign-up/")
        name = "carmen" if n % 2 else "carmen!" * 10  # taken, or not a username at all
        answers.append(again.post("/es/account/sign-up/", {**fields, "username": name}))
    taken, bad = answers[1][2], answers[0][2]
    assert "no se puede usar" in taken and "no se puede usar" in bad
    assert "ya existe" not in taken
    assert answers[-1][0] == 429  # ten attempts an hour, refused ones too


def test_sixteen_play_now_presses_fill_four_tables(deployment):
    deployment.query(
        "UPDATE games_table SET status = 'closed' WHERE open AND status = 'lobby'"
        " AND game = 'triumfdrez' RETURNING id"
    )
    tag = secrets.token_hex(3)
    names = [f"P{n}-{tag}" for n in range(16)]
    browsers = [deployment.front.at(next_address()).browser() for _ in names]
    for browser in browsers:
        browser.get("/es/open/")
    ready = threading.Barrier(len(names), timeout=30)

    def press(n):
        ready.wait()
        return browsers[n].post("/es/open/play/", {"game": "triumfdrez", "name": names[n]})

    with ThreadPoolExecutor(len(names)) as pool:
        answers = list(pool.map(press, range(len(names))))
    codes = {re.search(r"/t/([A-Z0-9]{6})/", url).group(1) for _s, url, _b in answers}
    assert len(codes) == 4


def test_a_handover_link_stops_working_when_the_table_closes(deployment):
    front = deployment.front.at(next_address())
    host, code = create(deployment, front, game="triggs")
    page = host.post(f"/es/t/{code}/handover/", {"seat": "0"})[2]
    link = re.search(r"https://[^/]+(/es/h/[^\"<\s]+/)", page).group(1)
    host.post(f"/es/t/{code}/close/", {"seat": "0"})
    friend = front.browser()
    friend.get(link)
    assert friend.post(link, {})[0] == 410
    assert host.post(f"/es/t/{code}/handover/", {"seat": "0"})[0] == 409


def test_the_import_refuses_bidirectional_overrides_and_unknown_levels(deployment):
    deployment.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User;"
        "User.objects.filter(username='importer').exists() or "
        "User.objects.create_superuser('importer', password='right horse battery staple')",
    )
    staff = deployment.front.at(next_address()).browser()
    staff.get("/es/admin/login/")
    login = {"username": "importer", "password": "right horse battery staple", "next": "/es/admin/"}
    staff.post("/es/admin/login/?next=/es/admin/", login)
    before = deployment.query("SELECT count(*) FROM games_table")[0][0]
    host, code = create(deployment, deployment.front.at(next_address()), game="triggs")
    host.post(f"/es/t/{code}/bot/", {"index": "1", "seat": "0", "level": ""})
    host.post(f"/es/t/{code}/start/", {"seat": "0", "action_id": secrets.token_hex(8)})
    session = export_of(deployment, staff, code)
    for seat, change in ((0, {"name": "Ana\u202e"}), (1, {"kind": "bot", "bot_level": "god"})):
        altered = json.loads(session)
        altered["seats"][seat].update(change)
        status, _url, body = upload(staff, json.dumps(altered))
        assert "\\u202e" in body or "god" in body, body[-2000:]
    assert deployment.query("SELECT count(*) FROM games_table")[0][0] == before + 1


def export_of(deployment, staff, code: str) -> str:
    (table_id,) = deployment.query("SELECT id FROM games_table WHERE code = %s", code)[0]
    return staff.get(f"/es/admin/games/table/{table_id}/export/")[2]


def upload(staff, text: str):
    """The admin's import form posted with one file (multipart, as a browser sends it)."""
    boundary = secrets.token_hex(8)
    csrf = staff.cookie("csrftoken") or ""
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
        f"{csrf}\r\n--{boundary}\r\n"
        'Content-Disposition: form-data; name="session"; filename="s.json"\r\n'
        f"Content-Type: application/json\r\n\r\n{text}\r\n--{boundary}--\r\n"
    ).encode()
    import urllib.request

    request = urllib.request.Request(staff.base + "/es/admin/games/table/import/", data=body)
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    request.add_header("Origin", staff.base)
    with staff.opener.open(request, timeout=20) as response:
        return response.status, response.url, response.read().decode(errors="replace")


def test_nothing_here_is_a_card_id_by_accident():
    assert all(CARD.fullmatch(f'data-card="{card}"') for card in DECK)
