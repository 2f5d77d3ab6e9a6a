"""The project's templates as they are loaded, done once so that no render pays for it:

- read without their indentation, nor the line ends of lines holding only tags that draw
  nothing (`SILENT`): they are for people reading the files, and a phone would otherwise
  be sent them with every update (a tenth of a region's bytes). Safe because no template
  of ours holds a <pre> or <textarea> whose content it would change, and every
  {% blocktranslate %} is `trimmed`: its message is the same with or without the
  indentation (tests/web/test_catalogues.py extracts from the files as written);
- their words looked up once per language: a {% translate %} of a quoted text (no
  variable, filter or `as`) is kept as it came out for each language, and a
  {% blocktranslate %} keeps its message as built from the tag's text and, for each
  language (and count), as translated; its variables are filled in at every render, as
  Django does. Django builds, trims and looks up the message at every render: 15-30 µs
  a tag, and a phone's update draws a dozen (bench/words.py: drawing 15-23 % cheaper).
"""

import re
from decimal import Decimal

from django.template.base import render_value_in_context
from django.template.loaders import cached, filesystem
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils import translation

WORDED = 512  # messages kept per {% blocktranslate %} with a count (one per count seen)


# A line of tags that draw nothing themselves (conditions, loops, partials' bounds,
# comments): its line end is left out when the template is loaded, as the line before it
# ends with one already (the blank lines a phone was sent, a quarter of a page's lines).
SILENT = frozenset((
    "load", "if", "elif", "else", "endif", "for", "empty", "endfor", "with", "endwith",
    "partialdef", "endpartialdef", "block", "endblock", "extends", "spaceless", "endspaceless",
))  # fmt: skip
TAG = re.compile(r"\{%\s*(\w+)(?:(?!%\}).)*%\}|\{#(?:(?!#\}).)*#\}")


def _silent(line: str) -> bool:
    """Whether `line` holds nothing but tags that draw nothing (and comments)."""
    if not line.startswith(("{%", "{#")):
        return False
    tags = list(TAG.finditer(line))
    return sum(len(tag.group(0)) for tag in tags) == len(line.rstrip()) and all(
        tag.group(1) is None or tag.group(1) in SILENT for tag in tags
    )


class Loader(filesystem.Loader):
    """Reads a template without its indentation, nor the line ends of its lines of tags
    that draw nothing."""

    def get_contents(self, origin):
        lines = [line.lstrip() for line in super().get_contents(origin).split("\n")]
        return "".join(
            line if _silent(line) or number == len(lines) - 1 else line + "\n"
            for number, line in enumerate(lines)
        )


_compiled: dict = {}  # (engine, template name) → compiled template (`compiled`)


def compiled(engine, name: str):
    """Template `name` (or "file#partial") of `engine` (a template backend), compiled:
    kept here until the loaders' caches are reset (as in development when a template
    changes), as finding it through the engine's loaders costs 5 µs, and a phone's update
    draws half a dozen (games.render.draw)."""
    key = (engine, name)
    found = _compiled.get(key)
    if found is None:
        found = _compiled[key] = engine.get_template(name).template
    return found


class CachedLoader(cached.Loader):
    """Django's cached loader, whose templates' words are looked up once per language."""

    def reset(self):
        super().reset()
        _compiled.clear()

    def get_template(self, template_name, skip=None):
        template = super().get_template(template_name, skip)
        if not getattr(template, "worded", False):
            word(template)
            template.worded = True
        return template


def word(template) -> None:
    """Make `template`'s {% translate %} and {% blocktranslate %} nodes keep their words."""
    for node in template.nodelist.get_nodes_by_type(TranslateNode):
        if _constant(node):
            node.__class__, node.worded = WordedTranslateNode, {}
    for node in template.nodelist.get_nodes_by_type(BlockTranslateNode):
        if node.asvar is None and _constant_context(node.message_context):
            node.__class__, node.worded = WordedBlockTranslateNode, {}


