from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")
    default_auto_field = "django.db.models.BigAutoField"
