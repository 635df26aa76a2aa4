"""Fixtures shared by every test layer: a real SQLite file and the service over it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.service import Caller, Service, Table
from bot.store import SQLiteStore, Store, utcnow

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


#: the store implementations every test of the store's interface runs on
STORES = ("sqlite",)


@pytest.fixture(params=STORES)
async def open_store(request, tmp_path):
    """Opens stores of one implementation (the test runs once for each in :data:`STORES`),
    each a fresh database, closed at the end: ``await open_store(clock=...)``."""
    opened: list[Store] = []

    async def open_(name: str = "bridgekeeper", *, clock=utcnow) -> Store:
        store = await SQLiteStore.open(tmp_path / f"{name}.db", clock=clock)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store):
    return await open_store()


@pytest.fixture
async def service(store):
    """The service over a real database, with a fixed seed so games are repeatable."""
    return Service(store, images=False, seed=lambda: 12345)
