"""Notifications that reach a closed browser (issue 37): Web Push sent by pywebpush to a
push endpoint served here, on 127.0.0.1, which decrypts what it is sent (aes128gcm, with
the key pair and auth secret made here as a browser makes them); the players' settings,
their quiet hours and kinds; a subscription the push service has forgotten; the forms'
refusals; and the daily e-mail digest."""

import base64
import json
import random
import uuid
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from games import online, services
from games.models import Table
from games.registry import get_game
from notify import delivery, digest, triggers, vapid
from notify import services as notify_services
from notify.models import NotificationPrefs, PushSubscription
from tests.push import Browser, PushService, b64
from tests.tables import play_random, wait_for

# the notifications follow the commit: the test needs real commits
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def push_settings(settings, tmp_path, monkeypatch):
    settings.BOT_DELAY = 0
    settings.PUSH_ALLOW_HTTP = True
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEY_FILE = str(tmp_path / "vapid_private.pem")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    vapid.key.cache_clear()
    yield
    vapid.key.cache_clear()


@pytest.fixture
def push():
    service = PushService()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def sent(monkeypatch):
    """What the triggers enqueue, run here at once: (subscription id, payload, outcome)."""
    done = []

    def inline(subscription_id, payload):
        done.append((subscription_id, payload, delivery.deliver(subscription_id, payload)))

    monkeypatch.setattr(delivery, "enqueue", inline)
    return done


def create(client, mode="digital", lang="es", **extra):
    fields = {"game": "triggs", "mode": mode, "players": "2", "name": "Ana", "first": "0"}
    response = client.post(f"/{lang}/play/", {**fields, **extra})
    return Table.objects.get(code=response["Location"].split("/")[3])


def subscribe(client, browser, lang):
    return client.post(
        f"/{lang}/me/notifications/subscribe/",
        json.dumps(browser.json),
        content_type="application/json",
    )


def two_people(push, mode="digital"):
    """Ana (host, seat 0) and Boris (seat 1, his browser subscribed in Greek)."""
    host, guest = Client(), Client()
    table = create(host, mode)
    guest.post(f"/el/join/{table.code}/", {"seat": "1", "name": "Boris"})
    browser = Browser(push.endpoint("boris"))
    assert subscribe(guest, browser, "el").status_code == 200
    return table, host, guest, browser


def start(table, host):
    host.post(f"/es/t/{table.code}/start/", {"action_id": "start-0001"})
    table.refresh_from_db()


def until_turn_of(table, seat, rng):
    engine = get_game(table.game).engine(table.mode)
    for _ in range(50):
        if engine.to_act(table.state) == [seat]:
            return
        play_random(table, rng)
    raise AssertionError("the turn never came")


def test_your_turn_reaches_the_browser_encrypted_and_in_its_language(push):
    """Through the task queue (here the in-process one of a site on SQLite)."""
    table, host, guest, browser = two_people(push)
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    name, headers, body = push.received.get(timeout=20)  # sent from the queue's worker
    assert name == "boris"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    payload = browser.decrypt(body)
    with translation.override("el"):
        title = translation.gettext("Your turn")
    assert title != "Your turn"  # the Greek catalogue has it
    assert payload["title"] == title
    assert table.code in payload["body"] and payload["url"] == f"/el/t/{table.code}/"
    subscription = PushSubscription.objects.filter(endpoint=browser.endpoint)
    # the job marks it once sent
    wait_for(lambda: subscription.get().last_success is not None, 20, "the delivery's record")
    assert push.received.empty()  # one message


def test_quiet_hours_in_the_players_time_zone_hold_it_back(push, sent):
    table, host, guest, browser = two_people(push)
    now = timezone.now().astimezone(__import__("zoneinfo").ZoneInfo("Europe/Athens"))
    NotificationPrefs.objects.filter(player__name="Boris").update(
        time_zone="Europe/Athens", quiet_start=now.hour, quiet_end=(now.hour + 1) % 24
    )
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    assert sent == []
    NotificationPrefs.objects.filter(player__name="Boris").update(
        quiet_start=(now.hour + 1) % 24, quiet_end=(now.hour + 2) % 24
    )
    until_turn_of(table, 0, random.Random(4))
    until_turn_of(table, 1, random.Random(4))
    assert [outcome for *_, outcome in sent] == ["sent"]


def test_a_kind_switched_off_is_not_sent(push, sent):
    table, host, guest, browser = two_people(push)
    NotificationPrefs.objects.filter(player__name="Boris").update(turn=False)
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    assert sent == []


def test_a_phone_looking_at_the_table_is_not_told(push, sent, monkeypatch):
    table, host, guest, browser = two_people(push)
    monkeypatch.setattr(delivery, "here", lambda code, seat: seat == 1)
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    assert [outcome for *_, outcome in sent] == ["here"]
    assert push.received.empty()


def test_a_subscription_the_push_service_forgot_is_deleted(push, sent):
    table, host, guest, browser = two_people(push)
    push.status["boris"] = 410
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    assert [outcome for *_, outcome in sent] == ["gone"]
    assert not PushSubscription.objects.filter(endpoint=browser.endpoint).exists()


