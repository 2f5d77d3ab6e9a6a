"""Faults on the real stack (issue 9): a server process killed mid-game, Redis stopped
and started again, and phones that misbehave. Through all of them no acknowledged
action is lost or applied twice, the log replays to the saved state, and every phone
ends on the table's version.

Redis faults use a redis-server of the test's own (tests.services.conftest.RedisServer),
never the machine's Redis, which other runs share.
"""

import asyncio
import json
import os
import random
import signal
import subprocess
import time
import uuid

import pytest

from tests.services.conftest import (
    PYTHON,
    ROOT,
    Browser,
    CompanionGame,
    HandshakeRefused,
    Phone,
    WebSocket,
    close_all,
    fields_of,
    monotonic,
    port_open,
    replay_log,
    seat_phones,
    version_of,
)

pytestmark = pytest.mark.services


async def flood(phone) -> None:
    """Far more than the bucket (10) plus the refusals allowed in a row (30)."""
    for i in range(120):
        await phone.send({"kind": "resync"} if i % 2 else {"seat": "2", "version": "0"})


class Play:
    """Moves of a Triggs companion table (turn marker on), each sent by the phone of the
    seat to act; what each phone was acknowledged is kept for the final check."""

    def __init__(self, cluster, table, phones, seed):
        self.cluster, self.table, self.phones = cluster, table, phones
        self.game = CompanionGame.of(cluster, table.code)
        self.rng = random.Random(seed)
        self.acked: set[str] = set()
        self.version = 1

    async def moves(self, count: int) -> None:
        for _ in range(count):
            seat, action = self.game.choose(self.rng)
            action_id = uuid.uuid4().hex
            answer = await self.phones[seat].move(seat, self.version, action_id, fields_of(action))
            assert answer == "ack", answer
            self.applied(seat, action, action_id)
            await self.everyone_at(self.version)

    def applied(self, seat, action, action_id) -> None:
        self.acked.add(action_id)
        self.game.applied(seat, action)
        self.version += 1

    async def everyone_at(self, version: int, timeout: float = 8) -> None:
        await asyncio.gather(*(p.wait_version(version, timeout) for p in self.phones))

    def check(self) -> None:
        """Each acknowledged action is in the log once, the log holds nothing else, and
        log, saved state, the test's copy and every phone agree."""
        row = self.cluster.table(self.table.code)
        log = self.cluster.actions(self.table.code)
        assert row["version"] == self.version
        assert [a["version"] for a in log] == list(range(1, row["version"] + 1))
        ids = [a["client_action_id"] for a in log[1:]]
        assert len(ids) == len(set(ids))
        assert set(ids) == self.acked
        assert row["state"] == self.game.state
        assert replay_log(row["game"], row["mode"], row["config"], log) == row["state"]
        for phone in self.phones:
            assert phone.version == row["version"], phone.name
            assert monotonic(r.version for r in phone.renders), phone.name


# -- a server process killed in the middle of a game -------------------------------------


