"""``python -m bot bench --web``: the games' pages under readers, as JSON lines.

One process serves the pages (:func:`bot.web.serving.serving`, as ``python -m bot web``
does) of a Bridges and Boats game ``moves`` moves in, boards drawn in threads. The
readers are another process (:data:`_READERS`, so their own work is not counted on the
server's core), ``readers`` of them at once over loopback, and a request is timed from
its sending to the whole answer read:

* **paced** (``web.page_p50_ms``, ``web.page_p99_ms``, ``web.board_p50_ms``,
  ``web.board_p99_ms``): each reader waits a random 0-2 s, then loads the game's page,
  then its board (the latest position's PNG, no cached copy), and again, as people
  reading a game do: ``readers`` requests a second of each. Meanwhile the game moves
  every :data:`MOVE_EVERY` seconds and an open page's live stream (Server-Sent Events)
  hears each move: ``web.update_p50_ms``, ``web.update_p99_ms`` time a move from its
  request to its version reaching that stream. On SQLite the pages' own process moves
  (one process holds the file); with ``--db postgresql://...`` a second store on that
  database moves, as another process would, and the move crosses PostgreSQL's
  LISTEN/NOTIFY. ``web.loadavg_start`` is the machine's 1-minute load average before
  (other work on the machine inflates every wall-clock time).
* **flat out** (``web.pages_per_s``): every reader asks for the page again the moment
  its answer is read: the most pages a second one process serves, and the CPU the
  serving process spends on each (``web.cpu_ms_per_page``: steadier than wall-clock
  figures on a busy machine).

``web.gif_cpu_ms`` is the CPU (``time.process_time``, every thread of the process) the
GIF of the whole game costs, ``moves`` moves, one frame a position, drawn once.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.config import Web
from bot.service import Reply, Service, Table
from bot.store import Store, Target, is_file, open_store
from bot.tools.figures import Emit, metric, percentile
from bot.tools.selfplay import robots
from bot.web.serving import serving

GAME = "bridges-and-boats"
#: seconds between the moves whose live updates are timed
MOVE_EVERY = 0.2
#: the game's seed and the moves' chance: the same game every run (it lasts 216+ plies)
SEED = 7

_READERS = """
import asyncio, json, random, sys, time
import aiohttp

async def main(base, paced, readers, seconds):
    times = {"page": [], "board": []}
    served = 0
    async def reader(http, rng, until):
        nonlocal served
        while time.perf_counter() < until:
            if paced:
                await asyncio.sleep(rng.uniform(0, 2))
            for kind, path in (("page", base), ("board", base + "/board.png")):
                started = time.perf_counter()
                async with http.get(path) as answer:
                    await answer.read()
                    assert answer.status == 200, answer.status
                times[kind].append(time.perf_counter() - started)
                served += 1
                if not paced:
                    break
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        started = time.perf_counter()
        until = started + seconds
        await asyncio.gather(*(reader(http, random.Random(n), until) for n in range(readers)))
        elapsed = time.perf_counter() - started
    print(json.dumps({"times": times, "served": served, "seconds": elapsed}))

base, mode, readers, seconds = sys.argv[1:]
asyncio.run(main(base, mode == "paced", int(readers), float(seconds)))
"""


async def _readers(page: str, paced: bool, readers: int, seconds: float) -> dict:
    """The readers' process, run to its end: each request's time, and how many."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _READERS,
        page,
        "paced" if paced else "flat",
        str(readers),
        str(seconds),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"the readers' process failed ({child.returncode})")
    return json.loads(out)


class Mover:
    """Moves one game on, picking uniformly among legal moves, as its players."""

    def __init__(self, service: Service, table: Table) -> None:
        self.service, self.table = service, table
        self.players = {c.user_id: c for c in robots(2)}
        self.rng = random.Random(SEED)
        self.reply: Reply | None = None

    async def start(self) -> int:
        """Open, fill and start the game; its id."""
        first, second = self.players.values()
        await self.service.lobby.create(self.table, first, GAME, seed=SEED)
        await self.service.lobby.join(self.table, second)
        self.reply = await self.service.lobby.start(self.table, first)
        return (await self.service.games.active(self.table)).row.id

    @property
    def playable(self) -> bool:
        return self.reply is not None and self.reply.playable

    async def move(self) -> int:
        """One move; the version it leaves the game at."""
        assert self.reply is not None and self.reply.playable
        caller = self.players[self.rng.choice(self.reply.awaiting)]
        options = await self.service.play.legal_moves(self.table, caller)
        self.reply = await self.service.play.move(self.table, caller, self.rng.choice(options))
        assert self.reply.version is not None
        return self.reply.version


