"""A phone's screen keeps the regions whose inputs did not change (games.render.screen with
the phone's previous screen, games.template_inputs), and takes those drawn lately with
equal inputs in its language, by another phone or for an earlier change
(games.render.drawn): in random seeded games of every game and mode, what it keeps,
takes and draws is byte for byte what drawing everything alone gives, and it does keep
and take regions."""

import random
import uuid

import pytest
from django.template import engines
from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

from games import live, render, services, template_inputs
from games.registry import GAMES
from tests.tables import config, play_random

pytestmark = pytest.mark.django_db

LANGS = ("es", "el", "ru", "fr")
NAMES = ("Ana", "Boris", "Chloé", "Dmitri")
SETUPS = [(game, mode) for game in ("triggs", "triumfdrez") for mode in ("companion", "digital")]


def new_table(game, mode):
    table, host, _token = services.create_table(game, mode, config(game, mode, 4), NAMES[0])
    for seat in range(1, 4):
        services.claim_seat(table, seat, NAMES[seat])
    services.start_table(table, host, "start-" + uuid.uuid4().hex)
    table.refresh_from_db()
    return table


def same(a: render.Screen, b: render.Screen) -> bool:
    return a.layout == b.layout and [h for _n, h, _p in a.regions] == [h for _n, h, _p in b.regions]


def drawn_alone(snap, *args) -> render.Screen:
    """A screen drawn with nothing taken from what this process drew before, nor from
    what the other phones of the change worked out (a snapshot of its own)."""
    kept, render.drawn = render.drawn, render.Kept(render.drawn.size)
    try:
        return render.screen(
            live.Snapshot(snap.table, snap.seats, snap.log_rows, snap.progress), *args
        )
    finally:
        render.drawn = kept


@pytest.mark.parametrize("langs", [LANGS, ("fr",) * 4], ids=["four languages", "one language"])
@pytest.mark.parametrize("game, mode", SETUPS)
def test_kept_regions_are_what_drawing_everything_gives(game, mode, langs):
    rng = random.Random(f"{game}-{mode}")
    table = new_table(game, mode)
    # phone 3 holds seats 2 and 3 and switches between them: what it kept for one seat
    # must not show for the other
    phones = {0: ([0], 0), 1: ([1], 1), 2: ([2], 2), 3: ([2, 3], 3)}
    shown = {}
    kept = drawn = taken = 0
    for move in range(60):
        if not play_random(table, rng):
            break
        snap = live.snapshot(table)
        drawn_here = set()  # ids of the regions drawn for this change so far
        for phone, (seats, active) in phones.items():
            if phone == 3 and move % 5 == 0:
                active = 2 if move % 10 else 3
            lang = langs[phone]
            # drawn alone: nothing taken from the other phones or from earlier changes
            fresh = drawn_alone(snap, seats, active, phone == 0, lang)
            now = render.screen(snap, seats, active, phone == 0, lang, None, shown.get(phone))
            assert same(now, fresh), (move, phone)
            assert render.changed(shown.get(phone), now) == render.changed(shown.get(phone), fresh)
            if phone in shown:
                before = {name: html for name, html, _pane in shown[phone].regions}
                for name, html, _pane in now.regions:
                    if before.get(name) is html:
                        kept += 1
                    elif id(html) in drawn_here:
                        taken += 1
                    else:
                        drawn += 1
            drawn_here |= {id(html) for _name, html, _pane in now.regions}
            shown[phone] = now
    assert kept > drawn, (kept, drawn)  # most regions do not change with a move
    if len(set(langs)) == 1:  # the log, for one, is the same on every phone
        assert taken > 0, (kept, taken, drawn)


@pytest.mark.django_db
def test_a_screen_in_another_language_draws_everything():
    table = new_table("triumfdrez", "digital")
    snap = live.snapshot(table)
    spanish = render.screen(snap, [0], 0, True, "es")
    greek = render.screen(snap, [0], 0, True, "el", None, spanish)
    assert same(greek, render.screen(snap, [0], 0, True, "el"))
    assert not any(
        a is b and a != ""
        for (_, a, _), (_, b, _) in zip(spanish.regions, greek.regions, strict=True)
    )


def every_region_template():
    names = [template for _name, template, _pane in (*render.HEAD, *render.TAIL, render.RESULT)]
    names += [template for regions in render.STAGE.values() for _name, template, _pane in regions]
    for game in GAMES.values():
        for mode in ("companion", "digital"):
            names += [template for _name, template, _pane in game.web.screen(mode)]
    return names


@pytest.mark.parametrize("template", every_region_template())
def test_every_region_says_what_it_reads(template):
    """A region whose inputs are unknown is drawn on every change: correct, but slow."""
    assert template_inputs.paths(template) is not None


def paths(source: str):
    return template_inputs.paths_of(engines["django"].from_string(source).template)


def test_paths_follow_variables_loops_conditions_translations_and_includes():
    found = paths(
        "{% load i18n %}{% for card in panel.hand %}{{ card.name|default:fallback }}{% endfor %}"
        "{% if view.phase == 'play' and not over %}x{% endif %}"
        "{% blocktranslate trimmed with n=view.hand_no %}Hand {{ n }} of {{ who }}{% endblocktranslate %}"
        '{% include "games/_presence.html" with seat=me %}'
    )
    for path in [("panel", "hand"), ("fallback",), ("view", "phase"), ("over",), ("view", "hand_no"),
                 ("who",), ("me",)]:  # fmt: skip
        assert path in found, path
    assert ("card", "name") in found  # a loop's own variable: not in a context, never compared


