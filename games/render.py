"""What a phone sees of a table: the context and the live partial.

The page and the WebSocket render the same partial from the same context. The
engine state itself never reaches a template: the game's adapter builds its panel
from `engine.view(state, seat)` for the phone's active seat (None for a spectator).
Reads nothing: it renders a games.live.Snapshot.
"""

import functools
import uuid

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import labels
from games.live import Snapshot
from games.models import Table
from games.registry import get_game

# What differs per render or per table inside a form: its hidden fields (seat, version,
# action id, CSRF token) and its address. Templates write {{ fields }}, {{ act_url }} and,
# for a form with no other hidden field, {{ csrf }}; live_html stamps the real ones in last,
# so that the fragments holding forms are drawn once per process and shared by every table
# and phone (games.triggs.web.play_row, fragment). Escaped text never has "<".
FIELDS = mark_safe("<!--fields-->")
ACT_URL = mark_safe("<!--act-url-->")
CSRF = mark_safe("<!--csrf-->")


def table_context(
    snap: Snapshot, phone_seats: list[int], active: int | None, host: bool, error=None
) -> dict:
    table, seats = snap.table, snap.seats
    game = get_game(table.game)
    web = game.web
    names = {seat.index: seat_name(seat, game) for seat in seats}
    panel = {}
    if table.state is not None:
        own = next((seat for seat in seats if seat.index == active), None)
        pending = own.pending_at(table.version) if own is not None else None
        panel = web.panel(table.mode, table.state, active, names, pending)
    return {
        "table": table_summary(table),
        "panel_template": web.panel_template(table.mode),
        "seats": [
            {
                "index": seat.index,
                "name": names[seat.index],
                "bot": seat.kind == seat.Kind.BOT,
                "taken": seat.taken,
                "mine": seat.index in phone_seats,
                "active": seat.index == active,
            }
            for seat in seats
        ],
        "names": names,
        "active": active,
        "phone_seats": phone_seats,
        "host": host,
        "view": panel.get("view"),
        "panel": panel,
        "log": web.log_lines(table.mode, snap.log_rows, names),
        "digital": table.mode == Table.Mode.DIGITAL,
        "bot_levels": [(level, label) for level, (_player, label) in web.bot_levels.items()],
        "error": labels.refusal(error, game) if error else None,
        "fields": FIELDS,
        "act_url": ACT_URL,
        "csrf": CSRF,
    }


def table_summary(table: Table) -> dict:
    """What the page and the live partial say about the table itself."""
    return {
        "code": table.code,
        "game": table.game,
        "game_name": get_game(table.game).name,
        "mode": table.mode,
        "status": table.status,
        "version": table.version,
        "players": table.players,
        "target": table.config.get("target"),
        "lobby": table.status == Table.Status.LOBBY,
        "closed": table.status == Table.Status.CLOSED,
    }


def seat_name(seat, game=None) -> str:
    """A person's own name; a computer player's, worded in the active language."""
    if seat.kind == seat.Kind.BOT:
        return labels.bot_name(seat.index, seat.bot_level, game)
    return seat.name


def live_html(
    snap: Snapshot, phone_seats, active, host, lang: str, error=None, csrf_token=None, oob=True
) -> str:
    """The live partial (as an out-of-band swap unless `oob` is false). Over a WebSocket
    there is no request: the phone's own CSRF cookie value keeps its plain form POSTs
    valid. Reads no database: a consumer calls it in the event loop."""
    with translation.override(lang):
        context = table_context(snap, phone_seats, active, host, error)
        context["oob"] = oob
        context["csrf_token"] = csrf_token
        # one action id per render: a form sent twice is applied once
        context["action_id"] = action_id = uuid.uuid4().hex
        html = render_to_string("games/_live.html", context)
        act_url = reverse("table_act", kwargs={"code": snap.table.code})  # in `lang`
    csrf = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf_token)
        if csrf_token
        else ""
    )
    fields = format_html(
        '{}<input type="hidden" name="seat" value="{}"><input type="hidden" name="version"'
        ' value="{}"><input type="hidden" name="action_id" value="{}">',
        csrf,
        "" if active is None else active,
        snap.table.version,
        action_id,
    )
    return html.replace(FIELDS, fields).replace(ACT_URL, act_url).replace(CSRF, csrf)


class Frozen(dict):
    """A dict that can key a cache (its values frozen too)."""

    def __hash__(self):
        return hash(frozenset(self.items()))


def frozen(value):
    """`value` as a cache key: lists become tuples and dicts Frozen, all the way down."""
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return Frozen((key, frozen(item)) for key, item in value.items())
    return value


@functools.lru_cache(maxsize=4096)
def fragment(name: str, lang: str, context: frozenset) -> str:
    """A template drawn with only `context` ((name, frozen value) pairs): the status line,
    the other players' sheets, the log and the table tools are each the same for many
    phones and moves ({% fragment %} in games/templatetags/live_tags.py). Forms inside
    take their CSRF token as {{ csrf }}, stamped in per phone by live_html."""
    with translation.override(lang):
        return render_to_string(name, dict(context))
