"""A game plugs in at one seam (issue 35; ../shared/spec/architecture.md): the shared
modules, templates, scripts and style sheets name no game — neither a registered game's
slug or name, nor an import of its package, nor one of its engines' phases. They ask the
registry (games.registry, the one shared module that names the games) and the game's
adapter (games.adapter.GameWeb) instead, so that adding a game touches only its own
package, its templates and static files, one registry entry and the catalogues.

A file found here either moves what it names into the game's package or asks the
registry.
"""

import ast
import re
from pathlib import Path

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def game_words() -> list[str]:
    """Every registered game's slug and name, lowercase, without repeats."""
    words = {word.lower() for game in GAMES.values() for word in (game.slug, game.name)}
    return sorted(words)


PHASE_PATTERNS = (
    re.compile(r"""["']phase["']\]\s*[!=]=\s*["'](\w+)["']"""),
    re.compile(r"""\bphase\s*[!=]=\s*["'](\w+)["']"""),
    re.compile(r"""\bphase=["'](\w+)["']"""),
    re.compile(r"""["']phase["']:\s*["'](\w+)["']"""),
)


def game_phases() -> set[str]:
    """The phase strings of every registered game's engines: what their source compares
    or sets `phase` to, and the phase of a new game."""
    phases = set()
    for game in GAMES.values():
        for mode in game.engines:
            source = Path(game.engine(mode).__file__).read_text()
            for pattern in PHASE_PATTERNS:
                phases.update(pattern.findall(source))
    return phases


# Phases that are words of any game's table (a move "play", a game "over"): the shared
# code may say them; only the game-specific ones are looked for.
COMMON_WORDS = {"play", "over"}


def shared_files() -> list[Path]:
    """The shared modules, templates, scripts and style sheets (see the module)."""
    slugs = {game.slug for game in GAMES.values()}
    files: list[Path] = []
    files += [p for p in (ROOT / "games").glob("*.py") if p.name != "registry.py"]
    files += (ROOT / "games/views").glob("*.py")
    files += (ROOT / "games/templatetags").glob("*.py")
    files += (ROOT / "games/management").rglob("*.py")
    for folder in ("players", "companion"):
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix != ".pyc"]
    for path in (ROOT / "templates").rglob("*"):
        inside = path.relative_to(ROOT / "templates").parts
        if path.is_file() and not (inside[:1] == ("games",) and inside[1:2] and inside[1] in slugs):
            files.append(path)
    for pattern in ("static/js/*.js", "static/css/*.css"):
        for path in ROOT.glob(pattern):
            if not any(path.stem == slug or path.stem.startswith(f"{slug}-") for slug in slugs):
                files.append(path)
    return sorted(files)


def settings_apps_lines(text: str) -> set[int]:
    """The line numbers of INSTALLED_APPS in companion/settings.py: a game's Django app
    (games.<slug>, its templates and static files) is installed there by name."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "INSTALLED_APPS"
            for target in node.targets
        ):
            return set(range(node.lineno, node.end_lineno + 1))
    return set()


def findings(path: Path) -> list[str]:
    """What `path` names of a game: "line: word" for each mention."""
    text = path.read_text(encoding="utf-8", errors="replace")
    allowed = set()
    if path == ROOT / "companion/settings.py":
        allowed = settings_apps_lines(text)
    names = [re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.I) for word in game_words()]
    phases = sorted(game_phases() - COMMON_WORDS)
    quoted = [re.compile(rf"""["']{re.escape(phase)}["']""") for phase in phases]
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number in allowed:
            continue
        for pattern in names:
            for match in pattern.finditer(line):
                found.append(f"{number}: {match.group(0)}")
        for pattern in quoted:
            for match in pattern.finditer(line):
                found.append(f"{number}: phase {match.group(0)}")
    return found


def test_the_seam_knows_the_games_and_their_phases():
    """The check looks for something: both games' words, and phases of their engines."""
    assert {"triggs", "triumfdrez"} <= set(game_words())
    assert {"extra", "auction", "tricks", "match_over"} <= game_phases()


def test_no_shared_file_names_a_game():
    files = shared_files()
    assert ROOT / "games/services.py" in files and ROOT / "static/js/table.js" in files
    assert ROOT / "templates/games/_live.html" in files
    assert not any(
        slug in str(path.relative_to(ROOT)).split("/")
        for path in files
        for slug in ("triggs", "triumfdrez")
    )
    named = {}
    for path in files:
        found = findings(path)
        if found:
            named[str(path.relative_to(ROOT))] = found
    assert named == {}, "shared files that name a game (ask the registry or the adapter)"


def test_no_shared_python_module_asks_the_mode_enum_for_hidden_hands():
    """Hidden hands, computer players and online play are the registry's questions
    (Game.hidden_hands, Game.online_mode), not `Table.Mode.DIGITAL`'s."""
    asking = []
    for path in shared_files():
        where = str(path.relative_to(ROOT))
        checked = path.suffix == ".py" and where != "games/models.py"
        if checked and re.search(r"Mode\.(DIGITAL|COMPANION)\b", path.read_text()):
            asking.append(where)
    assert asking == []
