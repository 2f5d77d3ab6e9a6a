"""Numbers, lists and dates formatted by Babel for the active language."""

from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from django import template
from django.utils.translation import get_language, to_locale
from django.utils.translation import gettext_lazy as _

register = template.Library()


def _locale() -> str:
    return to_locale(get_language() or "es")


@register.filter
def num(value):
    """1234 → '1234' / '1 234' / '1.234' as the active language writes it."""
    return format_decimal(value, locale=_locale())


def mean(total, count, signed: bool = False) -> str:
    """total / count to one decimal ('7', '1,5'), with its sign if `signed` ('+1', '-0,5')."""
    pattern = "+#,##0.#;-#,##0.#" if signed else "#,##0.#"
    return format_decimal(total / count, format=pattern, locale=_locale())


PART_OF = _("%(part)s of %(whole)s (%(share)s)")


def part_of(part, whole) -> str:
    """'2 of 3 (67 %)' as the active language writes it; whole > 0."""
    share = format_percent(part / whole, locale=_locale())
    return PART_OF % {"part": num(part), "whole": num(whole), "share": share}


@register.filter
def as_list(items):
    return format_list([str(item) for item in items], locale=_locale())


@register.filter
def when(value, form="medium"):
    return format_datetime(value, format=form, locale=_locale())
