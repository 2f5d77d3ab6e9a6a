"""The README's deployment under test (issue 34): two server processes started with the
README's own commands, DEBUG=0, PostgreSQL, Redis, and Debian's nginx in front serving
deploy/nginx.conf over TLS (tests/deploy/conftest.py). Phones play through it as a
deployer's players would; an attacker's forged X-Forwarded-For changes nothing."""

import asyncio
import random
import secrets
import urllib.request
import uuid

import pytest

from games import ratelimit
from games.registry import get_game
from tests.deploy.conftest import HOST, NGINX_CONF, README, fenced_blocks, next_address
from tests.services.conftest import (
    NAMES,
    HandshakeRefused,
    Phone,
    WebSocket,
    close_all,
    replay_log,
)

pytestmark = pytest.mark.services

LANGS = ("es", "el", "ru", "fr")
TAP_GAP = 0.3  # people tap a few times a second at most: a phone's rate limit says so


def form(action: dict) -> dict:
    """An engine action of a digital table as the phone's fields."""
    kind = action["type"]
    if kind == "draw":
        return {"kind": "draw", "first": action["from"][0], "second": "".join(action["from"][1:])}
    if kind == "discard":
        return {"kind": "discard", "card": [str(action["value"])] * action["count"]}
    if kind == "cross":
        sets = "|".join("+".join(map(str, s)) for s in action["sets"])
        return {"kind": "cross", "value": str(action["value"]), "sets": sets}
    if kind == "bid":
        fields = {"kind": "bid", "tricks": str(action["tricks"])}
        fields["trump"] = action["trump"] or ""
        fields["supertrump"] = "" if action["supertrump"] is None else str(action["supertrump"])
        return {**fields, **({"open": "on"} if action["open"] else {})}
    return {"kind": kind, **{k: str(v) for k, v in action.items() if k != "type"}}


