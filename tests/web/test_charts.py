"""Pictures of a game's progress (games.charts): seeded tables played through the
services in both games and modes, their progress read back from the log, and the SVG
drawn from it (structure only: the words are translated later)."""

import random
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from games import charts, labels, services
from games.adapter import GameWeb
from games.models import Table
from games.registry import get_game
from games.templatetags.babel_tags import as_list
from games.triggs import bots as triggs_bots
from games.triumfdrez import bots as triumfdrez_bots
from tests.tables import config, start_with_seed

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Boris", "Chloé", "Dmitri"]


def seated(game, mode, names, seed, **options):
    """A started table with these people in seat order, dealt from `seed`."""
    table, host, _token = services.create_table(
        game, mode, config(game, mode, len(names), **options), names[0]
    )
    for index, name in enumerate(names[1:], start=1):
        services.claim_seat(table, index, name)
    return start_with_seed(table, host, seed), host


def act(table, seat, action):
    services.apply_action(table, seat, action, table.version, f"a-{table.version}")
    table.refresh_from_db()


def choose(game, mode, state, rng):
    """(seat, action): a sensible legal move of the seat to act."""
    engine = get_game(game).engine(mode)
    seat = engine.to_act(state)[0]
    if mode == "digital":
        legal = engine.legal_actions(state)
        bot = triggs_bots.greedy if game == "triggs" else triumfdrez_bots.heuristic
        return seat, bot(engine.view(state, seat), legal, rng)
    legal = [a for a in engine.legal_actions(state, seat) if not a["type"].startswith("undo")]
    if game == "triggs":  # cross most turns, pass some
        crosses = [a for a in legal if a["type"] != "pass"]
        return seat, rng.choice(crosses if crosses and rng.random() < 0.8 else legal)
    if state["phase"] == "auction":
        bids = [a for a in legal if a["type"] == "bid"][:8]
        return seat, rng.choice(bids) if not state["auction"] else {"type": "pass"}
    return seat, rng.choice(legal)


def play(table, rng, moves=2000):
    engine = get_game(table.game).engine(table.mode)
    for _ in range(moves):
        if engine.is_over(table.state):
            break
        act(table, *choose(table.game, table.mode, table.state, rng))
    return table


def logged(table, kind):
    return table.actions.filter(action__type=kind).count()


def shape(element):
    """A marker's shape: its element, and a polygon's number of corners (None: no marker)."""
    if "chart-mark" not in element.get("class", ""):
        return None
    return element.tag, len(element.get("points", "").split())


def parsed(markup):
    root = ET.fromstring(str(markup))
    text = " ".join(root.itertext())
    return root, text


# -- progress ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["companion", "digital"])
@pytest.mark.parametrize("players", [2, 4])
def test_triggs_progress_climbs_one_point_per_turn_that_crossed_to_the_winners_42(mode, players):
    table, _host = seated("triggs", mode, NAMES[:players], seed=11 + players)
    play(table, random.Random(players))
    state = table.state
    assert get_game("triggs").engine(mode).is_over(state)
    points = charts.progress(table)
    assert points[0].values == (0,) * players
    assert points[0].series == tuple((name,) for name in NAMES[:players])
    for before, after in zip(points, points[1:], strict=False):
        assert all(b <= a for b, a in zip(before.values, after.values, strict=True))
        assert before.values != after.values
    # the extra crosses of a chain join the point of their cross
    assert len(points) == 1 + logged(table, "cross")
    assert points[-1].values == tuple(map(sum, state["sheets"]))
    assert points[-1].values[state["winner"]] == 42
    assert {(p.top, p.target) for p in points} == {(42, None)}


