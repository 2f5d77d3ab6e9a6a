"""The systemd units in deploy/ start what the README's production block starts (which
tests/deploy runs), so that a unit cannot drift from the tested commands."""

import re
from pathlib import Path

from tests.deploy.conftest import production_commands

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def exec_start(unit: str) -> list[str]:
    text = (DEPLOY / unit).read_text()
    (line,) = re.findall(r"^ExecStart=(.*)$", text, re.M)
    words = line.split()
    assert words[0] == "/srv/companion/.venv/bin/python"
    return [".venv/bin/python", *words[1:]]


def test_the_server_unit_runs_the_readmes_server_command_on_its_port():
    _exported, commands = production_commands()
    serve = [c for c in commands if "companion.serve" in c]
    unit = exec_start("companion@.service")
    assert all(c[:-1] == unit[:-1] for c in serve) and unit[-1] == "%i"


def test_the_worker_unit_runs_the_readmes_worker_command():
    _exported, commands = production_commands()
    workers = [c for c in commands if c[1:4] == ["manage.py", "procrastinate", "worker"]]
    assert len(workers) >= 1
    assert all(c == exec_start("companion-worker@.service") for c in workers)
