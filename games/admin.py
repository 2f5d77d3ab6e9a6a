"""The staff admin: every table, in either game and mode, is a saved session that staff
can find, read (state, seats, log), replay step by step, export, import and tidy up.

The change form never edits a table. What staff change goes through games.services, as
the host's actions do (staff need no host token): one transaction with the table row
locked, and after commit the phones at the table are sent a refresh. The admin's own
pages (replay, export, import, the seat buttons) are views of games.admin_views.
"""

import io
import json
import zipfile
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth import get_permission_codename
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import QueryDict
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import admin_views, labels, services, transfer
from games.admin_views import admin_url, describe, download, pretty_json, seat_label, when
from games.models import Action, Review, Seat, Table
from games.registry import GAMES, get_game
from games.services import DEFAULT_PURGE_DAYS, MAX_PURGE_DAYS, STAFF, abandoned, purge

# -- staff operations: games.services, as staff --------------------------------------------


def close_table(table: Table) -> bool:
    """Close a table as its host would; False if it was closed already."""
    return services.close_table(table, STAFF)


def archive_table(table: Table) -> bool:
    return services.archive_table(table)


class GameFilter(admin.SimpleListFilter):
    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(slug, game.name) for slug, game in GAMES.items()]

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() else queryset


class TableActionForm(ActionForm):
    # Text, not an IntegerField: a value out of range would make the whole form invalid,
    # and the admin would answer only "no action selected" (for every action). The purge
    # reads the number itself and says what is wrong with it.
    days = forms.CharField(
        label=_("Days without activity (for deleting)"),
        initial=DEFAULT_PURGE_DAYS,
        required=False,
        widget=forms.NumberInput(attrs={"min": 1, "max": MAX_PURGE_DAYS, "style": "width: 5em"}),
    )


def without_nul(query: QueryDict) -> QueryDict:
    """The query string's parameters with every NUL character taken out, and a parameter
    whose name was only NULs dropped: PostgreSQL refuses NUL in text, so a NUL that
    reached a filter or the search would make the list a server error."""
    clean = QueryDict(mutable=True)
    for key, values in query.lists():
        if key := key.replace("\x00", ""):
            clean.setlist(key, [value.replace("\x00", "") for value in values])
    clean._mutable = False
    return clean


class TableChangeList(ChangeList):
    def get_queryset(self, request, exclude_parameters=None):
        # The list never shows the state, the largest column by far.
        return super().get_queryset(request, exclude_parameters).defer("state")


# -- the admin -----------------------------------------------------------------------------


