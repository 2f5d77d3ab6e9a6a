"""{% rule_link %}: a link to a rule, named in the reader's language; |items: lines as list
items; {% game_stylesheet %}: the link to a game's own style sheet."""

import functools
import html

from django import template
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.registry import get_game

register = template.Library()


@register.simple_tag
def rule_link(game: str, rule: str):
    """A link to `rule` on `game`'s rules page, its name as the text (the id stays in the
    anchor, and shows as the link's title)."""
    return _rule_link(game, rule, translation.get_language())


@functools.lru_cache(maxsize=1024)
def _rule_link(game: str, rule: str, lang: str) -> str:
    """Cached per process and language: a table's regions show these in every render."""
    found = get_game(game)
    return format_html(
        '<a class="rule-link" href="{}" title="{}">{}</a>',
        found.rule_url(rule),
        rule,
        found.rule_name(rule),
    )


@register.filter
def items(lines) -> str:
    """Each line (escaped, as Django escapes) as a list item: the log, drawn for every
    phone after every move, without a loop of template nodes or a lazy-aware call per line."""
    return mark_safe("".join(f"<li>{html.escape(str(line))}</li>" for line in lines))


@register.simple_tag
def game_stylesheet(game: str, rules: bool = False, centre: bool = False) -> str:
    """The game's own style sheet (GameWeb.stylesheet), for a page that shows the game,
    and for its rules pages (`rules`) or its table-centre screen (`centre`) what only they
    draw (GameWeb.rules_stylesheet, GameWeb.centre_stylesheet)."""
    web = get_game(game).web
    paths = [
        web.stylesheet,
        web.rules_stylesheet if rules else "",
        web.centre_stylesheet if centre else "",
    ]
    return format_html_join(
        "", '<link rel="stylesheet" href="{}" data-game-css>', ((static(p),) for p in paths if p)
    )


@register.simple_tag
def game_script(game: str) -> str:
    """The game's own script for a live table (GameWeb.script), after static/js/table.js."""
    path = get_game(game).web.script
    return format_html('<script src="{}" defer></script>', static(path)) if path else ""
