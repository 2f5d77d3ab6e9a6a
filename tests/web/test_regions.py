"""A phone's screen keeps the regions whose declared inputs did not change
(games.render.screen with the phone's previous screen), and takes those rendered lately
with equal inputs in its language, by another phone or for an earlier change
(games.regions.rendered): in random seeded games of every game and mode, what it keeps,
takes and renders is byte for byte what rendering everything alone gives, and every
region renders the same from its declared inputs alone (tests/declared.py)."""

import random
import uuid

import pytest
from cachetools import LRUCache
from django.core.cache import caches
from django.utils import translation

from games import context as table_context
from games import live, regions, render, services
from games.registry import GAMES
from tests.declared import undeclared
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


def rendered_alone(snap, *args) -> render.Screen:
    """A screen rendered with nothing taken from what this process rendered before (its
    regions, and the pieces cached by {% cache %}), nor from what the other phones of the
    change worked out (a snapshot of its own)."""
    caches["template_fragments"].clear()
    cache = regions.rendered
    regions.rendered = LRUCache(cache.maxsize, cache.getsizeof)
    try:
        return render.screen(
            live.Snapshot(snap.table, snap.seats, snap.log_rows, snap.progress), *args
        )
    finally:
        regions.rendered = cache


@pytest.mark.parametrize("langs", [LANGS, ("fr",) * 4], ids=["four languages", "one language"])
@pytest.mark.parametrize("game, mode", SETUPS)
def test_kept_regions_are_what_rendering_everything_gives(game, mode, langs):
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
            now = render.screen(snap, seats, active, phone == 0, lang, None, shown.get(phone))
            # rendered alone: nothing taken from the other phones or earlier changes
            fresh = rendered_alone(snap, seats, active, phone == 0, lang)
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
def test_a_screen_in_another_language_renders_everything():
    table = new_table("triumfdrez", "digital")
    snap = live.snapshot(table)
    spanish = render.screen(snap, [0], 0, True, "es")
    greek = render.screen(snap, [0], 0, True, "el", None, spanish)
    assert same(greek, render.screen(snap, [0], 0, True, "el"))
    assert not any(
        a is b and a != ""
        for (_, a, _), (_, b, _) in zip(spanish.regions, greek.regions, strict=True)
    )


def test_a_screen_switches_language_only_when_it_must():
    """A phone's screen is rendered in its language whatever was active before, and what
    was active stays so after (render.in_language skips a switch to the active one)."""
    table = new_table("triggs", "digital")
    snap = live.snapshot(table)
    with translation.override("ru"):
        greek = render.screen(snap, [0], 0, True, "el")
        assert translation.get_language() == "ru"
        russian = render.screen(snap, [0], 0, True, "ru")
    assert same(greek, render.screen(snap, [0], 0, True, "el"))
    assert same(russian, render.screen(snap, [0], 0, True, "ru"))
    assert "Ваша рука" in dict((n, h) for n, h, _ in russian.regions)["hand"]
    assert "Το χέρι σας" in dict((n, h) for n, h, _ in greek.regions)["hand"]


def every_region():
    found = [*render.HEAD, *render.TAIL, render.RESULT]
    found += [region for stage in render.STAGE.values() for region in stage]
    for game in GAMES.values():
        for mode in game.modes:
            found += render.game_regions(game.slug, mode)
    return found


@pytest.mark.parametrize("region", every_region(), ids=lambda region: region.template)
def test_every_region_says_what_it_reads(region):
    """A region that does not declare what it reads is rendered on every change."""
    assert region.reads is not None


@pytest.mark.parametrize("game, mode", SETUPS)
def test_every_region_renders_the_same_from_what_it_declares(game, mode):
    """A region that reads more than it declares would be taken from an earlier render
    when what it does not declare changed: rendered from its declared inputs alone, each
    region is what it is from the whole context, at every position of a random game."""
    rng = random.Random(f"declared-{game}-{mode}")
    table = new_table(game, mode)
    shown = (*render.HEAD, *render.game_regions(game, mode), *render.TAIL, render.RESULT)
    checked = 0
    for move in range(40):
        if not play_random(table, rng):
            break
        snap = live.snapshot(table)
        for phone, seats, active in ((0, [0], 0), (1, [1, 2], 2), (2, [], None)):
            with translation.override(LANGS[(move + phone) % 4]):
                context = table_context.table_context(snap, seats, active, phone == 0)
                for region in shown:
                    if region.reads is not None:
                        assert undeclared(region.template, context, region.reads) is None, (
                            region.template
                        )
                        checked += 1
    assert checked


