"""TEMPORARY: until the games' HTML builders are templates."""

from django.utils.translation import override as in_language  # noqa: F401
