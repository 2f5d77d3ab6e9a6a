from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotifyConfig(AppConfig):
    name = "notify"
    verbose_name = _("Notifications")

    def ready(self):
        # after each committed change, once the phones have been told (games.apps)
        from games import services
        from notify import triggers

        services.changed.connect(triggers.on_change, dispatch_uid="notify")