def established(port: int) -> int:
    """Connections established to 127.0.0.1:`port` now (nginx's to a server process: with
    no keep-alive upstream, those are WebSockets)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            count += state == "01" and int(local.rsplit(":", 1)[1], 16) == port
    return count


async def seat_phones(table, front, langs=LANGS) -> list[Phone]:
    phones = []
    for i in range(table.players):
        phone = Phone(NAMES[i], table.code, (table.tokens[i],), lang=langs[i % len(langs)])
        await phone.connect(front.at(next_address()))
        phones.append(phone)
    return phones


# -- what the README shows is what runs ---------------------------------------------------


def test_the_readme_shows_the_nginx_file_the_tests_serve_through():
    (block,) = fenced_blocks(README.read_text(), "nginx")
    assert block == NGINX_CONF.read_text()


def test_check_deploy_finds_nothing_to_warn_about(deployment):
    checked = deployment.outputs["check"]
    assert "no issues" in checked.stdout, checked.stdout + checked.stderr


def test_plain_http_is_sent_to_https(deployment):
    request = urllib.request.Request(f"http://127.0.0.1:{deployment.nginx.http_port}/es/")
    request.add_header("Host", HOST)

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(Keep)
    with pytest.raises(urllib.error.HTTPError) as moved:
        opener.open(request, timeout=10)
    assert moved.value.code == 301
    assert moved.value.headers["Location"] == f"https://{HOST}/es/"


def test_pages_come_over_tls_with_the_production_headers(deployment):
    browser = deployment.front.at(next_address()).browser()
    status, url, body = browser.get("/es/play/")
    assert status == 200 and url.startswith("https://") and "<form" in body
    with browser.opener.open(deployment.front.base + "/es/play/", timeout=10) as response:
        headers = response.headers
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert all(c.secure for c in browser.jar)  # DEBUG=0 behind TLS: Secure cookies


# -- every seated phone of a digital table is served ------------------------------------------


@pytest.mark.parametrize("game", ["triggs", "triumfdrez"])
@pytest.mark.parametrize("mode", ["digital", "companion"])
async def test_every_seated_phone_gets_its_screen_and_keeps_its_socket(deployment, game, mode):
    """A seated phone's first screen at a digital table is 9-18 KB: with the README's old
    --websocket-max-message-size 8192 every such phone was closed (1011) and reconnected
    for ever. Four phones in four languages, and a spectator, through nginx."""
    table = deployment.new_table(game=game, mode=mode, players=4, turn_marker=False)
    phones = await seat_phones(table, deployment.front)
    watcher = Phone("watcher", table.code, lang="el")
    await watcher.connect(deployment.front.at(next_address()))
    try:
        for phone in [*phones, watcher]:
            await phone.wait_version(1, timeout=10)
        await asyncio.sleep(2)  # …and they stay
        for phone in [*phones, watcher]:
            assert phone.connects == 1 and phone.closes == [] and phone.connected, phone.name
        first = [len(phone.renders[0].html.encode()) for phone in phones]
        if mode == "digital":
            assert max(first) > 8192  # what the old flag refused to send
    finally:
        await close_all([*phones, watcher])


# -- a process killed mid-game ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["triggs", "triumfdrez"])
async def test_a_digital_game_goes_on_when_a_phones_process_is_killed(deployment, game):
    engine = get_game(game).engine("digital")
    table = deployment.new_table(game=game, mode="digital", players=2, turn_marker=False)
    phones = await seat_phones(table, deployment.front)
    rng = random.Random(34)
    acked, killed = set(), None
    try:
        await asyncio.gather(*(p.wait_version(1, timeout=10) for p in phones))
        for step in range(40):
            row = deployment.table(table.code)
            state, version = row["state"], row["version"]
            if engine.is_over(state):
                break
            if step == 12:  # the process holding a phone's socket dies under it
                killed = next(s for s in deployment.servers if established(s.port))
                killed.kill()
            seats = engine.to_act(state)  # TriumfDrez: any seat deals the next hand
            if not seats:
                break
            seat = seats[0]
            action = rng.choice(engine.legal_actions(state))
            action_id = uuid.uuid4().hex
            await asyncio.sleep(TAP_GAP)
            answer = await phones[seat].move(seat, version, action_id, form(action), timeout=20)
            assert answer == "ack", answer
            acked.add(action_id)
            await asyncio.gather(*(p.wait_version(version + 1, timeout=20) for p in phones))
        assert killed is not None and not killed.alive
        row = deployment.table(table.code)
        log = deployment.actions(table.code)
        assert {a["client_action_id"] for a in log[1:]} == acked  # each once, nothing else
        assert replay_log(game, "digital", row["config"], log) == row["state"]
        assert all(phone.version == row["version"] for phone in phones)
        assert sum(phone.connects for phone in phones) > len(phones)  # some came back
    finally:
        await close_all(phones)


# -- a forged X-Forwarded-For changes nothing ------------------------------------------------


def forged() -> dict:
    """A header an attacker makes up, new on every request."""
    made_up = ".".join(str(secrets.randbelow(250) + 1) for _ in range(4))
    return {"X-Forwarded-For": f"{made_up}, 198.51.100.{secrets.randbelow(250)}"}


def test_the_admin_lockout_holds_whatever_address_a_client_claims(deployment):
    deployment.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User;"
        "User.objects.create_superuser('boss', password='right horse battery staple')",
    )
    browser = deployment.front.at(next_address()).browser()
    browser.get("/es/admin/login/")
    for _ in range(5):
        form = {"username": "boss", "password": "wrong", "next": "/es/admin/"}
        browser.post("/es/admin/login/?next=/es/admin/", form, headers=forged())
    form = {"username": "boss", "password": "right horse battery staple", "next": "/es/admin/"}
    status, url, body = browser.post("/es/admin/login/?next=/es/admin/", form, headers=forged())
    assert "Demasiados intentos fallidos" in body and "/login/" in url
    # the real owner, from another address, still gets in
    owner = deployment.front.at(next_address()).browser()
    owner.get("/es/admin/login/")
    status, url, body = owner.post("/es/admin/login/?next=/es/admin/", form)
    assert status == 200 and url.endswith("/es/admin/")


def test_rate_limits_count_the_address_nginx_saw(deployment):
    prober = deployment.front.at(next_address()).browser()
    statuses = [
        prober.get(f"/es/join/{code}/", headers=forged())[0]
        for code in ("QQQQQQ", "WWWWWW", "XXXXXX", "YYYYYY", "MMMMMM", "NNNNNN")
        for _ in range(2)
    ]
    assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
    # tables: each phone (its cookie) has its own count, and the address nginx saw an
    # envelope of ADDRESS_ENVELOPE phones' worth, however many cookies a client makes up
    maker = deployment.front.at(next_address())
    per_phone = ratelimit.RATE_LIMITS["create_table"][0]
    envelope = per_phone * ratelimit.ADDRESS_ENVELOPE
    made = []
    for _ in range(envelope + 1):
        browser = maker.browser()  # a new cookie each time
        browser.get("/es/play/")
        fields = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}
        made.append(browser.post("/es/play/", fields, headers=forged())[0])
    assert made[:envelope] == [200] * envelope and made[envelope] == 429


async def test_the_sockets_per_address_are_capped_whatever_address_a_client_claims(deployment):
    """One process takes 32 sockets from one address: nginx shares them out between the
    two processes, so at most 64 get through, forged header or not."""
    table = deployment.new_table(game="triggs", mode="digital", players=2, turn_marker=False)
    front = deployment.front.at(next_address())
    opened, refused = [], 0
    for _ in range(72):
        try:
            ws = await WebSocket.connect(
                front.port,
                f"/ws/table/{table.code}/?lang=es",
                {"Origin": front.base, **forged()},
                source=front.source,
                tls=front.tls,
            )
        except HandshakeRefused:
            refused += 1
            continue
        first = await asyncio.wait_for(ws.recv(), 10)
        if first is None:  # accepted, then closed: 4429, too many from this address
            assert ws.close_code == 4429
            refused += 1
        else:
            opened.append(ws)
    try:
        assert len(opened) <= 64 and refused >= 8
    finally:
        for ws in opened:
            await ws.close()
