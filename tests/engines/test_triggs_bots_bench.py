"""bench/bots.py stays runnable (a smoke test; the figures are not checked)."""

import subprocess
import sys
from pathlib import Path

from bench.bots import main, wilson

ROOT = Path(__file__).resolve().parents[2]


def test_bench_main_reports_the_win_rate_and_decision_time(capsys):
    result = main(3)
    out = capsys.readouterr().out
    assert "strong beats greedy in" in out and "95% CI" in out and "decision median" in out
    assert result["games"] == 6
    low, high = result["ci95"]
    assert 0 <= low <= result["win_rate"] <= high <= 1
    assert result["decision_median_us"] > 0


def test_wilson_interval():
    low, high = wilson(95, 100)
    assert round(low, 3) == 0.888 and round(high, 3) == 0.978


def test_bench_runs_as_a_script_from_the_repository_root():
    done = subprocess.run(
        [sys.executable, "bench/bots.py", "2"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "strong beats greedy" in done.stdout
    assert "triumfdrez bots, 4 players: strong's margin" in done.stdout  # on 2 hands too
