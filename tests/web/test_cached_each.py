"""{% cached_each %} (games.templatetags.live_tags): each piece cached in the process's
cache of what it rendered (games.regions.rendered)."""

import pytest
from django.template import Context, Engine, TemplateSyntaxError
from django.utils import translation

from games import regions

LOOP = (
    "{% load live_tags i18n %}{% cached_each t_item item in items by item.key %}"
    "<i>{{ item.text }} {% translate 'Cross' %}</i>{% endcached_each %}"
)


def render(source: str, **context) -> str:
    return Engine.get_default().from_string(source).render(Context(context))


@pytest.fixture(autouse=True)
def empty():
    regions.rendered.clear()
    yield
    regions.rendered.clear()


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


def test_a_key_value_naming_the_item_in_a_filter_argument_is_taken_per_item():
    source = "{% load live_tags %}{% cached_each t_arg n in numbers by labels|at:n %}{{ labels|at:n }}{% endcached_each %}"
    assert render(source, numbers=[1, 2], labels={1: "a", 2: "b"}) == "ab"
    assert render(source, numbers=[1, 2], labels={1: "b", 2: "a"}) == "ba"
    assert render(source, numbers=[1, 2], labels={1: "b", 2: "b"}) == "bb"


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


def test_the_cache_is_bounded_by_about_the_memory_it_takes(monkeypatch):
    monkeypatch.setattr(regions, "rendered", type(regions.rendered)(10, regions._size))
    items = [{"key": n, "text": "abcd"} for n in range(3)]
    with translation.override("es"):  # each piece "<i>abcd Tachar</i>", 18 characters
        render(LOOP, items=items)
        assert len(regions.rendered) == 0  # none fits
        size = 2 * 18 + 300
        monkeypatch.setattr(
            regions, "rendered", type(regions.rendered)(2 * size + 1, regions._size)
        )
        assert render(LOOP, items=items) == "<i>abcd Tachar</i>" * 3
    assert [key[2] for key in regions.rendered] == ["1", "2"]  # the least recent went
    assert regions.rendered.currsize == 2 * size
    # a region (html, digest, parts) counts its parts as much again
    assert regions._size(("<p>x</p>", 0, {})) == 4 * 8 + 300
