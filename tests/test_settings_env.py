"""Settings come from the environment, with safe local defaults."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = (
    "import json, companion.settings as s; print(json.dumps({"
    "'db': s.DATABASES['default'], 'layer': s.CHANNEL_LAYERS['default'], "
    "'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'csrf': s.CSRF_TRUSTED_ORIGINS, "
    "'secret': s.SECRET_KEY}, default=str))"
)
NAMES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "CONN_MAX_AGE",
    "DB_POOL_MIN",
    "DB_POOL_MAX",
    "DB_POOL_TIMEOUT",
)


def settings_with(**env):
    clean = {k: v for k, v in os.environ.items() if k not in NAMES}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result


def test_defaults_are_sqlite_and_in_memory_layer_in_debug():
    out = settings_with()
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["db"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s["layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert s["debug"] is True


def test_database_url_and_redis_url_are_honoured():
    out = settings_with(
        DATABASE_URL="postgres://player:pw@db.example:5433/tables",
        REDIS_URL="redis://cache.example:6380/2",
    )
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["db"]["ENGINE"] == "django.db.backends.postgresql"
    assert (s["db"]["HOST"], s["db"]["PORT"], s["db"]["NAME"]) == ("db.example", 5433, "tables")
    assert s["layer"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    (host,) = s["layer"]["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache.example:6380/2"
    assert host["socket_timeout"] > 10  # a message waits out a short freeze of Redis


def test_production_refuses_to_start_without_a_secret_key():
    out = settings_with(DEBUG="0")
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr


def test_production_settings_from_the_environment():
    out = settings_with(
        DEBUG="0",
        SECRET_KEY="s3cret-for-test",
        ALLOWED_HOSTS="cards.example, www.cards.example",
        CSRF_TRUSTED_ORIGINS="https://cards.example",
    )
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["debug"] is False
    assert s["secret"] == "s3cret-for-test"
    assert s["hosts"] == ["cards.example", "www.cards.example"]
    assert s["csrf"] == ["https://cards.example"]


def test_postgresql_gets_a_bounded_pool_and_no_persistent_connections():
    out = settings_with(
        DATABASE_URL="postgres://player:pw@db.example:5433/tables",
        CONN_MAX_AGE="60",  # the old advice, if still set, is ignored
        DB_POOL_MAX="7",
    )
    assert out.returncode == 0, out.stderr
    db = json.loads(out.stdout)["db"]
    assert db["CONN_MAX_AGE"] == 0
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 7, "timeout": 10.0}
    default = json.loads(
        settings_with(DATABASE_URL="postgres://player:pw@db.example:5433/tables").stdout
    )["db"]
    assert default["OPTIONS"]["pool"]["max_size"] == 10


def test_sqlite_has_no_pool():
    db = json.loads(settings_with(CONN_MAX_AGE="60").stdout)["db"]
    assert db["CONN_MAX_AGE"] == 0
    assert "pool" not in db["OPTIONS"]
