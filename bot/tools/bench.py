"""``python -m bot bench``: speed figures, one JSON object per line.

Each line is ``{"metric": ..., "value": ..., "unit": ...}``. Moves are timed through
the service on a real SQLite file (persistence included, rendering excluded); renders
are timed on positions from random games; ``sqlite.commit_p50_ms`` is the floor: one
bare INSERT + COMMIT of a move-sized row on a database set up like the store's
(``synchronous = FULL``), and ``sqlite.commit_normal_p50_ms`` the same with ``NORMAL``:
what surviving a power cut costs each commit. ``<game>.move_vs_commit`` is a move's
p50 over that floor; ``<game>.move_round_trips`` counts the trips to the database's
thread a move makes, loading the game included, and ``<game>.record_round_trips`` those
of its transaction alone. With ``--db postgresql://...`` the moves are played on that
database (a scratch one: they stay in it) and the floor is ``postgres.commit_p50_ms``, the
same bare INSERT + COMMIT there.

Boards: ``<game>.render_p50_ms`` is wall time, which other work on the machine inflates;
``<game>.render_cpu_ms`` is the same boards' CPU time (p50, ``time.process_time``), and
``<game>.render_first_ms`` the first board of a fresh process (a subprocess that imports
the renderers, then draws one mid-game board): what a drawing worker's first move waits
for, fonts, caches and palettes included.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import aiosqlite

import engine
from bot.service import Reply, Service, Table
from bot.store import Store, Target, is_file, open_store
from bot.tools import bench_loops
from bot.tools.figures import Emit, metric, percentile
from bot.tools.selfplay import play_random
from renders import looks, render

T = TypeVar("T")
P = ParamSpec("P")
In = TypeVar("In")
Out = TypeVar("Out")


async def _sqlite_floor(path: Path, rows: int, synchronous: str = "FULL") -> list[float]:
    db = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        for pragma in ("journal_mode = WAL", f"synchronous = {synchronous}"):
            await db.execute(f"PRAGMA {pragma}")
        await db.execute("CREATE TABLE t (game INTEGER, seq INTEGER, action TEXT, state TEXT)")
        state = "x" * 1200
        times = []
        for seq in range(rows):
            started = time.perf_counter()
            await db.execute("BEGIN IMMEDIATE")
            await db.execute("INSERT INTO t VALUES (1, ?, 'red tall b2', ?)", (seq, state))
            await db.execute("COMMIT")
            times.append(time.perf_counter() - started)
        return times
    finally:
        await db.close()


async def postgres_floor(url: str, rows: int) -> list[float]:
    """The floor on PostgreSQL: one bare INSERT + COMMIT of a move-sized row into a
    temporary table, on one connection (the server's own durability settings)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        # a plain table (a temporary one skips the WAL), dropped at the end
        await conn.execute("CREATE TABLE bench_floor (game int, seq int, action text, state text)")
        state = "x" * 1200
        times = []
        for seq in range(rows):
            started = time.perf_counter()
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO bench_floor VALUES (1, $1, 'red tall b2', $2)", seq, state
                )
            times.append(time.perf_counter() - started)
        return times
    finally:
        await conn.execute("DROP TABLE IF EXISTS bench_floor")
        await conn.close()


async def _sqlite_floors(emit: Emit, folder: Path, rows: int) -> list[float]:
    """The floor in a file of ``folder`` (a temporary one), with ``synchronous = FULL`` as
    the store's, and the same with ``NORMAL``: what surviving a power cut costs."""
    floor = await _sqlite_floor(folder / "floor.db", rows)
    metric(emit, "sqlite.commit_p50_ms", statistics.median(floor) * 1000, "ms")
    normal = await _sqlite_floor(folder / "normal.db", rows, "NORMAL")
    metric(emit, "sqlite.commit_normal_p50_ms", statistics.median(normal) * 1000, "ms")
    return floor


async def _postgres_floors(emit: Emit, url: str, rows: int) -> list[float]:
    """The floor on the database the moves are timed on."""
    floor = await postgres_floor(url, rows)
    metric(emit, "postgres.commit_p50_ms", statistics.median(floor) * 1000, "ms")
    return floor


def _counted(
    store: Store, call: Callable[P, Awaitable[T]], into: list[int]
) -> Callable[P, Coroutine[Any, Any, T]]:
    """``call``, noting in ``into`` how many trips to the database each call made."""

    async def counted(*args: P.args, **kwargs: P.kwargs) -> T:
        before = store.round_trips
        try:
            return await call(*args, **kwargs)
        finally:
            into.append(store.round_trips - before)

    return counted


def _noting(times: list[float]) -> Callable[[float, Reply], None]:
    """An ``on_move`` that notes each move's time in ``times``."""
    return lambda dt, _reply: times.append(dt)


#: a position to time: its state, an awaited seat, and how many play
Position = tuple[object, int, int]


def _positions(key: str, games: int, seed: int) -> list[Position]:
    """(state, an awaited seat, players) for every position of a few random games."""
    rules = engine.get(key)
    rng = random.Random(seed)
    positions = []
    for g in range(games):
        players = rng.randint(rules.info.min_players, rules.info.max_players)
        state = rules.new(players, None, seed + g)
        while not rules.is_over(state):
            seat = rng.choice(rules.to_play(state))
            positions.append((state, seat, players))
            state = rules.apply(state, seat, rng.choice(rules.legal(state, seat))).state
        positions.append((state, 0, players))
    return positions


