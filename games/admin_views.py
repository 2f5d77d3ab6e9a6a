"""The admin's own pages for a table, besides the list and the change form
(games.admin): its replay, its export, the import of sessions, and the seat buttons.

Each view takes the table's ModelAdmin first, for its permissions, its messages and the
history it logs; games.admin routes them (TableAdmin.get_urls). What they change goes
through games.services as staff (games.services.STAFF), as the admin's actions do.
"""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import labels, replay, services, transfer
from games.models import Table
from games.registry import get_game
from games.services import STAFF, Refused

# -- presentation helpers, shared with games.admin -----------------------------------------


def pretty_json(value) -> str:
    return format_html(
        '<pre class="session-json">{}</pre>',
        json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True),
    )


def when(moment) -> str:
    """A date and time in the active language and the site's time zone."""
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else "—"


def seat_label(index: int | None, name: str = "") -> str:
    if index is None:
        return "—"
    label = gettext("Seat %(n)s") % {"n": index + 1}
    return f"{label} · {name}" if name else label


def describe(table: Table, action, name: str | None) -> str:
    try:
        return str(get_game(table.game).web.describe(table.mode, action, name))
    except Exception:  # a log edited by hand must not break the page that shows it
        return "—"


def admin_url(name: str, *args) -> str:
    return reverse(f"admin:games_table_{name}", args=args)


def download(data: bytes, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_response(table: Table) -> HttpResponse:
    """One session as its JSON document (games.transfer), downloaded."""
    return download(
        transfer.export_bytes(table), transfer.export_filename(table), "application/json"
    )


# -- the views -----------------------------------------------------------------------------


def _table(model_admin, request, object_id) -> Table:
    table = model_admin.get_object(request, object_id)
    if table is None:
        raise Http404(object_id)
    if not model_admin.has_view_permission(request, table):
        raise PermissionDenied
    return table


def _context(model_admin, request, table: Table | None, title: str, **extra) -> dict:
    return {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "original": table,
        "title": title,
        "has_view_permission": True,
        **extra,
    }


def replay_view(model_admin, request, object_id):
    """The session step by step from its seed and log: the state, what each seat and a
    spectator see, and the step where the log stops reproducing the saved state."""
    table = _table(model_admin, request, object_id)
    try:
        wanted = int(request.GET.get("step", ""))
    except ValueError:
        wanted = None
    if wanted is not None:
        wanted = max(wanted, 1)
    log = replay.table_log(table)
    result = replay.replay_table(table, keep=wanted, log=log)
    names = {seat.index: seat.name for seat in table.seats.all()}
    step = result.step
    context = _context(
        model_admin,
        request,
        table,
        gettext("Replay of table %(code)s") % {"code": table.code},
        result=result,
        not_started=table.state is None and not log,
        step=step,
    )
    if step:
        entry = log[step - 1]
        context.update(
            entry=entry,
            entry_seat=seat_label(entry.seat, names.get(entry.seat, "")),
            entry_words=describe(table, entry.action, names.get(entry.seat)),
            entry_json=json.dumps(entry.action, ensure_ascii=False, sort_keys=True),
            state_json=pretty_json(result.state),
            views=[
                (
                    seat_label(seat, names.get(seat, "")) if seat is not None else None,
                    pretty_json(seen),
                )
                for seat, seen in replay.views(table.game, table.mode, result.state, table.players)
            ],
            first=1 if step > 1 else None,
            previous=step - 1 if step > 1 else None,
            next=step + 1 if step < result.steps else None,
            last=result.steps if step < result.steps else None,
        )
    divergence = result.divergence
    if divergence is not None and divergence.step <= len(log):
        refused = log[divergence.step - 1]
        context.update(
            diverged_words=describe(table, refused.action, names.get(refused.seat)),
            diverged_json=json.dumps(refused.action, ensure_ascii=False, sort_keys=True),
        )
    context["steps"] = [
        (entry.version, describe(table, entry.action, names.get(entry.seat)))
        for entry in log[: result.steps]
    ]
    return TemplateResponse(request, "admin/games/table/replay.html", context)


def export_view(model_admin, request, object_id):
    """One table's session as a JSON download; a table not started has none."""
    table = _table(model_admin, request, object_id)
    if table.state is None:
        model_admin.message_user(
            request,
            gettext("This table has not started: there is nothing to export."),
            messages.WARNING,
        )
        return redirect(admin_url("change", table.pk))
    return export_response(table)


def import_view(model_admin, request):
    """Sessions (a JSON document or a zip of them) replayed through the rules engine and
    made new tables, all or none (games.transfer)."""
    if not model_admin.can_import(request):
        raise PermissionDenied
    error = None
    status = 200
    if request.method == "POST":
        try:
            data = transfer.read_upload(request.FILES.get("session"))
            tables = transfer.import_sessions(data)
        except transfer.ImportRejected as refused:
            error, status = refused.message, 400
        else:
            for table in tables:
                model_admin.log_addition(request, table, [{"added": {}}])
            if len(tables) == 1:
                model_admin.message_user(
                    request,
                    gettext(
                        "The session was imported as table %(code)s. Its players can take "
                        "their seats again from the join page."
                    )
                    % {"code": tables[0].code},
                    messages.SUCCESS,
                )
                return redirect(admin_url("change", tables[0].pk))
            model_admin.message_user(
                request,
                ngettext(
                    "%(count)s session imported as table %(codes)s. Its players can "
                    "take their seats again from the join page.",
                    "%(count)s sessions imported as tables %(codes)s. Their players can "
                    "take their seats again from the join page.",
                    len(tables),
                )
                % {"count": len(tables), "codes": ", ".join(t.code for t in tables)},
                messages.SUCCESS,
            )
            return redirect(admin_url("changelist"))
    context = _context(
        model_admin,
        request,
        None,
        gettext("Import a session"),
        error=error,
        max_mb=transfer.MAX_BYTES // (1024 * 1024),
    )
    return TemplateResponse(request, "admin/games/table/import.html", context, status=status)


def free_seat(table: Table, index: int) -> None:
    """As the host's "free the seat": the phone loses it, a player may claim it again."""
    services.free_seat(table, STAFF, index)


def make_bot(table: Table, index: int) -> None:
    """A computer player takes the seat (games.services.seat_bot, as staff): the phone
    that held it loses it."""
    services.seat_bot(table, STAFF, index)


# change → (operation, message, the inline's columns it changes — for the history page)
SEAT_CHANGES = {
    "free": (
        free_seat,
        _("Seat %(n)s of table %(code)s is free."),
        ["held by a phone", "player", "computer level"],
    ),
    "bot": (
        make_bot,
        _("A computer player now holds seat %(n)s of table %(code)s."),
        ["player", "computer level", "held by a phone"],
    ),
}


def seat_view(model_admin, request, object_id, index, change):
    """A seat button of the change form (SeatInline.manage): free the seat, or give it to a
    computer player; POST only."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if not model_admin.has_change_permission(request):
        raise PermissionDenied
    table = _table(model_admin, request, object_id)
    if change not in SEAT_CHANGES:
        raise Http404(change)
    operation, done, fields = SEAT_CHANGES[change]
    try:
        operation(table, index)
    except Refused as refusal:
        message = labels.refusal(refusal, get_game(table.game))["message"]
        model_admin.message_user(request, message, messages.ERROR)
    else:
        changed = {"name": "seat", "object": str(index + 1), "fields": fields}
        model_admin.log_change(request, table, [{"changed": changed}])
        model_admin.message_user(
            request, done % {"n": index + 1, "code": table.code}, messages.SUCCESS
        )
    return redirect(admin_url("change", table.pk))
