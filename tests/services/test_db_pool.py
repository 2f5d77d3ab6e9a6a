"""Database connections stay bounded under ASGI (issue 17, item 1).

Under daphne every HTTP request runs its view on a thread of its own; with persistent
connections (CONN_MAX_AGE > 0) each of those threads kept its connection for good, so a
burst of page loads left as many PostgreSQL connections open as the burst had requests,
until PostgreSQL refused new clients. With psycopg's pool a process never holds more than
DB_POOL_MAX connections, whatever CONN_MAX_AGE the environment still says."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from tests.services.conftest import Browser, Cluster

pytestmark = pytest.mark.services

POOL_MAX = 4
BURST = 40


class PooledCluster(Cluster):
    """One daphne process on a throwaway database, its pool small enough to be seen,
    and the old advice (CONN_MAX_AGE=60) still in its environment."""

    def env(self, redis_url=None):
        env = super().env(redis_url)
        env.pop("REDIS_URL")  # one process: the in-memory channel layer will do
        return {**env, "DB_POOL_MIN": "1", "DB_POOL_MAX": str(POOL_MAX), "CONN_MAX_AGE": "60"}


@pytest.fixture
def single(postgres_url, tmp_path):
    cluster = PooledCluster(postgres_url, "", tmp_path, servers=1, workers=0)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


def connections(cluster, admin) -> int:
    """The server's connections to the test database (not this one)."""
    return admin.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
        (cluster.name,),
    ).fetchone()[0]


def test_a_burst_of_page_loads_holds_at_most_the_pool(single):
    import psycopg

    (server,) = single.servers
    host = Browser(server.base)
    host.get("/es/play/")
    form = {"game": "triggs", "mode": "companion", "players": "2", "name": "Ana"}
    status, url, _body = host.post("/es/play/", form)
    assert status == 200 and "/es/t/" in url, (status, url)
    path = urlsplit(url).path  # the table page: spectators read the table from the database
    peak, stop = [0], threading.Event()

    with psycopg.connect(single.db_url, autocommit=True) as admin:

        def watch():
            while not stop.is_set():
                peak[0] = max(peak[0], connections(single, admin))
                time.sleep(0.01)

        def load(_):
            return Browser(server.base).get(path)[0]

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            for _burst in range(2):
                with ThreadPoolExecutor(BURST) as pool:
                    statuses = list(pool.map(load, range(BURST)))
                assert statuses == [200] * BURST, statuses
        finally:
            stop.set()
            watcher.join(5)
        after = connections(single, admin)

    assert peak[0] <= POOL_MAX + 1, f"{peak[0]} connections during the bursts"
    assert after <= POOL_MAX, f"{after} connections left open after the bursts"
