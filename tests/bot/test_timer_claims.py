"""Timers shared by several processes on one database: each due wait is claimed by one
scheduler, whatever is due fires once, and a scheduler that dies holding claims loses
nothing: its claims run out and another scheduler does the work. Run on every store (on
SQLite, two stores on one file stand for what would be two processes on PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.clocks import Clocks
from bot.scheduler import BATCH, LEASE, Scheduler
from bot.service import Service
from bot.store import Store
from tests.conftest import ADA, BOB, Clock, Table

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
GAMES = 6


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
async def schedulers(open_store, clock):
    """Two schedulers, each with its own store on the same database."""
    stores = [await open_store(clock=clock), await open_store(clock=clock)]
    return [Scheduler(Service(s, images=False, seed=lambda: 12345)) for s in stores]


async def open_games(service: Service) -> list[Table]:
    """Games on a 1-hour clock, warned 15 minutes before, played for at the hour."""
    tables = [Table(channel_id=7000 + n, guild_id=9001) for n in range(GAMES)]
    for table in tables:
        await service.create(table, ADA, "skybridge", clocks=Clocks(move_hours=1))
        await service.join(table, BOB)
        await service.start(table, ADA)
    return tables


async def rows(store: Store, sql: str) -> list[tuple]:
    """Parameterless SQL both dialects read alike, on either store."""
    return [tuple(r) for r in await store.rows(sql)]


async def test_two_schedulers_ticking_at_once_do_each_timer_once(schedulers, clock):
    one, two = schedulers
    await open_games(one.service)
    clock.at(minutes=46)  # every game's warning is due
    await asyncio.gather(one.tick(), two.tick())
    warnings = await rows(one.store, "SELECT game_id, user_id FROM outbox WHERE kind = 'warning'")
    assert len(warnings) == len(set(warnings)) == GAMES
    clock.at(minutes=61)  # every deadline
    first, second = await asyncio.gather(one.tick(), two.tick())
    assert len(first) + len(second) == GAMES, "each deadline played once, by one of them"
    played = await rows(one.store, "SELECT game_id FROM moves WHERE seq > 0 ORDER BY game_id")
    assert len(played) == GAMES and len(set(played)) == GAMES


async def test_a_scheduler_that_dies_holding_claims_loses_nothing(schedulers, clock):
    one, two = schedulers
    await open_games(one.service)
    clock.at(minutes=46)
    # the first process claims every due warning, then is killed before sending any
    dead = await one.store.claim_due_waits(clock(), clock() + LEASE, 100)
    assert len(dead) == GAMES
    await two.tick()
    assert await rows(two.store, "SELECT id FROM outbox") == [], "claims hold meanwhile"
    clock.at(minutes=46, seconds=LEASE.total_seconds())
    await two.tick()
    warned = await rows(two.store, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert len(warned) == len(set(warned)) == GAMES, "once the claims ran out, all were sent"
    clock.at(minutes=61)
    posted = await two.tick()
    assert len(posted) == GAMES and all("ran out of time" in p.reply.text for p in posted)
    assert await one.tick() == [] and await two.tick() == [], "each done once"
    assert len(await rows(one.store, "SELECT id FROM outbox WHERE kind = 'warning'")) == GAMES


async def test_a_scheduler_claims_a_burst_in_batches_and_does_all_of_it(open_store, clock):
    store = await open_store(clock=clock)
    scheduler = Scheduler(Service(store, images=False, seed=lambda: 12345))
    service = scheduler.service
    tables = [Table(channel_id=7100 + n, guild_id=9001) for n in range(30)]
    for table in tables:
        await service.create(table, ADA, "skybridge", clocks=Clocks(move_hours=1))
        await service.join(table, BOB)
        await service.start(table, ADA)
    clock.at(hours=2)  # the bot was down: 30 missed deadlines, more than a batch
    assert await scheduler.tick() == [], "a deadline missed while down is warned first"
    warned = await rows(store, "SELECT game_id FROM outbox WHERE kind = 'warning'")
    assert len(warned) == len(set(warned)) == len(tables) > BATCH, "all in one tick"
    clock.at(hours=3)
    posted = await scheduler.tick()
    assert sorted(p.table.channel_id for p in posted) == [t.channel_id for t in tables]