def test_a_database_busy_after_the_send_is_waited_out_and_never_sends_twice(push, monkeypatch):
    """The push has gone when its success is written: a write refused (a busy SQLite) is
    tried again there; one refused every time is logged, and the job still ends well."""
    from django.db import OperationalError

    table, host, guest, browser = two_people(push)
    subscription = PushSubscription.objects.get(endpoint=browser.endpoint)
    payload = {"title": "t", "body": "b", "url": "/", "tag": "x"}
    real, refusals = notify_services.delivered, [OperationalError("database table is locked")] * 2

    def busy(subscription_id):
        if refusals:
            raise refusals.pop()
        real(subscription_id)

    monkeypatch.setattr(notify_services, "delivered", busy)
    assert delivery.deliver(subscription.pk, payload) == "sent"
    subscription.refresh_from_db()
    assert subscription.last_success is not None and refusals == []

    def always(subscription_id):
        raise OperationalError("database table is locked")

    monkeypatch.setattr(notify_services, "delivered", always)
    assert delivery.deliver(subscription.pk, payload) == "sent"
    assert push.received.qsize() == 2  # one push each, none again


def test_the_host_is_told_who_sat_down(push, sent):
    host, guest = Client(), Client()
    table = create(host)
    browser = Browser(push.endpoint("ana"))
    assert subscribe(host, browser, "ru").status_code == 200
    guest.post(f"/el/join/{table.code}/", {"seat": "1", "name": "Boris"})
    assert [outcome for *_, outcome in sent] == ["sent"]
    payload = browser.decrypt(push.received.get(timeout=5)[2])
    with translation.override("ru"):
        assert payload["title"] == translation.gettext("Someone sat at your table")
    assert "Boris" in payload["body"] and table.code in payload["body"]


def test_a_correction_waiting_tells_the_sheets_owner_once(push, sent):
    table, host, guest, browser = two_people(push, mode="companion")
    start(table, host)
    proposal = {"type": "correct", "seat": 1, "value": 5, "crosses": 2}
    services.apply_action(table, 0, proposal, table.version, uuid.uuid4().hex)
    assert [outcome for *_, outcome in sent] == ["sent"]
    payload = browser.decrypt(push.received.get(timeout=5)[2])
    assert "Ana" in payload["body"] and payload["tag"] == f"correction-{table.code}"
    table.refresh_from_db()
    triggers.on_change(None, _change(table))  # told once, not at every change
    assert len(sent) == 1


def _change(table):
    from games import live

    return services.Change(
        table.pk,
        table.code,
        table.version,
        table.mode,
        table.status,
        live.snapshot(table),
        table.open,
        table.game,
    )


def test_the_end_of_a_game_is_told_to_every_subscribed_player_once(push, sent):
    table, host, guest, browser = two_people(push)
    start(table, host)
    rng = random.Random(7)
    while play_random(table, rng):
        pass
    ended = [payload for _id, payload, outcome in sent if payload["tag"].startswith("ended")]
    assert len(ended) == 1
    triggers.on_change(None, _change(table))
    assert len([p for _i, p, _o in sent if p["tag"].startswith("ended")]) == 1


def test_bad_settings_are_refused_in_the_players_language_and_change_nothing(push):
    table, host, guest, browser = two_people(push)
    before = NotificationPrefs.objects.get(player__name="Boris")
    fields = {"turn": "on", "time_zone": "Europe/Athens", "quiet_start": "22"}
    response = guest.post("/fr/me/notifications/", fields)
    assert response.status_code == 400
    with translation.override("fr"):
        refusal = translation.gettext("Give both hours of the quiet time, or neither.")
    assert refusal in response.content.decode().replace("&#x27;", "'")
    for bad in (
        {"time_zone": "Mars/Olympus"},
        {"quiet_start": "25", "quiet_end": "3"},
        {"digest": "on", "email": ""},
    ):
        response = guest.post("/fr/me/notifications/", {"time_zone": "UTC", **bad})
        assert response.status_code == 400
    after = NotificationPrefs.objects.get(player__name="Boris")
    assert (after.time_zone, after.quiet_start, after.digest) == (
        before.time_zone,
        before.quiet_start,
        before.digest,
    )
    good = {"turn": "on", "time_zone": "Europe/Athens", "quiet_start": "22", "quiet_end": "7"}
    assert guest.post("/fr/me/notifications/", good).status_code == 302
    saved = NotificationPrefs.objects.get(player__name="Boris")
    assert (saved.quiet_start, saved.quiet_end, saved.ended, saved.language) == (22, 7, False, "fr")


