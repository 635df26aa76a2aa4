"""``python -m bot bench --load --db postgresql://… --bot-processes 1,2,4``: the load bench
on PostgreSQL, with its games shared out between several bot processes.

The run first measures SQLite as ``bench --load`` does (one process, the seeded file),
then copies that same seeded database into the PostgreSQL database given (which must be
empty: a scratch database) with ``migrate-store``, times the floor there (one bare
INSERT + COMMIT, ``postgres.commit_p50_ms``), and then, for each count N, starts N bot
processes (``python -m bot.tools.load_processes --child``: the service and the store on
their own connection pool, drawing boards in their own workers), each playing 1/N of
the games. Every process measures the same window (the machine's monotonic clock is one
for all), and the figures are the whole's: moves completed by all, latencies of all, CPU
of all the bot processes and their workers (not the database server's). Every figure
carries ``store`` and ``bot_processes``, so one run's lines compare SQLite with
PostgreSQL at 1, 2 and 4 processes on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.hosting.migrate_store import migrate_store
from bot.store import open_store
from bot.tools import load
from bot.tools.bench import postgres_floor
from bot.tools.driving import Memory, Players, Run, renderer, thinking
from bot.tools.figures import Emit, metric
from bot.tools.seeding import STORED, seed

#: seconds any one answer of a bot process may take (opening 1,000 games takes a while)
ANSWER_WAIT = 600.0
#: the longest answer line: a window's every latency (tens of thousands of moves)
ANSWER_BYTES = 64 * 2**20


class Child:
    """One bot process of the bench, answering one JSON line per request."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, url: str, first: int, games: int, servers: int, args: list[str]) -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.tools.load_processes",
            "--child",
            "--db",
            url,
            "--first",
            str(first),
            "--games",
            str(games),
            "--servers",
            str(servers),
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=ANSWER_BYTES,
        )
        return cls(proc)

    async def ask(self, **request: Any) -> dict[str, Any]:
        # started with both pipes (:meth:`start`)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        await self.proc.stdin.drain()
        line = await asyncio.wait_for(self.proc.stdout.readline(), ANSWER_WAIT)
        if not line:
            raise RuntimeError(f"a bot process of the bench died answering {request}")
        return json.loads(line)


class Processes:
    """The bench's games played by several bot processes at once (a
    :class:`~bot.tools.load.Playing`)."""

    def __init__(self, children: list[Child]) -> None:
        self.children = children

    async def _all(self, **request: Any) -> list[dict[str, Any]]:
        return await asyncio.gather(*(child.ask(**request) for child in self.children))

    async def open(self, images: bool) -> None:
        await self._all(op="open", images=images)

    async def play(self, begin: float, seconds: float, think: float | None, seed: int) -> Run:
        answers = await self._all(op="play", begin=begin, seconds=seconds, think=think, seed=seed)
        return Run.joined([Run.from_json(a["run"]) for a in answers])

    async def retire(self) -> None:
        await self._all(op="retire")

    async def close(self) -> float:
        """Stop every process; the sum of their peak memory (MiB), workers included."""
        peaks = await self._all(op="quit")
        for child in self.children:
            await child.proc.wait()
        return sum(p["peak_rss_mb"] for p in peaks)


async def run(
    emit: Emit,
    url: str,
    counts: list[int],
    games: int = 1000,
    seconds: float = 20.0,
    processes: int = 0,
    rate: float = 200.0,
    stored: int = STORED,
    ai: tuple[float, str] = (0.0, "hard"),
) -> None:
    """SQLite in this process, then PostgreSQL at each count of bot processes; each bot
    process draws boards in ``processes`` workers of its own (0: in threads)."""
    metric(emit, "load.loadavg_start", os.getloadavg()[0], "processes")
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-load-") as tmp:
        path = Path(tmp) / "load.db"
        await seed(path, stored)
        await load.measure_file(
            emit, path, games, seconds, processes, rate, ai, store="sqlite", bot_processes=1
        )
        with contextlib.redirect_stdout(sys.stderr):  # its summary is not a figure
            await migrate_store(path, url)
    floor = await postgres_floor(url, 200)
    metric(emit, "postgres.commit_p50_ms", statistics.median(floor) * 1000, "ms")
    servers = max(1, games // 10)
    args = ["--processes", str(processes), "--ai-share", str(ai[0]), "--ai-level", ai[1]]
    for count in counts:
        shares = [games // count + (n < games % count) for n in range(count)]
        firsts = [sum(shares[:n]) for n in range(count)]
        children = [
            await Child.start(url, first, share, servers, args)
            for first, share in zip(firsts, shares, strict=True)
        ]
        players = Processes(children)
        labels = {"store": "postgres", "bot_processes": count}
        try:
            await load.measure(emit, players, games, seconds, rate, ai, processes > 0, **labels)
        finally:
            peak = await players.close()
        metric(emit, "load.peak_rss_mb", peak, "MiB", **labels)


async def _child(args: argparse.Namespace) -> None:
    """A bot process of the bench: its share of the games, driven by the bench's requests
    on stdin, each answered by one line on stdout."""
    store = await open_store(args.db)
    ai = (args.ai_share, args.ai_level)
    tables = load.tables_of(args.games, args.first, args.servers)
    loop = asyncio.get_running_loop()
    try:
        with renderer(args.processes) as pool, thinking(ai) as minds:
            memory = Memory(pool)
            watcher = asyncio.create_task(memory.watch())
            players = Players(store, tables, pool, minds, ai, first=args.first)
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                request = json.loads(line)
                op = request.pop("op")
                answer: dict[str, Any] = {"ok": True}
                if op == "open":
                    await players.open(**request)
                elif op == "play":
                    answer["run"] = (await players.play(**request)).to_json()
                elif op == "retire":
                    await players.retire()
                elif op == "quit":
                    watcher.cancel()
                    memory.sample()
                    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                    answer["peak_rss_mb"] = max(memory.peak, own)
                sys.stdout.write(json.dumps(answer) + "\n")
                sys.stdout.flush()
                if op == "quit":
                    break
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.load_processes")
    parser.add_argument("--child", action="store_true", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--first", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--servers", type=int, required=True)
    parser.add_argument("--processes", type=int, default=0)
    parser.add_argument("--ai-share", type=float, default=0.0)
    parser.add_argument("--ai-level", default="hard")
    asyncio.run(_child(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