async def _updates(mover: Mover, events: str, moves: int) -> list[float]:
    """Each move's time from its request to its version reaching the open stream
    ``events``, for up to ``moves`` moves, one each :data:`MOVE_EVERY` seconds."""
    heard: dict[int, float] = {}
    arrived = asyncio.Event()
    delays: list[float] = []
    async with aiohttp.ClientSession() as http, http.get(events) as stream:

        async def listen() -> None:
            while line := await stream.content.readline():
                text = line.decode().strip()
                if text.startswith("data: "):
                    heard[int(text.removeprefix("data: "))] = time.perf_counter()
                    arrived.set()

        listening = asyncio.create_task(listen())
        try:
            await asyncio.wait_for(arrived.wait(), 10)  # the version now: listening
            for _ in range(moves):
                if not mover.playable:
                    break
                started = time.perf_counter()
                version = await mover.move()
                async with asyncio.timeout(10):
                    while version not in heard:
                        arrived.clear()
                        await arrived.wait()
                delays.append(heard[version] - started)
                await asyncio.sleep(MOVE_EVERY)
        finally:
            listening.cancel()
    return delays


async def run(
    emit: Emit = print,
    db: Target | None = None,
    *,
    readers: int = 100,
    seconds: float = 10.0,
    moves: int = 100,
) -> None:
    """The pages' figures, on a temporary SQLite file or on ``db`` (a scratch
    PostgreSQL database: the game stays in it)."""
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-bench-web-") as tmp:
        where = db if db is not None else Path(tmp) / "web.db"
        stores: list[Store] = [await open_store(where)]
        try:
            service = Service(stores[0])
            if is_file(where):  # one process holds the file: it moves the game itself
                moving = service
            else:  # another process's store moves it, as a second bot process would
                stores.append(await open_store(where))
                moving = Service(stores[1], images=False)
            mover = Mover(moving, Table(channel_id=int(time.time() * 1000), guild_id=1))
            game_id = await mover.start()
            for _ in range(moves):
                await mover.move()
            await _figures(emit, service, mover, game_id, readers, seconds, moves)
        finally:
            for store in stores:
                await store.close()


async def _figures(
    emit: Emit,
    service: Service,
    mover: Mover,
    game_id: int,
    readers: int,
    seconds: float,
    moves: int,
) -> None:
    store = "sqlite" if mover.service is service else "postgresql"
    metric(emit, "web.loadavg_start", os.getloadavg()[0], "processes")
    async with serving(service, Web(port=0)) as served:
        page = served.listening + await service.pages.path(game_id)
        game = await service.games.load(game_id)
        started = time.process_time()
        assert await service.pages.animation(game) is not None
        metric(emit, "web.gif_cpu_ms", (time.process_time() - started) * 1000, "ms", moves=moves)

        reading = asyncio.create_task(_readers(page, True, readers, seconds))
        delays = await _updates(mover, page + "/events", max(1, int(seconds / MOVE_EVERY) - 5))
        paced = await reading
        for kind in ("page", "board"):
            times = paced["times"][kind]
            for name, q in (("p50", 0.50), ("p99", 0.99)):
                value = percentile(times, q) * 1000
                metric(emit, f"web.{kind}_{name}_ms", value, "ms", readers=readers)
        metric(emit, "web.update_p50_ms", percentile(delays, 0.50) * 1000, "ms", store=store)
        metric(emit, "web.update_p99_ms", percentile(delays, 0.99) * 1000, "ms", store=store)

        cpu = time.process_time()
        flat = await _readers(page, False, readers, seconds)
        cpu = time.process_time() - cpu
        rate = flat["served"] / flat["seconds"]
        metric(emit, "web.pages_per_s", rate, "pages/s", readers=readers)
        metric(emit, "web.cpu_ms_per_page", cpu / flat["served"] * 1000, "ms")
