"""Triggs as a Django app: so that its templates, static files and template tags live in
its own folder (the engine modules beside them stay free of Django)."""

from django.apps import AppConfig


class TriggsConfig(AppConfig):
    name = "games.triggs"
    label = "triggs"
    verbose_name = "Triggs"