async def test_a_killed_process_loses_no_acknowledged_action(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    for phone in phones:
        phone.pool = [a, b]  # behind one load balancer
    play = Play(cluster, table, phones, seed=11)
    try:
        await play.moves(5)
        for victim, survivor in ((a, b), (b, a)):
            while play.phones[play.game.actor].server is not victim:
                await play.moves(1)
            # the seat to act sends its move, and its process dies under it
            seat, action = play.game.choose(play.rng)
            action_id, version = uuid.uuid4().hex, play.version
            await phones[seat].act(seat, version, action_id, **fields_of(action))
            await asyncio.sleep(play.rng.uniform(0, 0.03))
            victim.kill()
            orphans = [p for p in phones if p.server is victim]
            # they come back through the other process and resync to the database
            for phone in orphans:
                await phone.wait_until(
                    lambda p=phone, s=survivor: p.connected and p.server is s, 10, "failover"
                )
            now = cluster.table(table.code)["version"]
            for phone in orphans:
                await phone.wait_until(lambda p=phone, v=now: p.version >= v, what="resync")
            # the move was never answered: the phone sends it again, same id, same version
            answer = await phones[seat].move(seat, version, action_id, fields_of(action))
            assert answer == "ack"
            play.applied(seat, action, action_id)
            for phone in orphans:
                await phone.wait_version(play.version)
            # the process comes back; one of its phones returns to it
            victim.start()
            await orphans[0].close()
            await orphans[0].connect(victim)
            await orphans[0].wait_version(play.version)
            await play.moves(4)
        play.check()
    finally:
        await close_all(phones)


# -- Redis stopped -----------------------------------------------------------------------


@pytest.fixture
def redis_pair(cluster, private_redis):
    """Two more server processes on the test's database, whose channel layer is the
    test's own redis-server."""
    servers = [cluster.spawn(f"{name}-private-redis", private_redis.url) for name in "AB"]
    yield servers
    for server in servers:
        server.stop()
        cluster.extra.remove(server)


async def all_dropped(phones, sockets) -> None:
    """Each phone's socket closed by its server as a failing server closes it (1011)."""
    for phone, ws in zip(phones, sockets, strict=True):
        await phone.wait_until(lambda w=ws: w.close_code is not None, what="drop")
        assert ws.close_code == 1011


async def all_back(phones) -> None:
    for phone in phones:
        await phone.wait_until(lambda p=phone: p.connected, what="back")


async def test_phones_resync_after_redis_restarts(cluster, private_redis, redis_pair):
    a, b = redis_pair
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=12)
    try:
        await play.moves(3)
        down_at = time.monotonic()
        sockets = [p.ws for p in phones]
        private_redis.kill()
        # every socket is dropped (1011); each phone keeps trying to come back
        await all_dropped(phones, sockets)
        # meanwhile the seat to act uses the plain form (HTTP), which needs no Redis
        seat, action = play.game.choose(play.rng)
        action_id, version = uuid.uuid4().hex, play.version
        form = {"seat": str(seat), "version": str(version), "action_id": action_id}
        form.update(fields_of(action))
        await asyncio.to_thread(table.browsers[seat].post, f"/es/t/{table.code}/act/", form)
        assert cluster.table(table.code)["version"] == version + 1  # it was saved
        play.applied(seat, action, action_id)
        # sending the same form again changes nothing
        status, _url, _body = await asyncio.to_thread(
            table.browsers[seat].post, f"/es/t/{table.code}/act/", form
        )
        assert cluster.table(table.code)["version"] == version + 1
        await asyncio.sleep(max(0.0, 3 - (time.monotonic() - down_at)))
        private_redis.start()
        await play.everyone_at(play.version, timeout=15)
        await all_back(phones)
        # the groups are whole again: every move reaches every phone
        await play.moves(3)
        play.check()
    finally:
        await close_all(phones)


async def test_phones_come_back_after_a_quick_redis_restart(cluster, private_redis, redis_pair):
    """Redis restarted at once: the subscriptions went with it, so a change told now would
    reach no phone. Each process, finding Redis gone or with a new run id, drops its
    sockets (1011); every phone comes back and every move reaches it again."""
    a, b = redis_pair
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=14)
    try:
        await play.moves(2)
        sockets = [p.ws for p in phones]
        private_redis.kill()
        private_redis.start()
        await all_dropped(phones, sockets)
        await all_back(phones)
        await play.moves(3)
        play.check()
        for server in (a, b):  # each socket failed for the reason it was given
            log = server.log_tail(10**7)
            assert "games.consumers.RedisLost" in log and "InvalidStateError" not in log
    finally:
        await close_all(phones)


async def test_a_frozen_redis_delays_moves_but_loses_none(cluster, private_redis, redis_pair):
    """Redis stopped (SIGSTOP) for three seconds, then continued: the move made meanwhile
    reaches every phone once it is back, and no socket is dropped."""
    a, b = redis_pair
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=13)
    try:
        await play.moves(2)
        private_redis.proc.send_signal(signal.SIGSTOP)
        try:
            seat, action = play.game.choose(play.rng)
            action_id = uuid.uuid4().hex
            await phones[seat].act(seat, play.version, action_id, **fields_of(action))
            await asyncio.sleep(3)
        finally:
            private_redis.proc.send_signal(signal.SIGCONT)
        play.applied(seat, action, action_id)
        await play.everyone_at(play.version, timeout=10)
        await play.moves(2)
        assert all(p.connected for p in phones)
        play.check()
    finally:
        await close_all(phones)


