"""{% fragment %}: the parts of a live update that phones and moves share, drawn once."""

from django import template
from django.utils import translation
from django.utils.safestring import mark_safe

from games import render

register = template.Library()


@register.simple_tag
def fragment(name: str, **context):
    """Include `name` with only these variables, drawn once per process for each language
    and content (games.render.fragment)."""
    key = frozenset((k, render.frozen(v)) for k, v in context.items())
    return mark_safe(render.fragment(name, translation.get_language(), key))  # escaped there
