from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # After each committed change: tell the phones first, then let a bot move.
        from games import autoplay, live, services

        services.changed.connect(live.on_change, dispatch_uid="live")
        services.changed.connect(autoplay.on_change, dispatch_uid="autoplay")