async def test_a_move_saved_while_redis_is_down_is_answered_as_saved(cluster, private_redis):
    server = cluster.spawn("A-redis-down", private_redis.url)
    try:
        table = cluster.new_table(server=server)
        game = CompanionGame.of(cluster, table.code)
        seat, action = game.choose(random.Random(14))
        private_redis.kill()
        form = {"seat": str(seat), "version": "1", "action_id": uuid.uuid4().hex}
        form.update(fields_of(action))
        status, url, _body = await asyncio.to_thread(
            table.browsers[seat].post, f"/es/t/{table.code}/act/", form
        )
        assert cluster.table(table.code)["version"] == 2  # saved …
        assert status == 200 and f"/t/{table.code}/" in url  # … and answered as saved
    finally:
        server.stop()
        cluster.extra.remove(server)


class SilentSaver:
    """A process that saves one move and dies before telling the table: a Django shell
    with no channel layer (its broadcast reaches nobody). Django starts up first; the
    move is saved on `save()`, within milliseconds."""

    def __init__(self, cluster, code, seat, action, version, action_id):
        script = (
            "import sys; from games import services; from games.models import Table; "
            f"t = Table.objects.get(code={code!r}); sys.stdin.readline(); "
            f"services.apply_action(t, {seat}, {action!r}, {version}, {action_id!r})"
        )
        env = {**os.environ, **cluster.env()}
        env.pop("REDIS_URL")
        self.process = subprocess.Popen(
            [PYTHON, "manage.py", "shell", "-c", script],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
        )

    async def save(self) -> None:
        await asyncio.to_thread(self.process.communicate, b"go\n", 60)
        assert self.process.returncode == 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


async def test_a_phone_that_missed_a_version_resyncs_on_the_next(cluster):
    """A move saved but never broadcast, then the next move: every phone sees the
    version jump, asks for a resync (as static/js/table.js does) and ends on the table's
    version."""
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    game = CompanionGame.of(cluster, table.code)
    rng = random.Random(16)
    seat, action = game.choose(rng)
    lost = uuid.uuid4().hex
    saver = SilentSaver(cluster, table.code, seat, action, 1, lost)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=17)
    try:
        await saver.save()
        play.applied(seat, action, lost)
        await play.moves(1)  # version 3, broadcast: each phone jumps from 1 to 3
        for phone in phones:
            assert phone.gaps >= 1, phone.name
            # the resync's own render follows the jump
            await phone.wait_until(
                lambda p=phone: sum(r.version == 3 for r in p.renders) >= 2, what="resync"
            )
        play.check()
    finally:
        saver.stop()
        await close_all(phones)


async def test_a_move_whose_broadcast_was_lost_reaches_every_phone_once_sent_again(cluster):
    """The process that saved a move dies before telling the table. Its phone comes
    back through process B and sends the unanswered move again (same id, same version):
    the other phones must then see it, or the next player never learns it is their
    turn."""
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    game = CompanionGame.of(cluster, table.code)
    seat, action = game.choose(random.Random(15))
    action_id = uuid.uuid4().hex
    saver = SilentSaver(cluster, table.code, seat, action, 1, action_id)
    phones = await seat_phones(table, [a, a, b, b])
    try:
        await saver.save()
        assert cluster.table(table.code)["version"] == 2
        await phones[seat].close()
        await phones[seat].reconnect([b])
        answer = await phones[seat].move(seat, 1, action_id, fields_of(action))
        assert answer == "ack"
        others = [p for i, p in enumerate(phones) if i != seat]
        await asyncio.gather(*(p.wait_version(2, timeout=3) for p in others))
    finally:
        saver.stop()
        await close_all(phones)


# -- misbehaving phones ------------------------------------------------------------------


async def legit_move_reaches(play: Play, phones) -> None:
    """After the misbehaviour, the next legitimate move still reaches every phone."""
    await play.moves(1)
    for phone in phones:
        assert not phone.renders[-1].flash


async def test_a_flood_is_closed_and_changes_nothing(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=21)
    flooder = Phone("flooder", table.code, (table.tokens[2],), auto_reconnect=False)
    await flooder.connect(b)
    try:
        await play.moves(2)
        version = play.version
        await flood(flooder)
        await flooder.wait_closed(timeout=15)
        assert cluster.table(table.code)["version"] == version
        await legit_move_reaches(play, phones)
        play.check()
    finally:
        await close_all([*phones, flooder])


async def test_a_flood_is_closed_with_a_policy_code_the_page_does_not_reconnect_after(cluster):
    a, _b = cluster.servers
    table = cluster.new_table(server=a)
    flooder = Phone("flooder", table.code, (table.tokens[1],), auto_reconnect=False)
    await flooder.connect(a)
    try:
        await flooder.wait_version(1)
        await flood(flooder)
        code = await flooder.wait_closed(timeout=15)
        assert code == 4008, code  # "policy violation" in the application range
    finally:
        await flooder.close()


