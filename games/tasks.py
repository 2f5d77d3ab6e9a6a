"""The jobs of the task queue (companion.queue): a table's deadlines, the review after a
game, and the retry of a job whose worker died (Procrastinate finds this module by its
name)."""

import logging

from asgiref.sync import sync_to_async
from procrastinate import RetryStrategy
from procrastinate.contrib.django import app

from games import deadlines
from games import review as reviews

log = logging.getLogger(__name__)
STALLED_AFTER = 8  # seconds without a worker's heartbeat (every 2 s) before its jobs run again


@app.task(name="games.deadline", queue="deadlines", retry=RetryStrategy(max_attempts=3, wait=1))
async def deadline(kind: str, table_id: int, version: int, seat: int | None = None) -> bool:
    """A table's deadline fell due (games.deadlines): done once, or nothing if the table
    moved on since `version`."""
    return await deadlines.fall_due(kind, table_id, version, seat)


@app.task(name="games.review", queue="reviews", retry=RetryStrategy(max_attempts=2, wait=5))
async def review(review_id: int) -> None:
    """The review after a game (games.review.compute), on a thread of its own: its searches
    wait for games.thinking's pool, never on the worker's event loop."""
    await sync_to_async(reviews.compute, thread_sensitive=False)(review_id)


@app.periodic(cron="* * * * * */5")
@app.task(name="games.retry_stalled", queue="deadlines", queueing_lock="retry_stalled")
async def retry_stalled(timestamp: int) -> None:
    """The jobs of a worker that stopped beating (killed, its machine gone) run again on
    another: a deadline is done once whatever runs it twice (games.deadlines)."""
    manager = app.job_manager
    for job in await manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER):
        log.warning("job %s of a stalled worker runs again", job.id)
        await manager.retry_job(job)
