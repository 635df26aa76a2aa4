"""Fixtures shared by every test layer: a real SQLite file and the service over it, and a
real PostgreSQL database (a throwaway cluster of the session's, a fresh database a test)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.service import Caller, Service, Table
from bot.store import SQLiteStore, Store, backend, utcnow
from bot.store import open_store as open_target
from tests.postgres_cluster import ENV, Cluster

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
CY = Caller(1003, "Cy")
DEE = Caller(1004, "Dee")
PLAYERS = (ADA, BOB, CY, DEE)
TABLE = Table(channel_id=5001, guild_id=9001)

_left_running: list[threading.Thread] = []


def run_bot(
    *args: str, cwd: Path, stdin: str = "", env: dict | None = None
) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` in a fresh process, as a host types it (no token, no
    database set unless ``env`` sets them)."""
    environment = {
        k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BRIDGEKEEPER_DB")
    }
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )


class Clock:
    """The store's clock in a test: time stands still until the test moves it."""

    def __init__(self, start: datetime) -> None:
        self.start = self.now = start

    def __call__(self) -> datetime:
        return self.now

    def at(self, **delta: float) -> None:
        """Set the time to ``delta`` after the start, e.g. ``clock.at(hours=25)``."""
        self.now = self.start + timedelta(**delta)


def pytest_sessionfinish(session, exitstatus):
    """Fail, naming them, on threads still running after the last test.

    A non-daemon thread (an unclosed aiosqlite connection, say) keeps the interpreter
    alive after the summary, and CI waits on it until its time limit: a defect to show.
    """
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(timeout=10)
            if thread.is_alive():
                _left_running.append(thread)
    if _left_running:
        names = ", ".join(thread.name for thread in _left_running)
        print(f"\nthreads left running after the tests: {names}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    if _left_running:  # joining them at exit would hang forever
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(pytest.ExitCode.TESTS_FAILED)


#: the store implementations every test of the store's interface runs on: PostgreSQL's
#: are skipped, saying why, where no server can be started
STORES = ("sqlite", "postgres")
_cluster = Cluster()
_databases = itertools.count(1)
_TEMPLATE = f"bk_template_{os.getpid()}"  # per session: a shared server may run several


def pytest_terminal_summary(terminalreporter):
    """A run without PostgreSQL says so on a line of its own, not only in a skip count."""
    if _cluster.unavailable:
        terminalreporter.write_line(
            f"PostgreSQL tests SKIPPED: {_cluster.unavailable}", yellow=True, bold=True
        )


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (started on first use, stopped at the end), with a
    migrated template database each test's database is copied from."""
    _cluster.start()
    if _cluster.unavailable:
        pytest.skip(f"PostgreSQL: {_cluster.unavailable}")
    template = _cluster.database_url(_TEMPLATE)
    subprocess.run([sys.executable, "-c", _TEMPLATE_DB, "make", _cluster.url, template], check=True)
    yield _cluster
    subprocess.run([sys.executable, "-c", _TEMPLATE_DB, "drop", _cluster.url, template], check=True)
    _cluster.stop()


#: a fresh process (this session's event loops are per test) makes the migrated template
#: each test's database is copied from, and drops it at the end
_TEMPLATE_DB = """
import asyncio, sys
import asyncpg
from bot.store import open_store

async def main(what, admin, url):
    name = url.rpartition("/")[2]
    conn = await asyncpg.connect(admin)
    await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    if what == "make":
        await conn.execute(f"CREATE DATABASE {name}")
    await conn.close()
    if what == "make":
        await (await open_store(url)).close()

asyncio.run(main(*sys.argv[1:]))
"""


async def _admin(cluster: Cluster, sql: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(cluster.url)
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


async def fresh_database(cluster: Cluster) -> str:
    """A new database copied from the migrated template: its URL."""
    name = f"bk_test_{os.getpid()}_{next(_databases)}"
    await _admin(cluster, f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE}")
    return cluster.database_url(name)


async def drop_database(cluster: Cluster, url: str) -> None:
    await _admin(cluster, f"DROP DATABASE {url.rpartition('/')[2]} WITH (FORCE)")


@pytest.fixture
async def postgres_url(postgres):
    """The URL of a fresh, migrated database of this test's own, dropped at the end."""
    url = await fresh_database(postgres)
    yield url
    await drop_database(postgres, url)


@pytest.fixture(scope="module")
def crashable():
    """A PostgreSQL server of this module's own, to crash and restart
    (:meth:`~tests.postgres_cluster.Cluster.crash`, ``restart``) without disturbing the
    session's; skipped, saying why, where none can be started here."""
    if os.environ.get(ENV):
        pytest.skip(f"PostgreSQL: {ENV} names a server these tests must not crash")
    cluster = Cluster()
    cluster.start()
    if cluster.unavailable:
        pytest.skip(f"PostgreSQL: {cluster.unavailable}")
    yield cluster
    cluster.stop()


@pytest.fixture
async def crashable_url(crashable):
    """The URL of a fresh database of this test's own on :func:`crashable` (migrated by
    the first store opened on it), dropped at the end."""
    name = f"bk_crash_{next(_databases)}"
    await _admin(crashable, f"CREATE DATABASE {name}")
    yield crashable.database_url(name)
    await _admin(crashable, f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(params=STORES)
async def database(request, tmp_path):
    """A fresh database of each store in turn (the test runs once for each in
    :data:`STORES`), as :func:`bot.store.open_store` takes it: a SQLite file's path, or
    the URL of a PostgreSQL database of the test's own, dropped at the end."""
    if request.param == "sqlite":
        yield tmp_path / "bridgekeeper.db"
        return
    cluster = request.getfixturevalue("postgres")
    url = await fresh_database(cluster)
    yield url
    await drop_database(cluster, url)


@pytest.fixture
async def open_store(database, tmp_path):
    """Opens stores on :func:`database`, closed at the end: ``await open_store(clock=...)``;
    on SQLite each ``name`` is a file of its own."""
    opened: list[Store] = []

    async def open_(name: str = "bridgekeeper", *, clock=utcnow) -> Store:
        where = tmp_path / f"{name}.db" if backend(database).file else database
        store = await open_target(where, clock=clock)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        await store.close()


@pytest.fixture
async def store(tmp_path):
    """A SQLite store: the service's tests run on the default store; the interface's
    (test_store_contract.py) on every store, through :func:`open_store`."""
    store = await SQLiteStore.open(tmp_path / "bridgekeeper.db")
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    """The service over a real database, with a fixed seed so games are repeatable."""
    return Service(store, images=False, seed=lambda: 12345)