def test_values_look_up_dicts_and_attributes():
    class Seat:
        name = "Ana"

    context = {"panel": {"hand": [1, 2]}, "seat": Seat(), "none": None}
    found = [regions.lookup(context, path) for path in ("missing", "panel.hand", "seat.name")]
    assert found == [regions.MISSING, [1, 2], "Ana"]
    assert regions.lookup(context, "none.x") is regions.MISSING


def test_inputs_are_equal_for_equal_values_and_none_when_undeclared_or_undigestable():
    region = regions.Region("r", "games/_live.html#log", "log", ("missing", "panel.hand", "seat"))

    def inputs(context):
        return regions.inputs(region, context, {})

    first = inputs({"panel": {"hand": [1, 2]}, "seat": "Ana"})
    assert isinstance(first, int) and first == inputs({"panel": {"hand": [1, 2]}, "seat": "Ana"})
    assert first != inputs({"panel": {"hand": [1, 3]}, "seat": "Ana"})
    assert first != inputs({"panel": {"hand": [1, 2]}, "seat": "Ana", "missing": 0})
    assert inputs({"panel": {"hand": [1, 2]}, "seat": lambda: "Ana"}) is None
    assert regions.inputs(regions.Region("r", "x", "play"), {}, {}) is None
    # a region that reads nothing (the closed table's notice) renders once, whatever the context
    nothing = regions.Region("r", "x", "play", ())
    assert isinstance(regions.inputs(nothing, {}, {}), int)
    assert regions.inputs(nothing, {}, {}) == regions.inputs(nothing, {"seat": "Ana"}, {})
    # one path, and a memo that knows some paths already
    one, memo = regions.Region("r", "x", "play", ("seat",)), {"panel.hand": 5}
    assert regions.inputs(one, {"seat": "Ana"}, memo) == regions.inputs(one, {"seat": "Ana"}, {})
    assert set(memo) == {"panel.hand", "seat"}


def test_plain_values_are_digested_with_their_type():
    values = [True, 1, 1.0, "1", None, 0, False, "", regions.MISSING, (1,), [1]]
    assert len({regions.digest(value) for value in values}) == len(values)
    assert regions.digest("Ana") == regions.digest("".join(["A", "na"]))


def test_a_tuple_of_keyed_items_is_digested_by_their_keys():
    rows = ({"key": "1:0", "shown": "a"}, {"key": "2:1", "shown": "b"})
    # the key holds all an item shows ({% cached_each %}): the rest is not read again
    assert regions.digest(rows) == regions.digest(({"key": "1:0"}, {"key": "2:1"}))
    assert regions.digest(rows) != regions.digest(({"key": "1:0"}, {"key": "2:2"}))
    assert regions.digest(rows) != regions.digest(rows[:1])
    assert regions.digest(rows) != regions.digest(("1:0", "2:1"))
    # a list, or a tuple with an item without a key, is digested whole
    assert regions.digest(list(rows)) != regions.digest([{"key": "1:0"}, {"key": "2:1"}])
    mixed = ({"key": "1:0", "shown": "a"}, {"shown": "b"})
    assert regions.digest(mixed) != regions.digest(({"key": "1:0", "shown": "x"}, {"shown": "b"}))


def test_the_phones_of_a_change_share_its_context_and_digests(monkeypatch):
    table = new_table("triggs", "digital")
    snap = live.snapshot(table)
    digested = []
    real = regions.digest
    monkeypatch.setattr(regions, "digest", lambda v: digested.append(v) or real(v))
    with translation.override("es"):
        first = table_context.table_context(snap, [0], 0, True)
        second = table_context.table_context(snap, [1], 1, False)
    with translation.override("el"):
        greek = table_context.table_context(snap, [2], 2, False)
    for name in table_context.SHARED:
        assert first[name] is second[name], name
    assert first["panel"] is not second["panel"] and first["log"] is not greek["log"]
    assert first["log"] != greek["log"]  # translated into each language
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


@pytest.mark.parametrize("game, mode", SETUPS)
def test_no_region_looks_up_a_variable_that_is_not_there(game, mode, caplog):
    """Django logs each lookup that fails ("django.template", DEBUG); a failed lookup costs
    it three exceptions and a dir() of the value, in every render of the region: the
    adapters give every key their templates read, even when it is empty."""
    rng = random.Random(f"{game}-{mode}-lookups")
    table = new_table(game, mode)
    caplog.set_level("DEBUG", logger="django.template")
    for _move in range(40):
        if not play_random(table, rng):
            break
        snap = live.snapshot(table)
        for seat in (None, 0, 1, 2, 3):
            regions.rendered.clear()
            caches["template_fragments"].clear()
            render.screen(snap, [] if seat is None else [seat], seat, seat == 0, "fr")
        render.centre_screen(snap, "fr")
    assert [r.getMessage() for r in caplog.records if r.name == "django.template"] == []
