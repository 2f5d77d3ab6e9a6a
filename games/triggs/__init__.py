"""Triggs rules engine: pure standard-library Python (and games.engine_errors, the engines'
shared error shape); only web.py, the game's web adapter, imports Django. The surface is
in engine.py (and companion.py for the score sheet)."""
