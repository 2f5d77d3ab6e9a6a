"""TriumfDrez as a Django app: its templates, static files and template tags live in its
own folder. Its engines stay pure Python: nothing imports Django but the web adapter,
this module and the template tags."""

from django.apps import AppConfig


class TriumfDrezConfig(AppConfig):
    name = "games.triumfdrez"
    label = "triumfdrez"
    verbose_name = "TriumfDrez"
