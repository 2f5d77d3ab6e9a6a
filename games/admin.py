from django.contrib import admin

from games.models import Action, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "name", "kind", "bot_level", "last_seen")
    readonly_fields = ("last_seen",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "mode", "status", "version", "created", "updated")
    list_filter = ("game", "mode", "status")
    search_fields = ("code", "seats__name")
    readonly_fields = ("version", "created", "updated", "host_token_hash")
    inlines = [SeatInline]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "seat", "created")
    list_select_related = ("table",)
    readonly_fields = ("table", "version", "seat", "action", "client_action_id", "created")