def test_a_malformed_subscription_is_refused_and_nothing_stored(push, settings):
    table, host, guest, browser = two_people(push)
    PushSubscription.objects.all().delete()
    bad_key = {**browser.json, "keys": {**browser.json["keys"], "p256dh": "short"}}
    for body in (bad_key, {"endpoint": "ftp://x/"}, "not json", {**browser.json, "keys": 3}):
        data = body if isinstance(body, str) else json.dumps(body)
        response = guest.post(
            "/ru/me/notifications/subscribe/", data, content_type="application/json"
        )
        assert response.status_code == 400
        with translation.override("ru"):
            assert response.json()["error"] == translation.gettext(
                "This browser's subscription could not be read: try again."
            )
    settings.PUSH_ALLOW_HTTP = False  # a browser's endpoint is always https
    assert subscribe(guest, browser, "ru").status_code == 400
    assert (
        Client()
        .post(
            "/ru/me/notifications/subscribe/",
            json.dumps(browser.json),
            content_type="application/json",
        )
        .status_code
        == 403
    )  # nobody: no player
    assert not PushSubscription.objects.exists()


def test_unsubscribing_forgets_the_browser(push):
    table, host, guest, browser = two_people(push)
    body = json.dumps({"endpoint": browser.endpoint})
    response = guest.post(
        "/el/me/notifications/unsubscribe/", body, content_type="application/json"
    )
    assert response.status_code == 200
    assert not PushSubscription.objects.exists()


def test_the_settings_page_gives_the_key_and_a_made_key_is_kept(push, settings, tmp_path):
    table, host, guest, browser = two_people(push)
    page = guest.get("/el/me/notifications/").content.decode()
    key = vapid.public_key()
    assert f'data-key="{key}"' in page and len(base64.urlsafe_b64decode(key + "=")) == 65
    vapid.key.cache_clear()
    assert vapid.public_key() == key  # read back from the file
    assert (tmp_path / "vapid_private.pem").read_bytes().startswith(b"-----BEGIN PRIVATE KEY")


def test_the_daily_digest_lists_turns_and_ended_games_in_the_players_language(push, sent):
    table, host, guest, browser = two_people(push)
    start(table, host)
    until_turn_of(table, 1, random.Random(3))
    NotificationPrefs.objects.filter(player__name="Boris").update(
        digest=True, email="boris@example.com", language="ru"
    )
    mail.outbox.clear()
    assert digest.send_all() == 1
    message = mail.outbox[0]
    with translation.override("ru"):
        assert message.subject == translation.gettext("Your games today")
    assert table.code in message.body and message.to == ["boris@example.com"]
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    later = timezone.now() + timedelta(days=2)
    assert digest.send_all(now=later) == 0  # ended, but not in the last day


def test_a_key_pair_from_the_environment_is_used(settings):
    from py_vapid import Vapid

    made = Vapid()
    made.generate_keys()
    raw = made.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    settings.VAPID_PRIVATE_KEY = made.private_pem().decode()  # as `vapid --gen` writes it
    vapid.key.cache_clear()
    assert vapid.public_key() == b64(raw)
    private = made.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.VAPID_PRIVATE_KEY = b64(private)  # or the raw 32 bytes, base64url
    vapid.key.cache_clear()
    assert vapid.public_key() == b64(raw)


def test_a_guests_browsers_follow_it_into_the_account_its_data_and_its_deletion(push):
    password = "tréboles-42-x"
    phone, elsewhere = Client(), Client()
    create(phone)
    fields = {"username": "ana", "password1": password, "password2": password}
    assert phone.post("/es/account/sign-up/", fields).status_code == 302
    create(elsewhere)  # another phone, a guest at first, whose browser subscribes
    browser = Browser(push.endpoint("elsewhere"))
    assert subscribe(elsewhere, browser, "fr").status_code == 200
    sign_in = {"username": "ana", "password": password}
    assert elsewhere.post("/es/account/sign-in/", sign_in).status_code == 302
    subscription = PushSubscription.objects.get()
    assert subscription.player.user.username == "ana"
    assert NotificationPrefs.objects.get().player == subscription.player
    data = json.loads(phone.get("/es/me/data.json").content)
    assert [b["endpoint"] for b in data["notifications"]["browsers"]] == [browser.endpoint]
    assert data["notifications"]["settings"]["kinds"] == ["turn", "ended", "seated", "correction"]
    assert phone.post("/es/me/delete/", {"sure": "on", "password": password}).status_code == 302
    assert not PushSubscription.objects.exists() and not NotificationPrefs.objects.exists()


def test_a_turn_based_game_tells_the_player_who_closed_the_page_that_it_is_their_turn(push):
    """Two people at a turn-based table (a day per move); Boris's page is closed (no
    socket, so not "here"): when Ana's move makes it his turn, the push reaches his
    browser, through the task queue, naming the table, in his language (Russian)."""
    host, guest = Client(), Client()
    table = create(host, pace=str(24 * 3600))
    assert online.turn_based(table.clock)
    guest.post(f"/ru/join/{table.code}/", {"seat": "1", "name": "Boris"})
    browser = Browser(push.endpoint("boris"))
    assert subscribe(guest, browser, "ru").status_code == 200
    start(table, host)
    until_turn_of(table, 1, random.Random(5))
    name, _headers, body = push.received.get(timeout=20)
    assert name == "boris"
    payload = browser.decrypt(body)
    with translation.override("ru"):
        assert payload["title"] == translation.gettext("Your turn")
    assert table.code in payload["body"] and payload["url"] == f"/ru/t/{table.code}/"
