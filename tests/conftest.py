"""Fixtures shared by every test layer: a real SQLite file and the service over it."""

from __future__ import annotations

import pytest

from bot.service import Caller, Service, Table
from bot.store import Store

ADA = Caller(1001, "Ada")
BOB = Caller(1002, "Bob")
CY = Caller(1003, "Cy")
DEE = Caller(1004, "Dee")
PLAYERS = (ADA, BOB, CY, DEE)
TABLE = Table(channel_id=5001, guild_id=9001)


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "bridgekeeper.db")
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    """The service over a real database, with a fixed seed so games are repeatable."""
    return Service(store, images=False, seed=lambda: 12345)
