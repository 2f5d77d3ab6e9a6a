from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from players.models import Group, Membership, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "created", "seen")
    search_fields = ("name", "user__username")
    list_select_related = ("user",)
    readonly_fields = ("created", "seen", "tables")
    exclude = ("token_hash",)
    autocomplete_fields = ("user",)

    @admin.display(description=_("tables"))
    def tables(self, player):
        seats = player.seats.select_related("table").order_by("-table__created")[:50]
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            (
                (reverse("admin:games_table_change", args=[seat.table_id]), seat.table.code)
                for seat in seats
            ),
        ) or format_html("—")


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("player",)
    readonly_fields = ("joined",)


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "created")
    search_fields = ("name", "code", "members__name")
    readonly_fields = ("code", "created")
    inlines = (MembershipInline,)
    autocomplete_fields = ("tables",)
