"""What a template reads from its context, found once from its compiled nodes: the
variables it names, each as a path of at most two lookups (`panel.groups`, `seats`).

games.render keys each region of a phone's screen by a digest of the values at these
paths (`fingerprint`; a screen digests each path once for all its regions, `fill`, and
combines each region's from them, `combined`): a region whose digest is that of the
phone's previous screen (in the same language) is not drawn again. `paths` is conservative: a tag it does not know,
a template included by a variable's name, or a tag that takes the whole context make it
answer None (the region is drawn every time). Reading too much only costs a redraw; the
known tags are listed below, and tests/web/test_regions.py checks every region of both
games against a full redraw.
"""

import functools
import pickle

from django.template import Node, NodeList, engines
from django.template.base import (
    FilterExpression,
    TextNode,
    Token,
    TokenType,
    Variable,
    VariableNode,
)
from django.template.defaulttags import (
    CommentNode,
    ForNode,
    IfNode,
    LoadNode,
    SpacelessNode,
    URLNode,
    WithNode,
)
from django.template.library import SimpleNode
from django.template.loader_tags import IncludeNode
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

# Nodes whose context reads are all in the attributes walked below (their filter
# expressions, tokens and child node lists).
KNOWN = (
    TextNode,
    VariableNode,
    TranslateNode,
    BlockTranslateNode,
    IfNode,
    ForNode,
    WithNode,
    URLNode,
    IncludeNode,
    SimpleNode,
    CommentNode,
    LoadNode,
    SpacelessNode,
)
DEPTH = 2  # lookups kept of a path: `panel.groups.0.cards` is keyed as `panel.groups`


class _Missing:
    """Where a path finds nothing; pickled as a reference to the one MISSING."""

    def __reduce__(self):
        return "MISSING"


MISSING = _Missing()
_MISSING_DIGEST = hash(pickle.dumps(MISSING))


class Unknown(Exception):
    """A template reads its context in a way this module does not follow."""


@functools.cache
def paths(template_name: str) -> tuple[tuple[str, ...], ...] | None:
    """The paths `template_name` (or "file#partial") reads, sorted; None if unknown."""
    return paths_of(_template(template_name), template_name)


def paths_of(template, name: str = "") -> tuple[tuple[str, ...], ...] | None:
    """The paths a compiled template reads, sorted; None if unknown."""
    found: set[tuple[str, ...]] = set()
    try:
        _nodes(template.nodelist, found, {name})
    except Unknown:
        return None
    return tuple(sorted(found))


def fingerprint(found: tuple[tuple[str, ...], ...], context: dict, memo=None) -> int | None:
    """A digest of the values at `found` in `context`, to compare with another render's;
    None if one cannot be digested. `memo` keeps each path's digest for the next call on
    the same context: a screen's regions read many of the same paths (`panel.view`,
    `names`), and each is digested once. A phone's screen keeps the digest from one change
    to the next: keeping the values themselves kept every phone's whole context alive
    (bench/load.py, 150 tables: 294 MiB against 225)."""
    memo = {} if memo is None else memo
    fill(found, context, memo)
    return combined(found, memo)


def fill(found, context: dict, memo: dict) -> None:
    """Digest each path of `found` that `memo` does not hold yet, into `memo`."""
    for path in found:
        if path not in memo:
            memo[path] = digest(lookup(context, path))


def combined(found, memo: dict) -> int | None:
    """The digest of the values at `found`, each digested in `memo` already (`fill`);
    None if one cannot be digested."""
    digests = tuple(map(memo.__getitem__, found))
    return None if None in digests else hash(digests)


# Values digested as themselves, not pickled: most paths a region reads are flags and
# numbers, and a pickle costs several times their hash.
PLAIN = frozenset({bool, int, str, float, type(None)})


def digest(value) -> int | None:
    """A 64-bit digest of `value`: its hash with its type for a plain value, else the hash
    of its pickle (as games.render.Screen.digest's of what is sent); None if it cannot be
    pickled (then what it would key is always drawn). Compared only within one process.
    A lazy translation or a SafeString is pickled through Python code, several times
    slower than plain data: the adapters word their labels and keep HTML drawn ahead as a
    plain str, written with |safe (tests/web/test_regions.py checks every region's inputs)."""
    kind = type(value)
    if kind in PLAIN:
        return hash((kind, value))
    if value is MISSING:
        return _MISSING_DIGEST
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hash(data)


def lookup(context: dict, path: tuple[str, ...]):
    """The value at `path` in `context`, as a template finds it; MISSING where there is none."""
    value = context.get(path[0], MISSING)
    for key in path[1:]:
        if value is MISSING or value is None:  # None has nothing to look up (and fast)
            value = MISSING
            break
        try:
            value = value[key]
        except (TypeError, KeyError, IndexError, AttributeError):
            try:
                value = value[int(key)]
            except (TypeError, KeyError, IndexError, ValueError, AttributeError):
                value = getattr(value, key, MISSING)
    return value


def _template(name: str):
    return engines["django"].get_template(name).template


def _nodes(nodelist, found: set, seen: set) -> None:
    for node in nodelist:
        _node(node, found, seen)


def _node(node: Node, found: set, seen: set) -> None:
    if not isinstance(node, KNOWN) or isinstance(node, SimpleNode) and node.takes_context:
        raise Unknown(type(node).__name__)
    if isinstance(node, IncludeNode):
        name = node.template.var
        if not isinstance(name, str) or isinstance(name, Variable):
            raise Unknown("include by a variable's name")
        for value in node.extra_context.values():
            _expression(value, found)
        if not node.isolated_context and name not in seen:
            _nodes(_template(name).nodelist, found, seen | {name})
        return
    for name, value in vars(node).items():
        if name in ("token", "origin", "conditions_nodelists"):
            continue
        _value(value, found, seen)
    if isinstance(node, IfNode):
        for condition, nodelist in node.conditions_nodelists:
            _condition(condition, found)
            _nodes(nodelist, found, seen)


def _value(value, found: set, seen: set) -> None:
    if isinstance(value, NodeList):
        _nodes(value, found, seen)
    elif isinstance(value, Node):
        _node(value, found, seen)
    elif isinstance(value, FilterExpression | Variable):
        _expression(value, found)
    elif isinstance(value, Token):
        if value.token_type == TokenType.VAR:  # {{ name }} inside {% blocktranslate %}
            _expression(Variable(value.contents.split("|")[0].strip()), found)
    elif isinstance(value, list | tuple):
        for item in value:
            _value(item, found, seen)
    elif isinstance(value, dict):
        for item in value.values():
            _value(item, found, seen)


def _condition(condition, found: set) -> None:
    """An {% if %} condition: a literal (its `value`) or an operator (`first`, `second`)."""
    if condition is None:
        return
    if hasattr(condition, "value"):
        _expression(condition.value, found)
    for side in ("first", "second"):
        if getattr(condition, side, None) is not None:
            _condition(getattr(condition, side), found)


def _expression(expression, found: set) -> None:
    if isinstance(expression, FilterExpression):
        _expression(expression.var, found)
        for _func, args in expression.filters:
            for is_variable, arg in args:
                if is_variable:
                    _expression(arg, found)
    elif isinstance(expression, Variable) and expression.lookups:
        found.add(tuple(expression.lookups[:DEPTH]))
