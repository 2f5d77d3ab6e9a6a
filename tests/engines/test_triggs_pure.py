"""The engine and its bot are pure standard-library Python: no Django, no global random."""

import ast
import random
import subprocess
import sys
from pathlib import Path

from games.triggs.bots import greedy
from games.triggs.engine import apply, legal_actions, new_game, view

ROOT = Path(__file__).resolve().parents[2]
# the engine's modules and the bots (not the web adapter, games/triggs/web/, nor apps.py:
# the game's Django side), and the shared error shape
SOURCES = [
    *(path for path in sorted((ROOT / "games" / "triggs").glob("*.py")) if path.name != "apps.py"),
    ROOT / "games" / "engine_errors.py",
]


def test_importing_the_engine_and_bot_never_imports_django():
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import games.triggs, games.triggs.engine, games.triggs.bots\n"
        "assert 'django' not in sys.modules, 'django imported'\n"
        "new = {n.split('.')[0] for n in set(sys.modules) - before}\n"
        "outside = sorted(new - set(sys.stdlib_module_names) - {'games'})\n"
        "assert not outside, outside\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_sources_import_only_the_standard_library_and_the_engine():
    assert len(SOURCES) >= 5
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside games.triggs
                    continue
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                allowed = name.startswith("games.triggs") or name == "games"
                assert top in sys.stdlib_module_names or allowed, f"{path.name} imports {name}"


def test_no_use_of_the_global_random_generator():
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_whole_games_do_not_depend_on_or_touch_the_global_random_state():
    def game():
        state = new_game({"players": 3}, 77)
        rng = random.Random(5)
        while state["phase"] != "over":
            seat = state["turn"]
            state = apply(state, seat, greedy(view(state, seat), legal_actions(state), rng))
        return state

    random.seed(1)
    first = game()
    random.seed(2)
    before = random.getstate()
    assert game() == first
    assert random.getstate() == before
    assert first["refills"] > 0  # the game did reshuffle
