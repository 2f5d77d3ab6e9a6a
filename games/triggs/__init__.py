"""Triggs rules engine: pure standard-library Python (no Django). The surface is in engine.py."""
