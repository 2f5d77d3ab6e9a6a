"""`manage.py check --deploy` is clean under the production settings the README
documents (issue 17, item 14): DEBUG=0, a long random SECRET_KEY, the public host and
origin, secure cookies."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# our settings, and what test tools set for themselves (Playwright's sync API sets
# DJANGO_ALLOW_ASYNC_UNSAFE in this process): none of it is a production setting
OURS = (
    *("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECURE_", "DB_POOL"),
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def test_check_deploy_is_clean_under_the_documented_production_settings():
    env = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="cards.example",
        CSRF_TRUSTED_ORIGINS="https://cards.example",
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    print(out.stdout, out.stderr)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "System check identified no issues" in out.stdout
