"""The notifications' job of the task queue (companion.queue): one push to one browser."""

from procrastinate import RetryStrategy
from procrastinate.contrib.django import app

from notify import delivery


@app.task(name="notify.deliver", queue="notify", retry=RetryStrategy(max_attempts=3, wait=1))
def deliver(subscription_id: int, payload: dict) -> str:
    """Send `payload` to the subscription (notify.delivery.deliver): what happened. Tried
    again only on an error before the send: nothing after it raises (one push, not two)."""
    return delivery.deliver(subscription_id, payload)
