"""bench/engines_triggs.py stays runnable (a smoke test; the figures are not checked)."""

import subprocess
import sys
from pathlib import Path

from bench.engines_triggs import main

ROOT = Path(__file__).resolve().parents[2]


def test_bench_main_reports_figures(capsys):
    result = main(3, rounds=1)
    out = capsys.readouterr().out
    assert "games/s" in out and "legal_actions median" in out and "apply median" in out
    assert result["games_per_second"] > 0
    assert result["actions_per_game"] > 20
    assert result["legal_actions_median_us"] > 0 and result["apply_median_us"] > 0


def test_bench_runs_as_a_script_from_the_repository_root():
    done = subprocess.run(
        [sys.executable, "bench/engines_triggs.py", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "games/s" in done.stdout
