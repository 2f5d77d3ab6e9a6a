"""The admin's list on PostgreSQL (issue 17, item 9): a NUL in its search or a filter
used to reach PostgreSQL, which refuses NUL in text ("cannot contain NUL (0x00)
bytes"), and the page was a 500. SQLite takes a NUL, so the tests of test_admin.py
cannot show it: this one runs the admin in a process of its own on a fresh PostgreSQL
database (the test settings of this run are SQLite's)."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]

QUERIES = [
    "",
    "q=%00",
    "q=Ana%00",
    "game=%00",
    "mode__exact=%00",
    "status__exact=%00",
    "archived__exact=%00",
    "created__gte=%00",
    "%00=1",
]

# Run in the child: a superuser and a table, then the list with each query, with the
# Django test client (which answers a server error with a 500 instead of raising).
SCRIPT = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from games import services
from tests.tables import config

services.create_table("triggs", "companion", config("triggs", "companion", 2), "Ana")
client = Client(raise_request_exception=False)
client.force_login(get_user_model().objects.create_superuser("boss", password=None))
answers = {}
for query in json.loads(sys.argv[1]):
    response = client.get("/es/admin/games/table/?" + query, follow=True)
    answers[query] = [response.status_code, "Ana" in response.content.decode()]
print(json.dumps(answers))
"""


def _run(args, env, timeout=180):
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_nul_in_the_lists_search_or_filters_is_not_a_500_on_postgresql(postgres_url):
    import psycopg

    name = f"companion_test_{secrets.token_hex(5)}"
    env = {
        "DATABASE_URL": urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}")),
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DEBUG": "1",
        "LOG_LEVEL": "CRITICAL",
        "PYTHONPATH": str(ROOT),
    }
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        migrate = _run(["manage.py", "migrate", "--noinput", "-v0"], env)
        assert migrate.returncode == 0, migrate.stderr[-3000:]
        child = _run(["-c", SCRIPT, json.dumps(QUERIES)], env)
        assert child.returncode == 0, child.stderr[-3000:]
        answers = json.loads(child.stdout.strip().splitlines()[-1])
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert {query: status for query, (status, _seen) in answers.items()} == dict.fromkeys(
        QUERIES, 200
    )
    # The NUL is dropped: an empty search or game filter lists every table.
    for query in ("", "q=%00", "game=%00", "%00=1"):
        assert answers[query][1], query
