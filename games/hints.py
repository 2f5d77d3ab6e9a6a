"""Hints: a seated player at a digital table whose host allows them asks "What would the
computer play?", and is shown the choice of the game's hint player (GameWeb.hint_player,
its strongest level) from that seat's own view, on that seat's phones only.

The path: `services.ask_hint` checks the question in the table's transaction (hints
allowed, the phone's seat, in play, its turn, the version it shows) and marks the seat as
being given a hint at that version, so that asking twice thinks once; the player thinks in
the pool (games.thinking), never on a server's event loop nor in its interpreter;
`services.give_hint` keeps the action on the seat, counts it, and tells the table's phones
(without a new version, as a first step of a two-step move is). Each phone renders its
own seat's context (games.context): the hint is in it only for the seat it was given to,
at the version it was for. The table's phones ask over the WebSocket (games.consumers);
without JavaScript the same form is posted (games.views.tables.table_hint).
"""

import asyncio
import logging
import random

from asgiref.sync import sync_to_async
from django import forms

from games import fields, services, thinking
from games.registry import get_game

log = logging.getLogger(__name__)
_answering: set[asyncio.Task] = set()  # the answers under way, kept until done


class HintForm(forms.Form):
    """A phone's question: its seat and the version it shows."""

    seat = forms.IntegerField(min_value=0, max_value=fields.MAX_SEAT)
    version = forms.IntegerField(min_value=0, max_value=fields.MAX_VERSION)


def rng(code: str, version: int, seat: int) -> random.Random:
    """The hint player's randomness: from the table, its version and the seat, as the
    computer players' (games.autoplay), so the same question gets the same answer."""
    return random.Random(f"{code}:{version}:{seat}")


def think(asked: services.HintAsked, seat: int) -> dict:
    """The hint player's choice for `seat` (in the calling thread: tests, and the pool's
    own processes)."""
    web = get_game(asked.game).web
    return web.hint_player(
        asked.view, asked.legal, rng(asked.code, asked.version, seat), **web.hint_budget
    )


async def answer(table_id: int, seat: int, asked: services.HintAsked) -> bool:
    """Think over a question `services.ask_hint` let through, in the pool, and give the
    seat its hint; False if the table moved on meanwhile or the thinking failed (the seat
    may then ask again)."""
    web = get_game(asked.game).web
    try:
        action = await thinking.arun(
            web.hint_player,
            asked.view,
            asked.legal,
            rng(asked.code, asked.version, seat),
            **web.hint_budget,
        )
    except Exception:
        log.exception("no hint for %s seat %s at version %s", asked.code, seat, asked.version)
        action = None
    return await sync_to_async(services.give_hint)(table_id, seat, asked.version, action)


async def ask(table, seat: int, version: int, holder) -> bool:
    """A seat's question, answered (awaited): refused (services.Refused) as `ask_hint`
    says; False when a hint was given or asked for at this version already (asking twice
    thinks once)."""
    asked = await sync_to_async(services.ask_hint)(table, seat, version, holder)
    if asked.known:
        return False
    # a request given up (the phone went) does not stop the answer its seat waits for
    return await asyncio.shield(answer_later(table.pk, seat, asked))


def answer_later(table_id: int, seat: int, asked: services.HintAsked) -> asyncio.Task:
    """`answer`, under way on the running event loop while the socket that asked goes on
    (its phones are sent the hint when it is given, even if that socket has closed)."""
    task = asyncio.ensure_future(answer(table_id, seat, asked))
    _answering.add(task)
    task.add_done_callback(_answering.discard)
    return task
