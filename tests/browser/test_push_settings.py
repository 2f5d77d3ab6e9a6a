"""The notifications page over a real daphne server, at 360×740 (issue 37): the player
allows notifications, the page subscribes this browser with the site's VAPID key and
posts the subscription, and turning them off deletes it.

Headless Chromium has no push service to subscribe with (pushManager.subscribe fails
without one), so the browser's PushManager is replaced by one that answers as a browser
does (a subscription with an endpoint, a P-256 key and an auth secret, and the key it was
asked to use); everything else, the service worker's registration included, is real."""

import base64
import json
import os
import sqlite3

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.browser.conftest import CONTEXT, PHONE, serve
from tests.browser.games import create_digital, join_seat, version, wait_for_version
from tests.browser.test_accessibility import serious
from tests.push import Browser, PushService

pytestmark = pytest.mark.browser


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    db = tmp_path_factory.mktemp("push") / "push.sqlite3"
    for base in serve(tmp_path_factory, "companion.settings", db=db):
        yield base, db


FAKE_PUSH = """
(function (subscription) {
  var current = null;
  window.__asked_key = null;
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    window.__asked_key = Array.from(new Uint8Array(options.applicationServerKey));
    current = {
      endpoint: subscription.endpoint,
      toJSON: function () { return subscription; },
      unsubscribe: function () { current = null; return Promise.resolve(true); },
    };
    return Promise.resolve(current);
  };
})(%s);
"""


def test_turning_notifications_on_posts_this_browsers_subscription_and_off_deletes_it(
    browser, site, screenshots
):
    base, db = site
    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    endpoint = "https://push.example/send/abc123"
    subscription = {
        "endpoint": endpoint,
        "keys": {"p256dh": b64(public), "auth": b64(os.urandom(16))},
    }
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, permissions=["notifications"], **CONTEXT
    )
    context.add_init_script(FAKE_PUSH % json.dumps(subscription))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        create_digital(page, base, "el", "triggs", 2, {1: ""})  # the phone is a player now
        page.goto(f"{base}/el/me/notifications/")
        status = page.locator("#push-status")
        off_text = page.locator("#push").get_attribute("data-off-text")
        status.filter(has_text=off_text).wait_for()
        page.click("#push-on")
        on_text = page.locator("#push").get_attribute("data-on-text")
        status.filter(has_text=on_text).wait_for()
        key = page.locator("#push").get_attribute("data-key")
        asked = bytes(page.evaluate("window.__asked_key"))
        assert b64(asked) == key  # subscribed with the site's VAPID key
        with sqlite3.connect(db) as connection:
            rows = connection.execute(
                "SELECT endpoint, p256dh, language FROM notify_pushsubscription"
            ).fetchall()
        assert rows == [(endpoint, b64(public), "el")]
        assert page.locator("#push-off").is_visible() and page.locator("#push-on").is_hidden()
        page.click("#push-off")
        status.filter(has_text=off_text).wait_for()
        with sqlite3.connect(db) as connection:
            assert connection.execute(
                "SELECT count(*) FROM notify_pushsubscription"
            ).fetchone() == (0,)
        assert errors == []
        # at 360 px: nothing wider than the phone, and no serious accessibility violation
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=screenshots / "notifications-el-360.png", full_page=True)
        assert serious(page) == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def push_site(tmp_path_factory, chromium_path):
    """The site as served (its queue in process, on SQLite), endpoints over http allowed."""
    yield from serve(tmp_path_factory, "tests.browser.push_settings")


def test_a_turn_based_game_tells_the_phone_that_closed_its_page_that_it_is_its_turn(
    browser, push_site
):
    """Issue 37, end to end: two phones at a turn-based table (a day a move); Boris (in
    Russian) turns notifications on and closes his page; when Ana's move makes it his turn
    (or at once, if he starts), the site's queue sends the push, which reaches his
    browser's push service encrypted for his browser alone, naming the table, in Russian,
    with its address."""
    push = PushService()
    boris_browser = Browser(push.endpoint("boris"))
    ana_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **CONTEXT)
    boris_context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, permissions=["notifications"], **CONTEXT
    )
    boris_context.add_init_script(FAKE_PUSH % json.dumps(boris_browser.json))
    try:
        ana = ana_context.new_page()
        ana.goto(f"{push_site}/es/play/?game=triggs")
        ana.check("#create-table input[name=mode][value=digital]")
        ana.check("#create-table input[name=players][value='2']")
        ana.click("#create-table .online-options summary")  # the online options, folded
        ana.select_option("#create-table select[name=pace]", str(24 * 3600))
        ana.fill("#host-name", "Ana")
        ana.click("#create-table button[type=submit]")
        ana.wait_for_url("**/t/**")
        code = ana.url.split("/t/")[1][:6]
        boris = boris_context.new_page()
        join_seat(boris, push_site, "ru", code, 1, "Boris")
        boris.goto(f"{push_site}/ru/me/notifications/")
        boris.click("#push-on")
        on_text = boris.locator("#push").get_attribute("data-on-text")
        boris.locator("#push-status").filter(has_text=on_text).wait_for()
        boris_context.close()  # his page is closed: no socket, not at the table
        ana.wait_for_selector("#connection[data-live]")
        ana.click("#table-live form[action$='start/'] button")
        ana.wait_for_selector("#table-live[data-stage=play]")
        ana.wait_for_function("() => document.querySelector('#draw-form, .their-turn')")
        if ana.locator("#draw-form button.t-pile").count():  # Ana starts: she draws two
            before = version(ana)
            ana.locator("#draw-form button.t-pile[data-pile='left']").click()
            ana.wait_for_selector("#draw-step")
            ana.locator("#draw-form button[name=second][value='stock']").click()
            wait_for_version(ana, before)
        name, headers, body = push.received.get(timeout=20)
        assert name == "boris" and headers["content-encoding"] == "aes128gcm"
        payload = boris_browser.decrypt(body)  # only his browser's key opens it
        assert payload["title"] == "Ваш ход"
        assert code in payload["body"] and payload["url"] == f"/ru/t/{code}/"
        assert push.received.empty()  # once
    finally:
        ana_context.close()
        boris_context.close()
        push.server.shutdown()
        push.server.server_close()
