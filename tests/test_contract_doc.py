"""docs/engines.md stays true: every function of its Functions table exists, with the
documented parameter names, in each game's engines (the full one, and the companion one,
which the page says has the same functions), every key of a game's documented state is
in that game's `new_game` state, and a view holds what the page's "Views" says."""

import builtins
import importlib
import inspect
import re
from pathlib import Path

import pytest

from games import engine_errors
from games.registry import GAMES as OFFERED

DOC = Path(__file__).resolve().parents[1] / "docs" / "engines.md"
# game → (its state's section title in the page, a config for new_game)
GAMES = {
    "triggs": ("Triggs state", {"players": 2}),
    "triumfdrez": ("TriumfDrez state", {"players": 4}),
}
# every engine of both games, by mode (digital: engine.py, companion: companion.py)
ENGINES = [module for game in GAMES for module in OFFERED[game].engines.values()]


def section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/engines.md has no section {title!r}"
    return match.group(1)


def documented_functions() -> list[tuple[str, list[str]]]:
    """(name, parameter names) of each row of the Functions table."""
    rows = re.findall(r"^\| `(\w+)\(([^)]*)\)", section("Functions"), re.M)
    return [
        (name, [param.split(":")[0].strip() for param in params.split(",") if param.strip()])
        for name, params in rows
    ]


def documented_keys(title: str) -> set[str]:
    """The keys of the state block of a game's section, comments left out."""
    block = re.search(r"^```\n(.*?)^```", section(title), re.M | re.S)
    assert block, f"{title}: no state block"
    lines = (line.split("#")[0] for line in block.group(1).splitlines())
    return {key for line in lines for key in re.findall(r"(?:^|\s)([a-z_]+):", line)}


def test_the_page_documents_the_whole_surface():
    names = [name for name, _params in documented_functions()]
    assert names == [
        "new_game",
        "legal_actions",
        "apply",
        "view",
        "is_over",
        "to_act",
        "IllegalAction",
    ]


@pytest.mark.parametrize("module", ENGINES)
def test_every_documented_function_exists_with_its_parameters(module):
    engine = importlib.import_module(module)
    for name, params in documented_functions():
        thing = getattr(engine, name, None)
        assert thing is not None, f"{module} has no {name}"
        if name[0].isupper():  # a class: IllegalAction(Exception)
            assert issubclass(thing, engine_errors.IllegalAction)
            assert all(issubclass(thing, getattr(builtins, base)) for base in params)
            continue
        actual = list(inspect.signature(thing).parameters.values())
        assert [p.name for p in actual[: len(params)]] == params, f"{module}.{name}"
        # a parameter the page does not name is optional (the companion's `seat`)
        assert all(p.default is not inspect.Parameter.empty for p in actual[len(params) :])


@pytest.mark.parametrize("game", GAMES)
def test_every_documented_state_key_is_in_a_new_game(game):
    title, config = GAMES[game]
    keys = documented_keys(title)
    assert {"game", "players", "seed", "turn", "phase", "winner"} <= keys
    state = OFFERED[game].engine("digital").new_game(config, 7)
    assert keys <= set(state), sorted(keys - set(state))


@pytest.mark.parametrize("game", GAMES)
def test_views_are_as_the_page_says(game):
    """ "Views": the seat's own hand under `hand`, the others' as counts (`hand_sizes`), a
    spectator's view without `hand`, and never the seed."""
    _title, config = GAMES[game]
    engine = OFFERED[game].engine("digital")
    state = engine.new_game(config, 7)
    seat, spectator = engine.view(state, 0), engine.view(state, None)
    assert sorted(seat["hand"]) == sorted(state["hands"][0])
    assert seat["hand_sizes"] == [len(hand) for hand in state["hands"]]
    assert "hand" not in spectator
    assert "seed" not in seat and "seed" not in spectator