def _constant_context(message_context) -> bool:
    """No context, or a quoted one (a FilterExpression resolves a quoted text to a str)."""
    return message_context is None or (
        isinstance(message_context.var, str) and not message_context.filters
    )


def _constant(node: TranslateNode) -> bool:
    expression = node.filter_expression
    return (
        node.asvar is None
        and not node.noop
        and getattr(expression.var, "literal", None) is not None
        and not expression.filters
        and _constant_context(node.message_context)
    )


def language(context) -> str:
    """The active language: as games.render.draw set it on its Context (looking it up
    costs 4 µs, and a region's tags ask a dozen times), else looked up."""
    return getattr(context, "language", None) or translation.get_language()


class in_language:  # noqa: N801 (used as translation.override is)
    """translation.override(lang), switching only if `lang` is not the active language:
    the parts the adapters keep per language are drawn while a screen in that language
    is (games.render.screen), and a switch there and back costs two activations."""

    __slots__ = ("lang", "switch")

    def __init__(self, lang: str):
        self.lang, self.switch = lang, None

    def __enter__(self):
        if translation.get_language() != self.lang:
            self.switch = translation.override(self.lang)
            self.switch.__enter__()

    def __exit__(self, *exc):
        if self.switch is not None:
            self.switch.__exit__(*exc)


class WordedTranslateNode(TranslateNode):
    """{% translate "…" %}: what Django's node renders, kept per language (and escaping)."""

    def render(self, context):
        lang = language(context)
        key = (lang, context.autoescape)
        value = self.worded.get(key)
        if value is None:  # looked up in the language it is kept for
            with in_language(lang):
                value = self.worded[key] = super().render(context)
        return value


class WordedBlockTranslateNode(BlockTranslateNode):
    """{% blocktranslate %} (not `as`, its context quoted), its message built once and
    translated once per language and count; the rest as Django's BlockTranslateNode.render."""

    def render(self, context, nested=False):
        if nested:  # Django's fallback when a translation does not fit its variables
            return super().render(context, nested)
        if not hasattr(self, "built"):
            singular, names = self.render_token_list(self.singular)
            plural, plural_names = (
                self.render_token_list(self.plural) if self.plural else (None, [])
            )
            message_context = self.message_context.var if self.message_context else None
            names = tuple(dict.fromkeys(names + plural_names))  # Django fills each twice
            self.built = (singular, plural, names, message_context)
        singular, plural, names, message_context = self.built
        values = {name: value.resolve(context) for name, value in self.extra_context.items()}
        lang = language(context)
        if plural is not None and self.countervar and self.counter:
            count = self.counter.resolve(context)
            if not isinstance(count, Decimal | float | int):
                return super().render(context)  # Django's error
            key = (lang, count)
            message = self.worded.get(key)
            if message is None:  # looked up in the language it is kept for
                with in_language(lang):
                    if message_context:
                        message = translation.npgettext(message_context, singular, plural, count)
                    else:
                        message = translation.ngettext(singular, plural, count)
                if isinstance(count, int) and len(self.worded) < WORDED:
                    self.worded[key] = message  # a float's or Decimal's form: each time
            values[self.countervar] = count
        else:
            message = self.worded.get(lang)
            if message is None:  # looked up in the language it is kept for
                with in_language(lang):
                    message = self.worded[lang] = (
                        translation.pgettext(message_context, singular)
                        if message_context
                        else translation.gettext(singular)
                    )
        data = {name: self.fill(name, values, context) for name in names}
        try:
            return message % data
        except (KeyError, ValueError):
            return super().render(context)

    @staticmethod
    def fill(name, values, context):
        """A variable's value, escaped: the tag's own (`with`, the count) or the context's."""
        if name in values:
            return render_value_in_context(values[name], context)
        if name in context:
            return render_value_in_context(context[name], context)
        invalid = context.template.engine.string_if_invalid
        return render_value_in_context(invalid % name if "%s" in invalid else invalid, context)
