"""``python -m bot bench --load``: many servers' games played at once on one SQLite file.

Every game is a real Skybridge game moved through the service (per-game locks, version
checks, one transaction per move, the board rendered) on one SQLite file that already
holds 10,000 realistic stored games. A move is timed from the request to the reply, as a
player's last click in the move picker makes it: the legal moves checked against the
button's position, then the move itself (load, rules, one transaction, the board drawn).

Two ways of driving the games, reported apart because they answer different questions:

* **paced** (``load.moves_per_s``, ``load.p50_ms``, ``load.p99_ms``, ``load.p99_norender_ms``):
  each game's players think between moves, an exponential time with mean
  ``games / rate`` seconds from one move to the next, so ``games`` games offer ``rate``
  moves a second between them, as people do. (Counted from the reply instead, the wait
  itself would lower the rate offered: by 1% at 1,000 games and a 25 ms wait.) A move
  is never asked before the previous reply is in. Latency is what a player waits; if
  the bot cannot keep up, waits grow and fewer moves finish, and both figures say so.
* **flat out** (``load.capacity_moves_per_s``): every game moves again the instant its
  last reply arrives. This measures the most moves a second the bot completes; each
  move's latency there is mostly time spent queueing behind the other games (with
  ``games`` requests always waiting, latency = games / throughput), so it is not a
  figure a player would see.

Before each phase every game is played on by 0-35 random moves (untimed), so boards of
every stage are drawn, not only the cheap early ones. Throughput only counts moves whose
reply arrives inside the measured window, divided by
the window's length; every move requested inside the window is timed, however late its
reply. Figures as JSON lines, like the bench.

CPU per move flat out (``load.cpu_ms_per_move``) is split: ``load.cpu_drawing_ms_per_move``
is the drawing workers' share, the rest is the bot's process (the service, the store's
thread, handing boards out). ``load.loadavg_start`` is the machine's 1-minute load average
before the run: on a shared machine, other work takes cores (the niced drawing workers
first), and wall-clock figures mean little without it.
"""

from __future__ import annotations

import asyncio
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Protocol

from bot.service import Table
from bot.store import SQLiteStore
from bot.tools.driving import Memory, Players, Run, renderer, thinking
from bot.tools.figures import Emit, metric, percentile
from bot.tools.seeding import STORED, seed
from bot.tools.startup import report_startup


class Playing(Protocol):
    """Whoever plays the bench's games: this process (:class:`~bot.tools.driving.Players`),
    or several bot processes at once (:mod:`bot.tools.load_processes`)."""

    async def open(self, images: bool) -> None: ...

    async def play(self, begin: float, seconds: float, think: float | None, seed: int) -> Run: ...

    async def retire(self) -> None: ...


def tables_of(games: int, first: int = 0, servers: int | None = None) -> list[Table]:
    """Games ``first`` to ``first + games`` of the bench's, each at a table of its own,
    ten to a server."""
    servers = servers or max(1, games // 10)
    return [
        Table(channel_id=2_000_000 + n, guild_id=1 + n % servers)
        for n in range(first, first + games)
    ]


async def run(
    emit: Emit = print,
    games: int = 1000,
    seconds: float = 20.0,
    processes: int = 0,
    rate: float = 200.0,
    stored: int = STORED,
    ai: tuple[float, str] = (0.0, "hard"),
) -> None:
    """``processes`` > 0 draws boards in that many worker processes (the bot's
    ``BRIDGEKEEPER_RENDER_PROCESSES``); 0 in threads. ``rate``: moves a second the
    paced phases offer. ``ai``: the share of seats AI players take, and their level;
    they think in the bot's AI worker process, and a person's latency is timed apart
    from theirs (``load.ai_p99_ms``)."""
    metric(emit, "load.loadavg_start", os.getloadavg()[0], "processes")
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-load-") as tmp:
        path = Path(tmp) / "load.db"
        await seed(path, stored)
        report_startup(emit, "load", path)
        await measure_file(emit, path, games, seconds, processes, rate, ai)


async def measure_file(
    emit: Emit,
    path: Path,
    games: int,
    seconds: float,
    processes: int,
    rate: float,
    ai: tuple[float, str],
    **labels: object,
) -> None:
    """The bench's games played by this process on the SQLite file at ``path``."""
    with renderer(processes) as pool, thinking(ai) as minds:
        memory = Memory(pool)
        watcher = asyncio.create_task(memory.watch())
        store = await SQLiteStore.open(path)
        try:
            players = Players(store, tables_of(games), pool, minds, ai)
            await measure(emit, players, games, seconds, rate, ai, pool is not None, **labels)
        finally:
            watcher.cancel()
            await store.close()
        memory.sample()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    metric(emit, "load.peak_rss_mb", max(memory.peak, own), "MiB", **labels)


async def measure(
    emit: Emit,
    players: Playing,
    games: int,
    seconds: float,
    rate: float,
    ai: tuple[float, str],
    drawing: bool,
    **labels: object,
) -> None:
    """Both phases, without boards and with, and their figures (``labels`` added to each:
    which store, how many bot processes). ``drawing``: boards are drawn in worker
    processes, whose share of the CPU is reported apart."""
    warmup = min(5.0, seconds / 4)
    for images in (False, True):
        await players.open(images)
        paced = await players.play(time.perf_counter() + warmup, seconds, games / rate, 7)
        begin = time.perf_counter() + warmup
        flat = await players.play(begin, seconds, None, 8)
        machine = flat.machine_cores()
        await players.retire()
        suffix = "" if images else "_norender"

        def put(name: str, value: float, unit: str) -> None:
            metric(emit, name, value, unit, **labels)

        put(
            "load.moves_per_s" if images else "load.norender_moves_per_s",
            paced.moves_per_s(),
            "moves/s",
        )
        put(f"load.p50{suffix}_ms", percentile(paced.latencies, 0.50) * 1000, "ms")
        if images and ai[0]:
            put("load.ai_share", ai[0], "seats")
            put("load.ai_p99_ms", percentile(paced.ai_latencies, 0.99) * 1000, "ms")
        put(f"load.p99{suffix}_ms", percentile(paced.latencies, 0.99) * 1000, "ms")
        put(f"load.capacity{suffix}_moves_per_s", flat.moves_per_s(), "moves/s")
        put(f"load.capacity{suffix}_p99_ms", percentile(flat.latencies, 0.99) * 1000, "ms")
        put(f"load.cpu{suffix}_ms_per_move", flat.cpu_ms_per_move(), "ms")
        if images and drawing:
            put("load.cpu_drawing_ms_per_move", flat.drawing_ms_per_move(), "ms")
        for phase, done in (("", paced), ("capacity_", flat)):
            put(f"load.{phase}cores_busy{suffix}", done.cores_busy(), "cores")
        if machine is not None:
            put(f"load.capacity_machine_cores_busy{suffix}", machine[0], "cores")
            put(f"load.capacity_machine_cores_stolen{suffix}", machine[1], "cores")
