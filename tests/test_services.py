"""The real parts a deployment uses: the site migrates on PostgreSQL, and the
channel layer carries group messages through Redis. Skipped with a reason when
the service is not reachable; required under REQUIRE_SERVICES=1 (CI)."""

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from channels_redis.pubsub import RedisPubSubChannelLayer

ROOT = Path(__file__).resolve().parents[1]


def test_site_migrates_and_checks_on_postgresql(postgres_url):
    name = f"companion_ci_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        parts = urlsplit(postgres_url)
        url = urlunsplit(parts._replace(path=f"/{name}"))
        env = {**os.environ, "DATABASE_URL": url}
        for command in (["migrate", "--noinput"], ["check", "--database", "default"]):
            out = subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert out.returncode == 0, out.stderr
        with psycopg.connect(url) as db:
            tables = {row[0] for row in db.execute("SELECT tablename FROM pg_tables")}
        assert "django_migrations" in tables
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_group_message_round_trip_through_redis(redis_url):
    layer = RedisPubSubChannelLayer(hosts=[redis_url], prefix=f"test-{uuid.uuid4().hex[:8]}")
    channel = await layer.new_channel()
    await layer.group_add("table-ABCDEF", channel)
    await layer.group_send("table-ABCDEF", {"type": "table.version", "version": 7})
    message = await layer.receive(channel)
    assert message == {"type": "table.version", "version": 7}
    await layer.flush()
