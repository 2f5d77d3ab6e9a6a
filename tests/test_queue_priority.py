"""A task queue worker process of its own lowers its priority at its first job
(companion.queue.behind_people); the in-process worker, in the server's process, does not.
tests/services/test_online.py sees it on real worker processes."""

import asyncio

from django.conf import settings

from companion import queue


def run_job(monkeypatch, in_process: bool) -> tuple[list[int], list[str]]:
    lowered: list[int] = []
    monkeypatch.setattr(queue, "in_process", lambda: in_process)
    monkeypatch.setattr(queue.os, "nice", lambda n: lowered.append(n) or n)
    queue.lower_priority.cache_clear()
    ran: list[str] = []

    async def job():
        ran.append("job")
        return "done"

    for _ in range(2):
        assert asyncio.run(queue.behind_people(job, None, None)) == "done"
    queue.lower_priority.cache_clear()  # this test process's priority was not lowered
    return lowered, ran


def test_a_worker_process_lowers_its_priority_once_and_runs_the_job(monkeypatch):
    lowered, ran = run_job(monkeypatch, in_process=False)
    assert lowered == [settings.WORKER_NICE] and settings.WORKER_NICE > 0
    assert ran == ["job", "job"]


def test_the_in_process_worker_leaves_the_servers_priority(monkeypatch):
    lowered, ran = run_job(monkeypatch, in_process=True)
    assert lowered == [] and ran == ["job", "job"]


def test_every_worker_runs_its_jobs_through_it():
    from procrastinate.contrib.django import app

    assert app.worker_defaults["worker_middleware"] == [queue.behind_people]
