from django.contrib import admin

from notify.models import NotificationPrefs, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("player", "language", "created", "last_success")
    search_fields = ("player__name", "player__user__username", "endpoint")
    list_select_related = ("player",)
    readonly_fields = ("player", "endpoint", "p256dh", "auth", "created", "last_success")


@admin.register(NotificationPrefs)
class NotificationPrefsAdmin(admin.ModelAdmin):
    list_display = ("player", "turn", "ended", "seated", "correction", "time_zone", "digest")
    list_filter = ("digest",)
    search_fields = ("player__name", "player__user__username")
    list_select_related = ("player",)
    autocomplete_fields = ("player",)
