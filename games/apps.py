from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # After each committed change: tell the phones first, then schedule what the
        # table now waits for (a computer player's move, its clock, …).
        from games import deadlines, live, services

        services.changed.connect(live.on_change, dispatch_uid="live")
        services.changed.connect(deadlines.on_change, dispatch_uid="deadlines")