def _is_legal_speedup(rules: engine.Game, positions: list[Position]) -> float:
    """How many times faster ``is_legal`` answers for one action than listing every legal
    action does, on the middle half of the positions (the opening and the end are small)."""
    rng = random.Random(3)
    middle = positions[len(positions) // 4 : 3 * len(positions) // 4]
    cases = [
        (state, seat, rng.choice(rules.legal(state, seat)))
        for state, seat, _ in middle
        if not rules.is_over(state)
    ]
    listing, _ = _timed(lambda c: rules.legal(c[0], c[1]), cases)
    checking, _ = _timed(lambda c: rules.is_legal(*c), cases)
    return statistics.median(listing) / statistics.median(checking)


def _legal(rules: engine.Game, position: Position) -> list[Any]:
    return rules.legal(position[0], position[1])


def _board(key: str, rules: engine.Game, position: Position) -> bytes:
    return render(key, rules.view(position[0], None), _names(position[2]))


def _board_size(key: str, rules: engine.Game, position: Position) -> int:
    return len(_board(key, rules, position))


def _names(players: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(players)]


def _timed(
    work: Callable[[In], Out], items: Iterable[In], clock: Callable[[], float] = time.perf_counter
) -> tuple[list[float], list[Out]]:
    times: list[float] = []
    results: list[Out] = []
    for item in items:
        started = clock()
        results.append(work(item))
        times.append(clock() - started)
    return times, results


_FIRST_BOARD = """
import json, sys, time
import engine
from bot.tools.bench import _names, _positions
from renders import render
key = sys.argv[1]
state, _, players = (positions := _positions(key, 1, seed=7))[len(positions) // 2]
view = engine.get(key).view(state, None)
started = time.perf_counter()
render(key, view, _names(players))
print(json.dumps((time.perf_counter() - started) * 1000))
"""


def first_board_ms(key: str) -> float:
    """The first board drawn in a fresh process, in ms: imports are not counted, but
    everything a renderer builds on its first call (fonts, palettes, blank boards) is."""
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_BOARD, key], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)


async def run(
    emit: Emit = print, quick: bool = False, only: Sequence[str] = (), db: Target | None = None
) -> None:
    """Every game's figures, or only those of the games named in ``only``. Moves are
    timed on temporary SQLite files, or on ``db`` (a scratch database: the games played
    stay in it), against that store's floor."""
    games = 4 if quick else 25
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-bench-") as tmp:
        rows = 200 if quick else 1000
        where = db if db is not None else Path(tmp)
        # the store's floor, measured where the moves are timed: emitted, and returned
        floor = await (
            _sqlite_floors(emit, where, rows)
            if is_file(where)
            else _postgres_floors(emit, where, rows)
        )
        tables = itertools.count(1)  # one database may hold every game's games: own channels
        for key, rules in engine.GAMES.items():
            if only and key not in only:
                continue
            store = await open_store(db or Path(tmp) / f"{key}.db")
            service = Service(store, images=False)
            clicks: list[int] = []  # round trips to the database per move, load included
            records: list[int] = []  # ... and per move transaction
            # this one instance's methods, wrapped to count their trips (nothing else does)
            service.play.move = _counted(store, service.play.move, clicks)  # type: ignore[method-assign]
            store.record = _counted(store, store.record, records)  # type: ignore[method-assign]
            times: list[float] = []
            rng = random.Random(1)
            try:
                for g in range(games):
                    players = rules.info.min_players + g % (
                        rules.info.max_players - rules.info.min_players + 1
                    )
                    await play_random(
                        service,
                        Table(channel_id=next(tables), guild_id=1),
                        key,
                        players,
                        rng,
                        on_move=_noting(times),
                    )
            finally:
                await store.close()
            metric(emit, f"{key}.move_p50_ms", percentile(times, 0.50) * 1000, "ms")
            metric(emit, f"{key}.move_p99_ms", percentile(times, 0.99) * 1000, "ms")
            metric(emit, f"{key}.moves_per_s", len(times) / sum(times), "moves/s")
            metric(emit, f"{key}.move_round_trips", statistics.mean(clicks), "trips")
            metric(emit, f"{key}.record_round_trips", statistics.mean(records), "trips")
            commit = statistics.median(floor)
            metric(emit, f"{key}.move_vs_commit", percentile(times, 0.50) / commit, "x")

            positions = _positions(key, 2 if quick else 6, seed=7)
            metric(emit, f"{key}.is_legal_speedup", _is_legal_speedup(rules, positions), "x")
            if key != bench_loops.GAME:  # Seven Bridges times its six-dice positions there
                legal_times, _ = _timed(partial(_legal, rules), positions)
                metric(emit, f"{key}.legal_p50_ms", percentile(legal_times, 0.50) * 1000, "ms")
                metric(emit, f"{key}.legal_p99_ms", percentile(legal_times, 0.99) * 1000, "ms")
            if looks(key) is None:
                continue
            render_times, sizes = _timed(partial(_board_size, key, rules), positions)
            metric(emit, f"{key}.render_p50_ms", percentile(render_times, 0.50) * 1000, "ms")
            metric(emit, f"{key}.render_p99_ms", percentile(render_times, 0.99) * 1000, "ms")
            metric(emit, f"{key}.png_kb", statistics.mean(sizes) / 1024, "KiB")
            cpu_times, _ = _timed(partial(_board, key, rules), positions, time.process_time)
            metric(emit, f"{key}.render_cpu_ms", percentile(cpu_times, 0.50) * 1000, "ms")
            metric(emit, f"{key}.render_first_ms", first_board_ms(key), "ms")
        if not only or "seven-bridges" in only:
            await bench_loops.run(emit, quick)
