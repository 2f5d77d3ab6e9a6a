"""Triggs: everything of the game in one folder. The rules engines (engine.py, and
companion.py for the score sheet) and the computer players (bots.py) are pure
standard-library Python (and games.engine_errors, the engines' shared error shape); the
web adapter (web/), the Django app (apps.py), its templates, static files and template
tags are the game's Django side."""