class SeatInline(admin.TabularInline):
    """A table's seats, read-only: the token hashes are neither shown nor editable."""

    model = Seat
    verbose_name = _("seat")
    verbose_name_plural = _("Seats")
    extra = 0
    can_delete = False
    empty_value_display = "—"
    base_fields = (
        "number",
        "name",
        "kind",
        "bot_level",
        "held",
        "last_seen",
        "player_link",
    )
    readonly_fields = (*base_fields, "manage")

    def get_fields(self, request, obj=None):
        if request.user.has_perm("games.change_table"):
            return (*self.base_fields, "manage")
        return self.base_fields

    @admin.display(description=_("player"))
    def player_link(self, seat):
        if seat.player_id is None:
            return "—"
        url = reverse("admin:players_player_change", args=[seat.player_id])
        return format_html('<a href="{}">{}</a>', url, seat.player)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("games.view_table") or request.user.has_perm(
            "games.change_table"
        )

    @admin.display(description=_("seat"))
    def number(self, seat):
        return seat.index + 1

    @admin.display(description=_("held by a phone"), boolean=True)
    def held(self, seat):
        return bool(seat.token_hash)

    @admin.display(description=_("staff actions"))
    def manage(self, seat):
        # Buttons of the change form that post to the seat views (its CSRF token included).
        buttons = []
        if seat.taken:
            buttons.append(("free", _("Free the seat")))
        if seat.kind != Seat.Kind.BOT and get_game(seat.table.game).hidden_hands(seat.table.mode):
            buttons.append(("bot", _("Make it a computer player")))
        return format_html_join(
            " ",
            '<button type="submit" class="button" formmethod="post" formaction="{}">{}</button>',
            (
                (admin_url("seat", seat.table_id, seat.index, change), label)
                for change, label in buttons
            ),
        )


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "game_name",
        "mode",
        "status",
        "players_label",
        "seat_kinds",
        "action_count",
        "created",
        "updated",
    )
    list_filter = (GameFilter, "mode", "status", "archived", "created", "updated")
    search_fields = ("code", "seats__name")
    search_help_text = _("Search by table code or player name.")
    ordering = ("-updated",)
    list_per_page = 50
    action_form = TableActionForm
    actions = ("close_tables", "archive_tables", "purge_tables", "export_tables")
    inlines = (SeatInline,)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "code",
                    "game_name",
                    "mode",
                    "status",
                    "archived",
                    "version",
                    "action_count",
                    "created",
                    "updated",
                )
            },
        ),
        (_("Settings"), {"fields": ("config_json",)}),
        (_("Full state"), {"fields": ("state_json",)}),
        (_("Log"), {"fields": ("log_table",)}),
    )
    empty_value_display = "—"
    readonly_fields = (
        "code",
        "game_name",
        "mode",
        "status",
        "archived",
        "version",
        "action_count",
        "created",
        "updated",
        "config_json",
        "state_json",
        "log_table",
    )

    # -- queries ---------------------------------------------------------------------------

    def get_queryset(self, request):
        actions = (
            Action.objects.filter(table=OuterRef("pk"))
            .order_by()
            .values("table")
            .annotate(n=Count("pk"))
            .values("n")
        )
        # A subquery, not Count("actions"): the search joins seats, which would multiply it.
        return (
            super()
            .get_queryset(request)
            .annotate(n_actions=Coalesce(Subquery(actions, output_field=IntegerField()), Value(0)))
            .prefetch_related("seats")
        )

    def get_changelist(self, request, **kwargs):
        return TableChangeList

    # -- permissions: the form never edits a table ---------------------------------------------

    def has_add_permission(self, request):
        return False  # players create tables; staff import them (can_import)

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request, obj=None):
        # Only the purge deletes, and it spares tables in use.
        return obj is None and super().has_delete_permission(request)

    def can_import(self, request) -> bool:
        return request.user.has_perm(
            f"{self.opts.app_label}.{get_permission_codename('add', self.opts)}"
        )

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    # -- columns and fields ------------------------------------------------------------------

    @admin.display(description=_("game"), ordering="game")
    def game_name(self, table):
        game = GAMES.get(table.game)
        return game.name if game else table.game

    @admin.display(description=_("players"))
    def players_label(self, table):
        game = GAMES.get(table.game)
        # prefetched, in index order; a computer player named as on the phones
        return ", ".join(labels.seat_name(seat, game) or "—" for seat in table.seats.all())

    @admin.display(description=_("humans / computers"))
    def seat_kinds(self, table):
        seats = table.seats.all()
        bots = sum(seat.kind == Seat.Kind.BOT for seat in seats)
        return f"{len(seats) - bots} / {bots}"

    @admin.display(description=_("actions"), ordering="n_actions")
    def action_count(self, table):
        return table.n_actions

    @admin.display(description=_("settings"))
    def config_json(self, table):
        return pretty_json(table.config)

    @admin.display(description=_("state"))
    def state_json(self, table):
        if table.state is None:
            return gettext("Not started.")
        return pretty_json(table.state)

    @admin.display(description=_("actions"))
    def log_table(self, table):
        names = {seat.index: seat.name for seat in table.seats.all()}
        rows = (
            (
                action.version,
                seat_label(action.seat, names.get(action.seat, "")),
                describe(
                    table,
                    action.action,
                    labels.who({"seat": action.seat, "acted_by": action.acted_by}, names),
                ),
                json.dumps(action.action, ensure_ascii=False, sort_keys=True),
                when(action.created),
            )
            for action in table.actions.order_by("version")
        )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            rows,
        )
        if not body:
            return gettext("No actions yet.")
        return format_html(
            '<table class="session-log"><thead><tr><th>{}</th><th>{}</th><th>{}</th>'
            "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
            gettext("version"),
            gettext("seat"),
            gettext("action"),
            "JSON",
            gettext("time"),
            body,
        )

    # -- pages ------------------------------------------------------------------------------

    def changelist_view(self, request, extra_context=None):
        if any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            request.GET = without_nul(request.GET)
        context = {"title": _("Tables"), "module_name": _("tables"), **(extra_context or {})}
        context["can_import"] = self.can_import(request)
        return super().changelist_view(request, context)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["title"] = gettext("Table %(code)s") % {"code": obj.code}
            context["started"] = obj.state is not None
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_urls(self):
        def route(view):
            return self.admin_site.admin_view(partial(view, self))

        return [
            path("import/", route(admin_views.import_view), name="games_table_import"),
            path(
                "<path:object_id>/replay/",
                route(admin_views.replay_view),
                name="games_table_replay",
            ),
            path(
                "<path:object_id>/export/",
                route(admin_views.export_view),
                name="games_table_export",
            ),
            path(
                "<path:object_id>/seats/<int:index>/<slug:change>/",
                route(admin_views.seat_view),
                name="games_table_seat",
            ),
            *super().get_urls(),
        ]

    # -- actions ------------------------------------------------------------------------------

    @admin.action(description=_("Close the selected tables"), permissions=["change"])
    def close_tables(self, request, queryset):
        closed = 0
        for table in queryset:
            if close_table(table):
                self.log_change(request, table, [{"changed": {"fields": ["status"]}}])
                closed += 1
        self.message_user(
            request,
            ngettext("%(count)s table closed.", "%(count)s tables closed.", closed)
            % {"count": closed},
            messages.SUCCESS,
        )

    @admin.action(description=_("Archive the selected finished tables"), permissions=["change"])
    def archive_tables(self, request, queryset):
        archived = 0
        for table in queryset:
            if archive_table(table):
                self.log_change(request, table, [{"changed": {"fields": ["status", "archived"]}}])
                archived += 1
        skipped = len(queryset) - archived
        self.message_user(
            request,
            ngettext("%(count)s table archived.", "%(count)s tables archived.", archived)
            % {"count": archived},
            messages.SUCCESS,
        )
        if skipped:
            self.message_user(
                request,
                ngettext(
                    "%(count)s table was left alone: only finished games not yet archived "
                    "can be archived.",
                    "%(count)s tables were left alone: only finished games not yet archived "
                    "can be archived.",
                    skipped,
                )
                % {"count": skipped},
                messages.WARNING,
            )

    @admin.action(
        description=_("Delete the selected tables if abandoned for the number of days given"),
        permissions=["delete"],
    )
    def purge_tables(self, request, queryset):
        try:
            days = int(request.POST.get("days", ""))
        except ValueError:
            days = 0
        if not 1 <= days <= MAX_PURGE_DAYS:
            self.message_user(
                request,
                gettext("Enter a number of days from 1 to %(max)s.") % {"max": MAX_PURGE_DAYS},
                messages.ERROR,
            )
            return
        doomed = queryset.filter(pk__in=abandoned(days).values("pk"))
        self.log_deletions(request, doomed)
        deleted = purge(doomed)
        kept = len(queryset) - deleted
        self.message_user(
            request,
            ngettext(
                "%(count)s abandoned table deleted.", "%(count)s abandoned tables deleted.", deleted
            )
            % {"count": deleted},
            messages.SUCCESS,
        )
        if kept:
            self.message_user(
                request,
                ngettext(
                    "%(count)s table was kept: it has been active %(within)s, or it is "
                    "finished or archived.",
                    "%(count)s tables were kept: they have been active %(within)s, or they are "
                    "finished or archived.",
                    kept,
                )
                % {
                    "count": kept,
                    "within": ngettext(
                        "in the last %(days)s day", "in the last %(days)s days", days
                    )
                    % {"days": days},
                },
                messages.WARNING,
            )

    @admin.action(description=_("Export the selected sessions"), permissions=["view"])
    def export_tables(self, request, queryset):
        tables = [table for table in queryset.order_by("code") if table.state is not None]
        unstarted = len(queryset) - len(tables)
        if unstarted:
            self.message_user(
                request,
                ngettext(
                    "%(count)s table has not started and was left out of the export.",
                    "%(count)s tables have not started and were left out of the export.",
                    unstarted,
                )
                % {"count": unstarted},
                messages.WARNING,
            )
        if not tables:
            return None
        if len(tables) == 1:
            return admin_views.export_response(tables[0])
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for table in tables:
                archive.writestr(transfer.export_filename(table), transfer.export_bytes(table))
        stamp = timezone.now().strftime("%Y%m%d-%H%M")
        return download(buffer.getvalue(), f"sessions-{stamp}.zip", "application/zip")


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    """The reviews after a game (games.review), read only: their jobs write them."""

    list_display = ("table", "seat", "version", "status", "done", "total", "created")
    list_filter = ("status", "created")
    search_fields = ("table__code",)
    list_select_related = ("table",)
    readonly_fields = (
        "table",
        "seat",
        "version",
        "status",
        "done",
        "total",
        "moments",
        "created",
        "updated",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
