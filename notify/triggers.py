"""Who is told what after a change of a table (games.services.changed, after commit):

- "turn": at a digital table, the person whose turn it just became;
- "ended": every person at the table, once, when the game (or match) ends;
- "seated": the host (seat 0's player) when someone sits at their table in the lobby;
- "correction": at a companion table, whoever may confirm the correction waiting.

Only players who subscribed a browser and want that kind, outside their quiet hours; a
seat whose phone shows the table when it is sent ("here", games.presence) is not told:
that check is made by notify.delivery.deliver, off this thread. What is worked out here
reads the database only (the seats, their players' settings and subscriptions), in the
thread that made the change, after its commit; the sending is enqueued. Each event is
told once: a key in Django's cache remembers it (a table's end, a seat's claim, a
correction)."""

import hashlib
import json
import logging

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import Seat, Table
from games.registry import get_game
from notify import delivery
from notify.models import NotificationPrefs, PushSubscription

log = logging.getLogger(__name__)
REMEMBERED = 7 * 24 * 3600  # seconds an event is remembered as told


def on_change(sender, change, **kwargs) -> None:
    """games.services.changed: tell whoever should be told (see the module)."""
    snap = change.snap
    seats = (
        list(snap.seats)
        if snap is not None
        else list(Seat.objects.filter(table_id=change.table_id))
    )
    players = {seat.player_id for seat in seats if seat.player_id}
    if not players or not NotificationPrefs.objects.filter(player_id__in=players).exists():
        return  # nobody at the table has asked for anything
    table = Table.objects.filter(pk=change.table_id).first()
    if table is None or table.version != change.version:
        return  # a newer change follows, and is told in its turn
    last = snap.log_rows[0] if snap is not None and snap.log_rows else None
    for kind, seat, words in events(table, seats, last):
        tell(table, seat, kind, words)


def events(table: Table, seats, last) -> list[tuple[str, Seat, dict]]:
    """(kind, seat to tell, what the message names) of this change."""
    people = {s.index: s for s in seats if s.taken and s.kind == Seat.Kind.HUMAN and s.player_id}
    if not people:
        return []
    game = get_game(table.game)
    out = []
    if table.status == Table.Status.LOBBY:
        host = people.get(0)
        for seat in people.values():
            claim = f"notify:seated:{table.pk}:{seat.index}:{seat.token_hash[:16]}"
            if (
                host
                and seat.index != 0
                and seat.player_id != host.player_id
                and cache.add(claim, 1, REMEMBERED)
            ):
                out.append(("seated", host, {"name": seat.name}))
        return out
    if not table.state:
        return out
    engine = game.engine(table.mode)
    over_key = f"notify:ended:{table.pk}"
    if engine.is_over(table.state):
        if cache.add(over_key, 1, REMEMBERED):
            out += [("ended", seat, {}) for seat in people.values()]
        return out
    cache.delete(over_key)  # a rematch: its end is told again
    if game.hidden_hands(table.mode):
        mover = last["seat"] if last and last.get("version") == table.version else None
        for index in engine.to_act(table.state):
            seat = people.get(index)
            if seat is not None and index != mover and not seat.stand_in:
                out.append(("turn", seat, {}))
    else:
        pending = table.state.get("correction")
        if pending:
            digest = hashlib.sha1(json.dumps(pending, sort_keys=True).encode()).hexdigest()[:16]
            proposer = next((s.name for s in seats if s.index == pending.get("by")), "")
            for seat in people.values():
                answers = engine.legal_actions(table.state, seat.index)
                key = f"notify:correction:{table.pk}:{seat.index}:{digest}"
                if {"type": "confirm"} in answers and cache.add(key, 1, REMEMBERED):
                    out.append(("correction", seat, {"name": proposer}))
    return out


def tell(table: Table, seat: Seat, kind: str, words: dict) -> int:
    """Enqueue the message of `kind` to each browser of the seat's player, if they want
    it now; how many were enqueued."""
    prefs = NotificationPrefs.objects.filter(player_id=seat.player_id).first()
    if prefs is None or not prefs.wants(kind) or prefs.quiet(timezone.now()):
        return 0
    sent = 0
    for subscription in PushSubscription.objects.filter(player_id=seat.player_id):
        payload = message(table, kind, words, subscription.language)
        payload["unless_here"] = [table.code, seat.index]
        delivery.enqueue(subscription.pk, payload)
        sent += 1
    return sent


def message(table: Table, kind: str, words: dict, language: str) -> dict:
    """The notification's title, body, link and tag, in `language`."""
    game = get_game(table.game).name
    with translation.override(language):
        code = table.code
        if kind == "turn":
            title = _("Your turn")
            body = _("%(game)s at table %(code)s: it is your turn.") % {"game": game, "code": code}
        elif kind == "ended":
            title = _("Game over")
            body = _("%(game)s at table %(code)s has ended.") % {"game": game, "code": code}
        elif kind == "seated":
            title = _("Someone sat at your table")
            body = _("%(name)s sat at table %(code)s.") % {"name": words["name"], "code": code}
        else:
            title = _("A correction waits for you")
            body = _(
                "%(name)s proposed a correction at table %(code)s: confirm it or turn it down."
            ) % {"name": words["name"], "code": code}
        url = reverse("table", kwargs={"code": code})
    return {"title": title, "body": body, "url": url, "tag": f"{kind}-{code}"}