async def test_an_idle_phone_keeps_its_socket(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    try:
        await asyncio.sleep(11)  # longer than Redis's 5 s read timeout, twice
        assert [p.closes for p in phones] == [[], [], [], []]
    finally:
        await close_all(phones)


async def test_oversized_frames_are_refused_and_change_nothing(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=22)
    try:
        await play.moves(1)
        seat, action = play.game.choose(play.rng)
        phone = phones[seat]
        # a legal move padded past 8 KiB is refused whole
        message = {"seat": str(seat), "version": str(play.version), "action_id": "x" * 16}
        message.update(fields_of(action), padding="p" * 9000)
        start = len(phone.renders)
        await phone.send(json.dumps(message))
        await phone.wait_until(lambda: any(r.flash for r in phone.renders[start:]))
        assert phone.connected
        assert cluster.table(table.code)["version"] == play.version
        # past the server's cap (companion.serve.INCOMING_MAX) the socket is closed: 1009
        # (message too big), or
        # dropped before the client reads that while it is still writing
        big = Phone("big", table.code, (table.tokens[seat],), auto_reconnect=False)
        await big.connect(phone.server)
        await big.wait_version(play.version)
        await big.ws.send("[" + " " * (2 * 1024 * 1024) + "]")
        assert await big.wait_closed(timeout=10) in (1006, 1009)
        assert port_open(phone.server.port) and phone.server.alive
        assert cluster.table(table.code)["version"] == play.version
        await legit_move_reaches(play, phones)
        play.check()
    finally:
        await close_all(phones)


async def test_malformed_and_forged_messages_are_refused_and_change_nothing(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=23)
    try:
        await play.moves(1)
        actor = play.game.actor
        other = (actor + 1) % 4
        bad = phones[other]
        version = play.version
        messages = [
            "not json",
            "[1, 2, 3]",
            '"a string"',
            "{}",
            json.dumps({"kind": "pass"}),  # no seat, version or id
            json.dumps({"seat": "x", "version": str(version), "action_id": "a" * 16}),
            json.dumps({"seat": str(other), "version": "v", "action_id": "a" * 16}),
            json.dumps({"seat": str(other), "version": str(version), "action_id": "short"}),
            json.dumps({"seat": str(other), "version": str(version), "action_id": "bad id!" * 4}),
            json.dumps(
                {"seat": str(other), "version": str(version), "action_id": "k" * 16, "kind": "x"}
            ),
            # a cross of row 99, and one of -1 sets
            json.dumps(
                {
                    "seat": str(other),
                    "version": str(version),
                    "action_id": "r" * 16,
                    "kind": "cross",
                    "value": "99",
                    "sets": "1",
                }
            ),
            json.dumps(
                {
                    "seat": str(other),
                    "version": str(version),
                    "action_id": "s" * 16,
                    "kind": "cross",
                    "value": "4",
                    "sets": "-1",
                }
            ),
            # forged: another seat's move (the seat to act) from this phone
            json.dumps(
                {"seat": str(actor), "version": str(version), "action_id": "f" * 16, "kind": "pass"}
            ),
            # forged: a seat that does not exist
            json.dumps(
                {"seat": "9", "version": str(version), "action_id": "g" * 16, "kind": "pass"}
            ),
            # its own seat out of turn
            json.dumps(
                {"seat": str(other), "version": str(version), "action_id": "h" * 16, "kind": "pass"}
            ),
        ]
        for text in messages:
            start = len(bad.renders)
            await bad.send(text)
            await bad.wait_until(lambda s=start: any(r.flash for r in bad.renders[s:]), what=text)
            # refusals of abuse (the malformed ones) are drawn at most once a second
            await asyncio.sleep(1.05)
        start = len(bad.renders)
        await bad.ws.send_frame(0x2, b"\x00\x01binary")
        await bad.wait_until(lambda: any(r.flash for r in bad.renders[start:]), what="binary")
        assert bad.connected
        assert cluster.table(table.code)["version"] == version

        # a stranger's cookie is a spectator's: its moves are not its to make
        stranger = Phone(
            "stranger", table.code, ("forged-token-0123456789abcdef",), auto_reconnect=False
        )
        await stranger.connect(a)
        answer = await stranger.move(actor, version, uuid.uuid4().hex, {"kind": "pass"})
        assert answer != "ack"
        await stranger.close()
        # a page from another site may not open the table's socket, nor may anyone
        # open a table that does not exist
        intruder = Phone("intruder", table.code, (table.tokens[actor],))
        with pytest.raises(HandshakeRefused) as refused:
            await intruder.connect(a, origin="http://evil.example")
        assert refused.value.status == 403
        nowhere = Phone("nowhere", "QQQQQQ", (table.tokens[actor],))
        with pytest.raises(HandshakeRefused):
            await nowhere.connect(b)
        assert cluster.table(table.code)["version"] == version
        await legit_move_reaches(play, phones)
        play.check()
    finally:
        await close_all(phones)


async def test_a_replayed_client_action_id_applies_nothing(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    play = Play(cluster, table, phones, seed=24)
    try:
        await play.moves(3)
        old = cluster.actions(table.code)[-1]
        old_fields = fields_of(old["action"])
        count = len(cluster.actions(table.code))
        # replayed as it was (its old version), on the current version, and by another
        # seat's phone whose turn it is — through both processes
        actor = play.game.actor
        # (the last is refused: its answer is the render with the refusal, not one the
        # table's broadcast of an earlier replay may bring first)
        replays = [
            (phones[old["seat"]], old["seat"], old["version"] - 1, False),
            (phones[old["seat"]], old["seat"], play.version, False),
            (phones[actor], actor, play.version, True),
        ]
        for phone, seat, version, refused in replays:
            start = len(phone.renders)

            def answered(p=phone, s=start, refused=refused):
                return any(r.flash or not refused for r in p.renders[s:])

            await phone.act(seat, version, old["client_action_id"], **old_fields)
            await phone.wait_until(answered, what="answer")
            assert phone.version == play.version
            flashes = [r.flash for r in phone.renders[start:] if r.flash]
            assert len(flashes) == refused, flashes
            assert all("No se ha entendido esa petición." in f for f in flashes), flashes
        assert len(cluster.actions(table.code)) == count
        assert cluster.table(table.code)["version"] == play.version
        await legit_move_reaches(play, phones)
        play.check()
    finally:
        await close_all(phones)


def test_http_posts_from_a_foreign_site_are_refused(cluster):
    """The plain form path: a cross-site POST (foreign Origin) is refused by CSRF."""
    a, _b = cluster.servers
    table = cluster.new_table(server=a)
    before = cluster.table(table.code)["version"]
    seat = cluster.table(table.code)["state"]["turn"]
    browser = table.browsers[seat]
    form = {"seat": str(seat), "version": str(before), "action_id": uuid.uuid4().hex}
    form["kind"] = "pass"
    status, _url, _body = browser.post(
        f"/es/t/{table.code}/act/", form, headers={"Origin": "http://evil.example"}
    )
    assert status == 403
    stranger = Browser(a.base)
    stranger.get("/es/play/")
    status, _url, _body = stranger.post(f"/es/t/{table.code}/act/", form)
    assert status == 409  # not its seat
    assert cluster.table(table.code)["version"] == before


async def test_hundreds_of_phones_leaving_at_once_all_leave_the_table_group(cluster):
    """A process restarting, a venue's Wi-Fi dropping: 300 sockets close together. The
    process listens to the table's channel once for all its phones, and stops once the
    last has gone (else it would be sent every move of the table); none is refused for
    want of a Redis connection."""
    import redis

    a, _b = cluster.servers
    table = cluster.new_table(server=a)
    before = a.log_tail(10**7).count("Too many connections")

    arriving = asyncio.Semaphore(50)  # phones come in waves; they leave all at once

    async def watch():
        async with arriving:
            ws = await WebSocket.connect(
                a.port, f"/ws/table/{table.code}/?lang=es", {"Origin": a.base}, timeout=30
            )
            assert version_of(await asyncio.wait_for(ws.recv(), 30)) == 1
        return ws

    sockets = await asyncio.gather(*(watch() for _ in range(300)))
    channel = f"asgi__group__table-{table.code}"
    client = redis.Redis.from_url(cluster.redis_url)
    try:
        assert client.pubsub_numsub(channel) == [(channel.encode(), 1)]
        await asyncio.gather(*(ws.close() for ws in sockets))
        deadline = time.monotonic() + 15
        while client.pubsub_numsub(channel)[0][1] and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert client.pubsub_numsub(channel) == [(channel.encode(), 0)]
        assert a.log_tail(10**7).count("Too many connections") == before
    finally:
        client.close()
