"""The rules engines and computer players are pure Python: importing them in a
fresh interpreter never imports Django. A game's web adapter (web.py, beside its
engines, or a web/ package) and its app config (apps.py) are what of its package speaks to
Django."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ["games/triggs", "games/triumfdrez", "games/bots"]


def modules():
    yield "games.engine_errors"
    for folder in PURE:
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name not in ("web.py", "apps.py"):
                yield ".".join(path.relative_to(ROOT).with_suffix("").parts)


@pytest.mark.parametrize("module", list(modules()))
def test_engine_module_imports_no_django(module):
    code = f"import sys, {module}; assert not any(m.split('.')[0] == 'django' for m in sys.modules), sorted(m for m in sys.modules if m.startswith('django'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
