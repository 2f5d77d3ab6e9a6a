"""Sending a notification to one browser through its push service (Web Push with VAPID,
encrypted aes128gcm by pywebpush), off the thread that made the change.

Everything sent goes through `enqueue(subscription_id, payload)`: a job of the task queue
(companion.queue, notify.tasks) that runs `deliver` at once on a worker. `deliver` reads
the subscription again, skips
a player who is looking at the table by now (games.presence), and deletes a subscription
its push service says is gone (404, 410)."""

import json
import logging
import time

import requests
from django.conf import settings
from django.db import DatabaseError
from pywebpush import WebPushException, webpush

from games import presence
from notify import services, vapid
from notify.models import PushSubscription

log = logging.getLogger(__name__)
TTL = 6 * 3600  # seconds a push service keeps a message for a browser that is offline
GONE = (404, 410)  # the push service no longer knows the subscription


def enqueue(subscription_id: int, payload: dict) -> None:
    """`deliver` it on a worker of the task queue, now."""
    from companion import queue
    from notify import tasks

    queue.defer(tasks.deliver, time.time(), subscription_id=subscription_id, payload=payload)


def deliver(subscription_id: int, payload: dict) -> str:
    """Send `payload` ({"title", "body", "url", "tag"}, in the subscriber's language; with
    "unless_here": [table code, seat] to skip it while that seat's phone looks at the
    table) to one subscription. What happened: "sent", "here", "gone", "failed" or
    "missing"."""
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return "missing"
    unless = payload.get("unless_here")
    if unless and here(*unless):
        return "here"
    data = {key: payload[key] for key in ("title", "body", "url", "tag") if key in payload}
    try:
        webpush(
            subscription.info(),
            json.dumps(data, ensure_ascii=False),
            vapid_private_key=vapid.key(),
            vapid_claims=vapid.claims(),
            ttl=TTL,
            timeout=10,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            record(services.forget_subscription, subscription_id)
            return "gone"
        log.warning("push to subscription %s failed: %s", subscription_id, status or error)
        return "failed"
    except requests.RequestException as error:
        log.warning("push to subscription %s failed: %r", subscription_id, error)
        return "failed"
    record(services.delivered, subscription_id)
    return "sent"


def record(write, subscription_id: int, attempts: int = 5) -> None:
    """Note what the push service answered. The push has gone by now, so a failing write
    (a database busy for a moment) is tried again here and then logged, never raised: a
    job that failed would be run again and push a second time."""
    for attempt in range(attempts):
        try:
            write(subscription_id)
            return
        except DatabaseError as error:
            if attempt == attempts - 1:
                log.warning(
                    "subscription %s: %s not recorded: %s", subscription_id, write.__name__, error
                )
                return
            time.sleep(0.1 * 2**attempt)


def here(code: str, seat: int) -> bool:
    """Whether a phone holding `seat` shows the table now (games.presence: "here"). With
    Redis every process's notes, read with a plain client (this is no event loop)."""
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        try:
            values = client.hgetall(presence.RedisNotes.key(code)).values()
        except redis.RedisError:
            return False
        finally:
            client.close()
        notes = []
        for value in values:
            try:
                held, state, at = value.decode().split("|")
                notes.append((tuple(int(s) for s in held.split(",") if s), state, float(at)))
            except ValueError:
                continue
    else:
        for _attempt in range(3):  # the event loop may be changing the dict meanwhile
            try:
                notes = list(presence.NOTES.tables.get(code, {}).values())
                break
            except RuntimeError:
                continue
        else:
            return False
    return presence.best(notes, time.time()).get(seat) == presence.HERE
