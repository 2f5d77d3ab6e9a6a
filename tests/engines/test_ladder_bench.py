"""bench/ladder.py stays runnable (a smoke test; the figures are not checked)."""

import subprocess
import sys
from pathlib import Path

from bench.ladder import LADDERS, main, match, wilson

ROOT = Path(__file__).resolve().parents[2]


def test_the_ladders_go_from_the_weakest_level_up():
    assert list(LADDERS["triumfdrez"]) == ["random", "steady", "strong", "hard"]
    assert list(LADDERS["triggs"]) == ["greedy", "strong", "hard"]


def test_a_small_ladder_reports_margins_win_rates_and_times(capsys):
    results = main(["--deals", "2", "--players", "2,4", "--pairs", "random-steady,greedy-strong"])
    out = capsys.readouterr().out
    assert "steady vs random" in out and "points per hand" in out
    assert "strong vs greedy" in out and "Wilson" in out and "p99" in out
    assert [(r["game"], r["players"]) for r in results] == [
        ("triumfdrez", 2),
        ("triumfdrez", 4),
        ("triggs", 2),
        ("triggs", 4),
    ]
    triggs4 = results[-1]
    assert triggs4["games"] == 8  # 2 deals, each with the upper level in every seat
    low, high = triggs4["ci95"]
    assert 0 <= low <= triggs4["win_rate"] <= high <= 1


def test_wilson_interval():
    low, high = wilson(95, 100)
    assert round(low, 3) == 0.888 and round(high, 3) == 0.978


def test_ladder_runs_as_a_script_from_the_repository_root():
    done = subprocess.run(
        [sys.executable, "bench/ladder.py", "--deals", "1", "--players", "3"]
        + ["--pairs", "steady-strong"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "strong vs steady" in done.stdout


def test_first_is_the_seed_of_the_first_deal(capsys):
    later = main(
        ["--deals", "1", "--first", "7", "--games", "triggs", "--players", "2"]
        + ["--pairs", "greedy-strong"]
    )
    assert "1 deals from seed 7 x 2 seatings" in capsys.readouterr().out
    assert later[0]["first"] == 7
    both = match("triggs", "greedy", "strong", 2, deals=2, first=0)["wins"]
    assert both == sum(match("triggs", "greedy", "strong", 2, 1, first)["wins"] for first in (0, 1))