@pytest.mark.parametrize(
    "source",
    [
        "{% csrf_token %}",
        "{% include template_name %}",
        "{% load cache %}{% cache 10 x %}{{ a }}{% endcache %}",
    ],
)
def test_a_template_read_in_unknown_ways_is_always_drawn(source):
    assert paths(source) is None


def test_values_look_up_dicts_lists_and_attributes():
    class Seat:
        name = "Ana"

    context = {"panel": {"hand": [1, 2]}, "seat": Seat(), "list": ["a", "b"]}
    found = (("list", "1"), ("missing",), ("panel", "hand"), ("seat", "name"))
    values = [template_inputs.lookup(context, path) for path in found]
    assert values == ["b", template_inputs.MISSING, [1, 2], "Ana"]


def test_a_fingerprint_is_equal_for_equal_values_and_none_when_they_cannot_be_kept():
    found = (("missing",), ("panel", "hand"), ("seat",))
    fingerprint = template_inputs.fingerprint
    first = fingerprint(found, {"panel": {"hand": [1, 2]}, "seat": "Ana"})
    assert first == fingerprint(found, {"panel": {"hand": [1, 2]}, "seat": "Ana"})
    assert isinstance(first, int)  # kept between changes: a digest, not the values
    assert first != fingerprint(found, {"panel": {"hand": [1, 3]}, "seat": "Ana"})
    assert first != fingerprint(found, {"panel": {"hand": [1, 2]}, "seat": "Ana", "missing": 0})
    assert fingerprint(found, {"panel": {"hand": [1, 2]}, "seat": lambda: "Ana"}) is None


def test_plain_values_are_digested_with_their_type():
    """Flags, numbers and text are hashed as they are, not pickled; a value of another
    type or a missing one digests differently."""
    digest = template_inputs.digest
    values = [True, 1, 1.0, "1", None, 0, False, "", template_inputs.MISSING, (1,), [1]]
    assert len({digest(value) for value in values}) == len(values)
    assert digest("Ana") == digest("".join(["A", "na"]))
    assert digest(mark_safe("<b>")) == digest(mark_safe("<b>")) != digest("<b>")


def test_a_screen_digests_each_path_once_for_all_its_regions(monkeypatch):
    context = {"panel": {"hand": [1, 2], "view": {"phase": "play"}}, "seat": "Ana"}
    alone = template_inputs.fingerprint((("panel", "hand"), ("seat",)), context)
    digested = []
    real = template_inputs.digest
    monkeypatch.setattr(template_inputs, "digest", lambda v: digested.append(v) or real(v))
    memo = {}
    first = template_inputs.fingerprint((("panel", "hand"), ("seat",)), context, memo)
    second = template_inputs.fingerprint((("panel", "view"), ("seat",)), context, memo)
    assert first == alone and second != first
    assert digested == [[1, 2], "Ana", {"phase": "play"}]  # "seat" once, for both


def test_the_phones_of_a_change_share_its_table_wide_context_and_digests(monkeypatch):
    table = new_table("triggs", "digital")
    snap = live.snapshot(table)
    digested = []
    real = template_inputs.digest
    monkeypatch.setattr(template_inputs, "digest", lambda v: digested.append(v) or real(v))
    with translation.override("es"):
        first = render.table_context(snap, [0], 0, True)
        second = render.table_context(snap, [1], 1, False)
    with translation.override("el"):
        greek = render.table_context(snap, [2], 2, False)
    for name in render.WIDE:
        assert first[name] is second[name], name
    assert first["panel"] is not second["panel"] and first["log"] is not greek["log"]
    assert first["log"] != greek["log"]  # worded in each language
    # the log's digest is worked out by the first phone of the change in each language
    render.screen(snap, [0], 0, True, "es")
    render.screen(snap, [1], 1, False, "es")
    render.screen(snap, [2], 2, False, "el")
    assert sum(value is first["log"] for value in digested) == 1
    assert sum(value is greek["log"] for value in digested) == 1


def test_a_region_is_cut_into_its_parts_by_their_ids():
    html = (
        '<ul><!--part--><li id="other-1">1</li><!--/part-->\n'
        '<!--part--> <li class="x" id="other-2">2 <b>b</b></li><!--/part--></ul><!--part-->'
    )
    frame, parts = render.split_parts(html)
    assert frame == "<ul><!--part:other-1-->\n<!--part:other-2--></ul><!--part-->"
    assert parts == {
        "other-1": '<li id="other-1">1</li>',
        "other-2": ' <li class="x" id="other-2">2 <b>b</b></li>',
    }
    assert render.split_parts("<p>no parts</p>") == ("<p>no parts</p>", {})


def slow_to_digest(value, path="") -> list[str]:
    """Where `value` holds a lazy translation, a SafeString or a range (pickled through
    Python code, several times slower than plain data): the paths."""
    if isinstance(value, Promise | SafeString | range):
        return [path]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in slow_to_digest(item, f"{path}.{key}")]
    if isinstance(value, list | tuple):
        return [p for item in value for p in slow_to_digest(item, f"{path}[]")]
    return []


@pytest.mark.parametrize("game, mode", SETUPS)
def test_what_regions_read_is_plain_data(game, mode):
    """Each phone's regions are digested after every change (template_inputs.fingerprint):
    the adapters word their labels and keep drawn HTML as a plain str (written with |safe)."""
    rng = random.Random(f"plain-{game}-{mode}")
    table = new_table(game, mode)
    found = set()
    for _move in range(40):
        if not play_random(table, rng):
            break
        snap = live.snapshot(table)
        for phone, lang in enumerate(LANGS):
            with translation.override(lang):
                context = render.table_context(snap, [phone], phone, phone == 0)
            for name in set(context) - set(render.STAMPED):
                found.update(slow_to_digest(context[name], name))
    assert found == set()