@pytest.mark.parametrize("mode", ["companion", "digital"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_triumfdrez_progress_has_one_point_per_finished_hand(mode, players):
    table, _host = seated("triumfdrez", mode, NAMES[:players], seed=5 + players, target=20)
    play(table, random.Random(players))
    state = table.state
    assert get_game("triumfdrez").engine(mode).is_over(state)
    points = charts.progress(table)
    sides = 2 if players == 4 else players
    assert points[0].values == (0,) * sides
    assert len(points) == 1 + len(state["history"])
    assert points[-1].values == tuple(state["scores"])
    assert points[-1].target == 20
    assert points[-1].top == max(20, *state["scores"])
    if players == 4:
        assert len(points[0].series) == 2
        assert points[0].series == (("Ana", "Chloé"), ("Boris", "Dmitri"))
    else:
        assert points[0].series == tuple((name,) for name in NAMES[:players])


def test_a_hand_taken_back_leaves_the_companion_chart():
    table, _host = seated("triumfdrez", "companion", NAMES[:2], seed=3)
    contract = {"tricks": 7, "trump": "rook", "supertrump": 4, "open": False}
    for won in (5, 9):
        act(table, 0, {"type": "contract", "seat": 0, **contract})
        act(table, 0, {"type": "result", "tricks": won})
    assert [p.values for p in charts.progress(table)] == [(0, 0), (0, 11), (11, 11)]
    act(table, 0, {"type": "undo_hand"})
    assert [p.values for p in charts.progress(table)] == [(0, 0), (0, 11)]
    act(table, 0, {"type": "result", "tricks": 7})  # the contract stands: its tricks again
    points = charts.progress(table)
    assert [p.values for p in points] == [(0, 0), (0, 11), (7, 11)]
    assert points[-1].values == tuple(table.state["scores"])


def test_a_rematch_starts_a_new_chart():
    table, host = seated("triggs", "companion", NAMES[:2], seed=1)
    play(table, random.Random(1))
    assert len(charts.progress(table)) > 2
    services.rematch(table, host, "rematch-1")
    table.refresh_from_db()
    assert [p.values for p in charts.progress(table)] == [(0, 0)]


def test_progress_reads_the_log_once(django_assert_max_num_queries):
    table, _host = seated("triumfdrez", "digital", NAMES[:3], seed=2, target=20)
    play(table, random.Random(2))
    table = Table.objects.get(pk=table.pk)
    with django_assert_max_num_queries(2):  # the seats and the log
        points = charts.progress(table)
    assert len(points) > 2


def test_a_game_without_a_chart_has_no_points():
    assert GameWeb().tally("digital", {}, {}) is None
    assert charts.svg([]) == ""


# -- the picture -------------------------------------------------------------------------


AND = {"es": " y ", "el": " και ", "ru": " и ", "fr": " et ", "en": " and "}


@pytest.mark.parametrize(
    ("game", "mode", "players"),
    [
        ("triggs", "digital", 4),
        ("triggs", "companion", 3),
        ("triumfdrez", "digital", 4),
        ("triumfdrez", "companion", 3),
    ],
)
def test_the_picture_names_every_line_with_its_own_dashes_and_marker(game, mode, players):
    table, _host = seated(game, mode, NAMES[:players], seed=7, target=20)
    play(table, random.Random(7))
    with translation.override("es"):  # a snapshot's points serve phones in every language
        points = charts.progress(table)
    for lang in ("es", "el", "ru", "fr", "en"):
        with translation.override(lang):
            markup = charts.svg(points)
            names = [as_list(people) for people in points[-1].series]
        root, text = parsed(markup)
        assert root.tag == f"{SVG}svg" and root.get("role") == "img"
        assert root.get("width") == "100%"
        width = float(root.get("viewBox").split()[2])
        assert 340 <= width <= 380
        assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
        lines = root.findall(f".//{SVG}polyline")
        last = points[-1]
        assert len(lines) == len(last.series)
        assert len({line.get("stroke-dasharray") for line in lines}) == len(lines)
        assert all(line.get("points").count(",") == len(points) for line in lines)
        shapes = {tuple(sorted(set(map(shape, g)) - {None})) for g in root.iter(f"{SVG}g")}
        assert len(shapes) == len(lines) and all(len(kinds) == 1 for kinds in shapes)
        desc = root.find(f"{SVG}desc").text
        if game == "triumfdrez" and players == 4:  # "Ana y Chloé", "Ana και Chloé"…
            assert all(AND[lang] in name for name in names)
        for name, value in zip(names, last.values, strict=True):
            assert name in desc and str(value) in desc
            assert any(
                name[:10] in label and label.endswith(str(value))
                for label in (t.text for t in root.iter(f"{SVG}text"))
            )
        targets = root.findall(f".//{SVG}path[@class='chart-target']")
        assert len(targets) == (1 if game == "triumfdrez" else 0)
        assert all(float(t.get("font-size")) >= 11 for t in root.iter(f"{SVG}text"))
        assert "<script" not in markup and "style=" not in markup


def test_names_are_escaped_and_long_ones_cut_inside_the_picture():
    evil, long = "<script>x</script>", "Maximiliana Fernández"
    table, _host = seated("triumfdrez", "digital", ["Ana", evil, long], seed=4, target=20)
    play(table, random.Random(4))
    markup = charts.svg(charts.progress(table))
    assert "<script" not in markup and "&lt;script&gt;" in markup
    root, _text = parsed(markup)
    desc = root.find(f"{SVG}desc").text
    assert evil in desc and long in desc
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart-label"]
    assert any(label.startswith("Maximiliana F") and "…" in label for label in labels)
    # (French puts a no-break space before the colon)
    assert all(len(label.split(":")[0].strip()) <= charts.NAME_LENGTH for label in labels)


@pytest.mark.parametrize("game", ["triggs", "triumfdrez"])
def test_a_game_just_started_draws_a_single_point(game):
    table, _host = seated(game, "digital", NAMES[:2], seed=9)
    with translation.override("ru"):
        points = charts.progress(table)
        markup = charts.svg(points)
    assert len(points) == 1 and points[0].values == (0, 0)
    root, text = parsed(markup)
    assert len(root.findall(f".//{SVG}polyline")) == 2
    assert "Ana" in text and "Boris" in text


def test_a_single_tally_draws_without_dividing_by_zero():
    tally = charts.Tally((("Ana",),), (0,), 0, None, "turns", "Crosses")
    root, text = parsed(charts.svg([tally]))
    assert root.get("role") == "img" and "Ana" in text


def test_a_computer_players_name_is_worded_in_each_readers_language():
    table, host, _token = services.create_table(
        "triggs", "digital", config("triggs", "digital", 2), "Ana"
    )
    services.seat_bot(table, host, 1)
    table = start_with_seed(table, host, 5)
    play(table, random.Random(5))
    with translation.override("es"):  # a snapshot's points, made once for every phone
        points = charts.progress(table)
    for lang in ("es", "el", "ru", "fr"):
        with translation.override(lang):
            bot = labels.seat_name(table.seats.get(index=1), get_game("triggs"))
            markup = str(charts.svg(points))
        assert bot.split(" (")[0] in markup, lang
    with translation.override("el"):
        assert "Ordenador" not in str(charts.svg(points))


@pytest.mark.django_db(transaction=True)
def test_the_chart_is_worked_out_after_the_commit_once_per_version(monkeypatch):
    """The replay of a finished game's log (issue 37) is not run under the table's lock,
    and a process works it out once per version however many phones read the table."""
    from django.db import connection

    from games import live

    calls = []
    real = charts.progress

    def spy(table):
        calls.append(connection.in_atomic_block)
        return real(table)

    monkeypatch.setattr(charts, "progress", spy)
    table, _host = seated("triggs", "digital", NAMES[:2], seed=13)
    play(table, random.Random(2))
    assert get_game("triggs").engine("digital").is_over(table.state)
    assert calls and not any(calls)  # never inside the move's transaction
    before = len(calls)
    for _ in range(3):
        assert live.snapshot(table.pk).progress
    assert len(calls) == before  # kept for this version
