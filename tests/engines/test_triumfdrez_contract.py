"""The engine contract: JSON states, determinism, replay, no mutation, purity."""

import json
import random
import subprocess
import sys
from pathlib import Path

from games.triumfdrez import bots, engine

from .test_triumfdrez_support import frozen

ROOT = Path(__file__).resolve().parents[2]


def _record_match(players, seed, target=30):
    """Play a match with bots; return the actions (seat, action) and every state."""
    state = engine.new_game({"players": players, "target": target}, seed)
    rng = random.Random(seed)
    states, actions = [state], []
    while state["phase"] != "match_over":
        seat = state["turn"]
        bot = bots.heuristic if seat % 2 else bots.random_legal
        action = bot(engine.view(state, seat), engine.legal_actions(state), rng)
        state = engine.apply(state, seat, action)
        actions.append((seat, action))
        states.append(state)
    return actions, states


def test_states_are_plain_json_and_replay_gives_the_same_states():
    actions, states = _record_match(3, 8)
    for state in states:
        assert json.loads(json.dumps(state)) == state
    replayed = engine.new_game({"players": 3, "target": 30}, 8)
    assert replayed == states[0]
    for (seat, action), expected in zip(actions, states[1:], strict=True):
        replayed = engine.apply(json.loads(json.dumps(replayed)), seat, action)
        assert replayed == expected


def test_apply_never_mutates_its_input():
    actions, states = _record_match(4, 2)
    for (seat, action), state in zip(actions, states, strict=False):
        before = frozen(state)
        engine.apply(state, seat, action)
        engine.legal_actions(state)
        engine.view(state, seat)
        assert state == before


def test_global_random_is_not_used():
    random.seed(1)
    first = _record_match(2, 5)[1][-1]
    random.seed(2)
    assert _record_match(2, 5)[1][-1] == first


def test_same_states_in_a_fresh_process_with_another_hash_seed():
    code = (
        "import json; from games.triumfdrez import engine; "
        "print(json.dumps(engine.new_game({'players': 4}, 77), sort_keys=True))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == engine.new_game({"players": 4}, 77)


def test_importing_the_engine_and_bots_leaves_django_out():
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import games.triumfdrez, games.triumfdrez.engine, games.triumfdrez.bots\n"
        "assert 'django' not in sys.modules, 'django imported'\n"
        "outside = sorted(\n"
        "    name for name in set(sys.modules) - before\n"
        "    if name.split('.')[0] not in sys.stdlib_module_names | {'games'}\n"
        ")\n"
        "assert not outside, outside\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_engine_sources_import_only_the_standard_library():
    """…and the engines' shared error shape; apps.py, web/ and templatetags/ are the
    game's Django side."""
    for path in sorted((ROOT / "games" / "triumfdrez").glob("*.py")):
        if path.name == "apps.py":
            continue
        for line in path.read_text().splitlines():
            words = line.split()
            if line == "from games import engine_errors" or line[:1].isspace():
                continue
            if words[:1] == ["import"] or (words[:1] == ["from"] and not words[1].startswith(".")):
                assert words[1].split(".")[0] in sys.stdlib_module_names, (path.name, line)
