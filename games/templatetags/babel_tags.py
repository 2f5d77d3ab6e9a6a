"""Numbers, lists and dates formatted by Babel for the active language."""

from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal
from django import template
from django.utils.translation import get_language, to_locale

register = template.Library()


def _locale() -> str:
    return to_locale(get_language() or "es")


@register.filter
def num(value):
    """1234 → '1234' / '1 234' / '1.234' as the active language writes it."""
    return format_decimal(value, locale=_locale())


@register.filter
def as_list(items):
    return format_list([str(item) for item in items], locale=_locale())


@register.filter
def when(value, form="medium"):
    return format_datetime(value, format=form, locale=_locale())
