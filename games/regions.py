"""A region of a table's screen: a template partial rendered and sent on its own, and the
context paths it reads (declared by games.render and each game's GameWeb.regions;
tests/declared.py checks a region renders the same from them alone). `inputs` digests
the values at those paths; `rendered` caches renders by language and that digest.
"""

import contextlib
import pickle
import re
import threading
from dataclasses import dataclass

from cachetools import LRUCache
from django.template import Context, Engine
from django.utils.safestring import mark_safe

MISSING = object()
# Values digested as themselves, not pickled: most paths are flags, numbers and names.
PLAIN = frozenset({bool, int, str, float, type(None)})
# Placeholders filled in per phone (games.render.fill_in): a move's form writes
# {{ fields }} (over the WebSocket only its seat; the page's script adds the version and
# an action id), a form posted as a page {{ post_fields }}, a move's address {{ act_url }}.
FIELDS = mark_safe("<!--fields-->")
POST_FIELDS = mark_safe("<!--post-fields-->")
ACT_URL = mark_safe("<!--act-url-->")


@dataclass(frozen=True, eq=False)  # one object per region in a process: hashed by identity
class Region:
    name: str
    template: str  # "file.html" or "file.html#partial" (django-template-partials)
    pane: str  # where it sits: "play", or one tap away: "players", "log", "table"
    reads: tuple[str, ...] | None = None  # dotted context paths; None: rendered every time


def lookup(context: dict, path: str):
    """The value at a dotted path of a context of plain data, MISSING where there is none."""
    value = context
    for key in path.split("."):
        if isinstance(value, dict):
            value = value.get(key, MISSING)
        elif value is MISSING or value is None:
            return MISSING
        else:
            value = getattr(value, key, MISSING)
    return value


def digest(value) -> int | None:
    """A digest of a value for this process; None if it cannot be pickled. A tuple of keyed
    items (dicts whose `key` holds all they show, as {% cached_each %} takes them) is
    digested by their keys."""
    kind = type(value)
    if kind in PLAIN:
        return hash((kind, value))
    if value is MISSING:
        return hash(MISSING)
    if kind is tuple and value and all(type(item) is dict and "key" in item for item in value):
        return hash(("keyed", *(item["key"] for item in value)))
    try:
        return hash(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


def inputs(region: Region, context: dict, memo: dict) -> int | None:
    """A digest of what `region` reads in `context` (None: undeclared or undigestable);
    `memo`: each path's digest, shared by the regions of the same context."""
    if region.reads is None:
        return None
    for path in region.reads:
        if path not in memo:
            memo[path] = digest(lookup(context, path))
    digests = tuple(map(memo.__getitem__, region.reads))
    return None if None in digests else hash((region.template, digests))


INDENT = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")


def render(template: str, context: dict) -> str:
    """`template` rendered in the active language without line indentation and blank
    lines (no template holds a <pre> or <textarea>), numbers not localized (small counts),
    as a plain str (cheaper to keep and hash)."""
    compiled = Engine.get_default().get_template(template)
    html = compiled.render(Context(context, autoescape=True, use_l10n=False))
    return str.__str__(INDENT.sub("\n", html).strip())


# What this process rendered lately, the one cache of the screens: regions by (language,
# inputs) → (html, digest, parts), as a phone's games.render.Screen holds them, and the
# pieces of {% cached_each %} by (name, language, key) → html. Bounded by about the memory
# it takes; used from the event loop and the database thread.
BYTES = 48_000_000


def _size(value) -> int:
    """About the bytes of an entry: two a character (Greek, Russian), a region's parts as
    many again, and a few hundred for its key and the cache's own."""
    html = value if isinstance(value, str) else value[0]
    return (2 if html is value else 4) * len(html) + 300


rendered = LRUCache(BYTES, getsizeof=_size)
_lock = threading.Lock()


def cached(key):
    with _lock:
        return rendered.get(key)


def cache(key, value) -> None:
    with _lock, contextlib.suppress(ValueError):  # larger than the whole cache: not kept
        rendered[key] = value
