"""The project's ASGI application as bench/load.py serves it: companion.asgi's, with the
garbage collector's full collections counted and timed in the server process (each one
pauses every table of the process). `GET /bench/gc/` answers, as JSON, the pause of each
one so far, in ms. Served only by the bench, never by the site.
"""

import gc
import json
import time

from companion.asgi import application as project

PATH = "/bench/gc/"
_pauses: list[float] = []  # ms, one per full collection, in order
_started: list[float] = []


def _timed(phase: str, info: dict) -> None:
    if info["generation"] != 2:
        return
    if phase == "start":
        _started[:] = [time.perf_counter()]
    elif _started:
        _pauses.append(round((time.perf_counter() - _started[0]) * 1000, 2))


gc.callbacks.append(_timed)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == PATH:
        await receive()
        body = json.dumps(_pauses).encode()
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await project(scope, receive, send)
