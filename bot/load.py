"""``python -m bot bench --load``: many servers' games played at once on one SQLite file.

Every game is a real Skybridge game moved through the service (per-game locks, version
checks, one transaction per move, the board rendered), C of them at once, each game's
players moving as soon as the last move is stored. Figures as JSON lines, like the bench.
"""

from __future__ import annotations

import asyncio
import random
import resource
import tempfile
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from bot.figures import Emit, metric, percentile
from bot.scheduler import Scheduler
from bot.selfplay import robots
from bot.service import Service, Table
from bot.store import Store

STORED = 10_000


async def _seed_stored_games(store: Store, count: int) -> None:
    """Finished games as a long-running bot would have them, written in bulk."""
    now = store.now()
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, state, "
            "version, creator_id, created_at, updated_at) "
            "VALUES (?, ?, 'skybridge', 'finished', '{}', ?, '{}', 42, 100, ?, ?)",
            [(1 + i % 500, 1_000_000 + i, i, now, now) for i in range(count)],
        )
        await db.execute(
            "INSERT INTO seats (game_id, seat, user_id, name) "
            "SELECT id, 0, 100, 'P1' FROM games UNION ALL SELECT id, 1, 101, 'P2' FROM games"
        )


async def _open_games(service: Service, servers: int, per_server: int) -> list[Table]:
    tables = []
    seats = robots(4)
    for n in range(servers * per_server):
        table = Table(channel_id=2_000_000 + n, guild_id=1 + n % servers)
        await service.create(table, seats[0], "skybridge", seed=n)
        for caller in seats[1 : 2 + n % 3]:
            await service.join(table, caller)
        await service.start(table, seats[0])
        tables.append(table)
    return tables


async def _play(
    service: Service, tables: list[Table], seconds: float, rng: random.Random
) -> list[float]:
    """Every table plays move after move until time is up; returns each move's latency."""
    by_id = {c.user_id: c for c in robots(4)}
    stop = time.perf_counter() + seconds
    latencies: list[float] = []

    async def game(table: Table) -> None:
        while time.perf_counter() < stop:
            row = await service.store.live_game(table.channel_id)
            if row is None:
                return
            seats = await service.store.seats(row.id)
            caller = by_id[next(s.user_id for s in seats if s.awaiting)]
            moves = await service.legal_moves(table, caller)
            started = time.perf_counter()
            await service.move(table, caller, rng.choice(moves))
            latencies.append(time.perf_counter() - started)

    await asyncio.gather(*(game(t) for t in tables))
    return latencies


async def run(
    emit: Emit = print, games: int = 1000, seconds: float = 20.0, processes: int = 0
) -> None:
    """``processes`` > 0 draws boards in that many worker processes, as the bot does."""
    if processes:
        with ProcessPoolExecutor(processes) as pool:
            await _run(emit, games, seconds, pool)
    else:
        await _run(emit, games, seconds, None)


async def _run(emit: Emit, games: int, seconds: float, pool: Executor | None) -> None:
    servers = max(1, games // 10)
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-load-") as tmp:
        path = Path(tmp) / "load.db"
        store = await Store.open(path)
        await _seed_stored_games(store, STORED)
        await store.close()

        started = time.perf_counter()
        store = await Store.open(path)
        assert await store.integrity() == "ok"
        await Scheduler(Service(store, images=False)).tick()  # what start-up re-arms
        metric(emit, "load.startup_s", time.perf_counter() - started, "s")

        try:
            for images in (False, True):
                service = Service(store, images=images, renderer=pool)
                tables = await _open_games(service, servers, games // servers)
                latencies = await _play(service, tables, seconds, random.Random(7))
                if images:
                    metric(emit, "load.moves_per_s", len(latencies) / seconds, "moves/s")
                    metric(emit, "load.p50_ms", percentile(latencies, 0.50) * 1000, "ms")
                    metric(emit, "load.p99_ms", percentile(latencies, 0.99) * 1000, "ms")
                else:
                    metric(emit, "load.norender_moves_per_s", len(latencies) / seconds, "moves/s")
                    metric(emit, "load.p99_norender_ms", percentile(latencies, 0.99) * 1000, "ms")
                for table in tables:
                    row = await store.live_game(table.channel_id)
                    if row is not None:
                        await store.abandon(row.id, row.version)
        finally:
            await store.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    metric(emit, "load.peak_rss_mb", peak, "MiB")
