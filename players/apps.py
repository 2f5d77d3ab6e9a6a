from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from players import throttle

        user_login_failed.connect(throttle.failed, dispatch_uid="players.throttle.failed")
