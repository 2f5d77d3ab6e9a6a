"""{% rule_link %}: a link to a rule, named in the reader's language; |items: lines as list
items; {% game_stylesheet %}: the link to a game's own style sheet; {% cached_each %}: a
loop whose every item's HTML is cached by what it shows."""

import functools
import html
import re

from django import template
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games import regions
from games.registry import get_game

register = template.Library()


class CachedEachNode(template.Node):
    def __init__(self, name, var, items, fixed, vary_on, nodelist):
        self.name, self.var, self.items, self.nodelist = name, var, items, nodelist
        self.fixed, self.vary_on = fixed, vary_on  # the key's values without the item, with it

    def render(self, context):
        prefix = (
            self.name,
            translation.get_language(),
            *(str(f.resolve(context)) for f in self.fixed),
        )
        out = []
        with context.push():
            for item in self.items.resolve(context, ignore_failures=True) or ():
                context[self.var] = item
                key = (*prefix, *(str(vary(item, context)) for vary in self.vary_on))
                html = regions.cached(key)
                if html is None:
                    html = self.nodelist.render(context)
                    regions.cache(key, html)
                out.append(html)
        return mark_safe("".join(out))


@register.inclusion_tag("games/_seat_state.html", takes_context=True)
def seat_state(context, index: int) -> dict:
    """At a seat round the table: whether its phone is here (`seat_states`, the same for
    every phone: games.context) and its turn clock, if it is running for that seat."""
    return {
        "state": at(context.get("seat_states"), index),
        "clock": if_seat(context.get("clock"), index),
    }


@register.filter
def at(mapping, key):
    """`mapping[key]`, None if it has none: a seat's entry of `seat_states`."""
    return (mapping or {}).get(key)


@register.filter
def if_seat(clock, seat):
    """The turn clock if it runs for `seat`, else None: what a seat's {% seat_state %}
    shows of it, so that its HTML can be cached by it."""
    return clock if clock and clock["seat"] == seat else None


@register.tag
def cached_each(parser, token):
    """{% cached_each name item in items by item.key [more] %}…{% endcached_each %}: the
    body rendered for each of `items` as `item`, each render cached (games.regions.rendered)
    by `name`, the language and the values after `by`, which must hold all the body shows.
    A long list of small pieces (a hand's cards, a sheet's rows) costs a lookup per piece."""
    bits = token.split_contents()
    if len(bits) < 7 or bits[3] != "in" or bits[5] != "by":
        raise template.TemplateSyntaxError(
            "usage: {% cached_each name item in items by key [key ...] %}"
        )
    nodelist = parser.parse(("endcached_each",))
    parser.delete_first_token()
    var, keys = bits[2], bits[6:]
    mentions = re.compile(rf"(?<![\w.]){re.escape(var)}\b").search
    return CachedEachNode(
        bits[1],
        var,
        parser.compile_filter(bits[4]),
        [parser.compile_filter(bit) for bit in keys if not mentions(bit)],
        [_vary(parser, var, bit) for bit in keys if mentions(bit)],
        nodelist,
    )


def _vary(parser, var: str, bit: str):
    """How to find a value of the key that depends on the item: the item itself, or
    `item.field` of a dict item, straight from it; anything else as the template would.
    (The values that do not name the item are resolved once per loop.)"""
    if bit == var:
        return lambda item, context: item
    field = re.fullmatch(rf"{re.escape(var)}\.(\w+)", bit)
    expression = parser.compile_filter(bit)
    if field:
        name = field.group(1)

        def get(item, context):
            if isinstance(item, dict) and name in item:
                return item[name]
            return expression.resolve(context)

        return get
    return lambda item, context: expression.resolve(context)


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
