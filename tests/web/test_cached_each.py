"""{% cached_each %} (games.templatetags.live_tags) and the template fragment cache it and
{% cache %} use (companion.cache.RenderedFragments)."""

import pytest
from django.core.cache import caches
from django.template import Context, Engine, TemplateSyntaxError
from django.utils import translation

from companion.cache import RenderedFragments

LOOP = (
    "{% load live_tags i18n %}{% cached_each t_item item in items by item.key %}"
    "<i>{{ item.text }} {% translate 'Cross' %}</i>{% endcached_each %}"
)


def render(source: str, **context) -> str:
    return Engine.get_default().from_string(source).render(Context(context))


@pytest.fixture(autouse=True)
def empty():
    caches["template_fragments"].clear()
    yield
    caches["template_fragments"].clear()


def test_each_item_is_rendered_in_order_and_then_taken_from_the_cache_by_its_key():
    items = [{"key": 1, "text": "a"}, {"key": 2, "text": "b"}]
    with translation.override("es"):
        assert render(LOOP, items=items) == "<i>a Tachar</i><i>b Tachar</i>"
        # what an item shows must be in its key: the same key is the same HTML
        items[0]["text"] = "changed"
        assert render(LOOP, items=items) == "<i>a Tachar</i><i>b Tachar</i>"
        assert render(LOOP, items=[{"key": 3, "text": "c"}]) == "<i>c Tachar</i>"


def test_each_language_has_its_own_pieces():
    items = [{"key": 1, "text": "a"}]
    with translation.override("es"):
        spanish = render(LOOP, items=items)
    with translation.override("fr"):
        french = render(LOOP, items=items)
    assert spanish != french and "Tachar" in spanish


def test_more_than_one_value_after_by_and_an_empty_or_missing_list():
    source = (
        "{% load live_tags %}{% cached_each t_pair n in numbers by n flag %}"
        "{{ n }}{% if flag %}!{% endif %} {% endcached_each %}"
    )
    assert render(source, numbers=[1, 2], flag=True) == "1! 2! "
    assert render(source, numbers=[1, 2], flag=False) == "1 2 "
    assert render(source, numbers=[]) == "" == render(source)


def test_the_loop_variable_does_not_leak_out_of_the_loop():
    source = "{% load live_tags %}{% cached_each t_leak n in numbers by n %}{% endcached_each %}[{{ n }}]"
    assert render(source, numbers=[1, 2], n="before") == "[before]"


@pytest.mark.parametrize(
    "tag",
    [
        "{% cached_each name item in items %}",
        "{% cached_each name item of items by item %}",
        "{% cached_each item in items by item %}",
    ],
)
def test_a_malformed_tag_is_refused_when_the_template_is_compiled(tag):
    with pytest.raises(TemplateSyntaxError):
        Engine.get_default().from_string("{% load live_tags %}" + tag + "{% endcached_each %}")


def test_the_fragment_store_keeps_values_as_they_are_shared_and_bounded():
    one = RenderedFragments("test-store", {"OPTIONS": {"MAX_ENTRIES": 2}})
    other = RenderedFragments("test-store", {"OPTIONS": {"MAX_ENTRIES": 2}})
    value = ["not", "copied"]
    one.set("a", value)
    assert other.get("a") is value  # one store per location, no pickling
    assert one.add("a", 1) is False and one.add("b", 2) is True
    one.get("a")
    one.set("c", 3)  # the least recently used ("b") goes
    assert (one.get("b"), one.has_key("a"), one.get("c")) == (None, True, 3)
    assert one.delete("a") is True and one.delete("a") is False
    one.clear()
    assert other.get("c", "gone") == "gone"
