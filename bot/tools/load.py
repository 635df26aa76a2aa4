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
import random
import resource
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from bot.clocks import Clocks
from bot.drawing import Drawers, drawers
from bot.service import Caller, Service, Table
from bot.store import SQLiteStore, Store, iso
from bot.thinking import AI_PROCESSES, Thinkers, thinkers
from bot.tools.figures import Emit, metric, percentile
from bot.tools.selfplay import play_random, robots
from bot.tools.startup import report_startup

STORED = 10_000
LIVE_SHARE = 10  # one stored game in ten is still being played, on a clock
SAMPLES = 12  # really played games, cloned to fill the database


# -- a realistic database ----------------------------------------------------------------


async def _play_samples(store: Store) -> None:
    """Finished games of every size, played move by move; and games half played on a clock."""
    service = Service(store, images=False)
    rng = random.Random(11)
    for n in range(SAMPLES):
        await play_random(service, Table(10 + n, 1), "skybridge", 2 + n % 3, rng, seed=n)
    clocks = Clocks(move_hours=72.0)
    for n in range(SAMPLES):
        table, seats = Table(100 + n, 1), robots(2 + n % 3)
        await service.create(table, seats[0], "skybridge", seed=1000 + n, clocks=clocks)
        for caller in seats[1:]:
            await service.join(table, caller)
        reply = await service.start(table, seats[0])
        by_id = {c.user_id: c for c in seats}
        for _ in range(8 + n):
            caller = by_id[rng.choice(reply.awaiting)]
            moves = await service.legal_moves(table, caller)
            reply = await service.move(table, caller, rng.choice(moves))


async def _rows(store: Store, sql: str, params: tuple = ()) -> tuple[list[str], list[tuple]]:
    async with store.transaction() as db:
        cur = await db.execute(sql, params)
        names = [d[0] for d in cur.description]
        rows = [tuple(r) for r in await cur.fetchall()]
        await cur.close()
    return names, rows


async def seed(path: Path, count: int = STORED) -> None:
    """``count`` stored games cloned from really played ones: finished games with their
    whole move logs and results, and one in :data:`LIVE_SHARE` still active on a 72-hour
    clock, some of them with a reminder due, so the first scheduler pass has work. The
    clones' waits are written row by row, so their next due times are worked out after."""
    store = await SQLiteStore.open(path)
    try:
        await _play_samples(store)
        cols, games = await _rows(store, "SELECT * FROM games ORDER BY id")
        seat_cols, seats = await _rows(store, "SELECT * FROM seats")
        move_cols, moves = await _rows(store, "SELECT * FROM moves")
        finished = [g for g in games if g[cols.index("status")] == "finished"]
        active = [g for g in games if g[cols.index("status")] == "active"]
        seats_of: dict[int, list[tuple]] = {}
        for s in seats:
            seats_of.setdefault(s[0], []).append(s)
        moves_of: dict[int, list[tuple]] = {}
        for m in moves:
            moves_of.setdefault(m[0], []).append(m)
        now = store.clock()
        i_id, i_chan, i_guild = cols.index("id"), cols.index("channel_id"), cols.index("guild_id")
        i_rated = cols.index("rating_seq")
        i_turn, i_dead = seat_cols.index("turn_since"), seat_cols.index("deadline")
        i_await, i_due = seat_cols.index("awaiting"), seat_cols.index("due_at")
        new_games, new_seats, new_moves = [], [], []
        next_id = max(g[i_id] for g in games) + 1
        for n in range(count - len(games)):
            live = n % LIVE_SHARE == 0
            pool = active if live else finished
            src = pool[n % len(pool)]
            row = list(src)
            row[i_id], row[i_chan], row[i_guild] = next_id, 5_000_000 + n, 1 + n % 500
            row[i_rated] = None  # a copy is not a rated game of its own: its number is unique
            new_games.append(row)
            since = now - timedelta(hours=30 if n % (3 * LIVE_SHARE) == 0 else 2)
            for s in seats_of[src[i_id]]:
                s = list(s)
                s[0] = next_id
                if live and s[i_await]:
                    s[i_turn], s[i_dead] = iso(since), iso(since + timedelta(hours=72))
                    s[i_due] = ""  # due at once: worked out below, from the new times
                new_seats.append(s)
            new_moves.extend((next_id, *m[1:]) for m in moves_of[src[i_id]])
            next_id += 1

        def insert(table: str, names: list[str]) -> str:
            marks = ", ".join("?" * len(names))
            return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})"

        async with store.transaction() as db:
            await db.executemany(insert("games", cols), new_games)
            await db.executemany(insert("seats", seat_cols), new_seats)
            await db.executemany(insert("moves", move_cols), new_moves)
        # every wait due at once, claimed and given its real due time
        await store.reschedule(await store.claim_due_waits(now, now, len(new_seats)))
    finally:
        await store.close()


# -- memory -----------------------------------------------------------------------------


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds these processes have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def _pids(pool: Drawers | None) -> list[int]:
    return [os.getpid(), *(pool.pids if pool else [])]


@dataclass
class _Memory:
    """Peak resident memory of this process plus its render workers, sampled."""

    pool: Drawers | None
    peak: float = 0.0

    def sample(self) -> None:
        self.peak = max(self.peak, sum(_rss_mb(pid) for pid in _pids(self.pool)))

    async def watch(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.25)


# -- playing ----------------------------------------------------------------------------


async def _open(service: Service, table: Table, n: int, ai: tuple[float, str]) -> None:
    """A game of 2-4 seats, ``ai[0]`` of them (on average) AI players at level ``ai[1]``."""
    count = 2 + n % 3
    share, level = ai
    ais = min(count - 1, int(count * share + random.Random(n).random()))
    seats = robots(count - ais)
    await service.create(table, seats[0], "skybridge", seed=n, ai=ais, ai_level=level)
    for caller in seats[1:]:
        await service.join(table, caller)
    await service.start(table, seats[0])


async def _advance(service: Service, table: Table, moves: int, rng: random.Random) -> None:
    """Play ``moves`` random moves, untimed, so the games measured are at every stage (a
    Skybridge game lasts ~40 moves; late boards hold more pieces and cost more to draw)
    rather than all just begun."""
    for _ in range(moves):
        row = await service.store.live_game(table.channel_id)
        seats = await service.store.seats(row.id)
        seat = rng.choice([s for s in seats if s.awaiting])
        caller = Caller(seat.user_id, seat.name)  # an AI seat too: a random move, untimed
        reply = await service.move(
            table, caller, rng.choice(await service.legal_moves(table, caller))
        )
        if not reply.playable:
            return


@dataclass
class _Run:
    """What one phase measured: replies inside the window, latency of requests inside it."""

    window: tuple[float, float]
    done_in_window: int = 0
    latencies: list[float] = field(default_factory=list)
    ai_latencies: list[float] = field(default_factory=list)  # an AI's move, thinking included
    cpu_s: float = 0.0  # CPU the bot (and its render workers) used during the window
    drawing_cpu_s: float = 0.0  # of which the render workers

    def moves_per_s(self) -> float:
        return self.done_in_window / (self.window[1] - self.window[0])

    def cores_busy(self) -> float:
        """CPU seconds a second: 2.0 on this machine means the bot is CPU-bound."""
        return self.cpu_s / (self.window[1] - self.window[0])

    def cpu_ms_per_move(self) -> float:
        return 1000 * self.cpu_s / max(1, self.done_in_window)

    def drawing_ms_per_move(self) -> float:
        return 1000 * self.drawing_cpu_s / max(1, self.done_in_window)


async def _phase(
    service: Service,
    tables: list[Table],
    seconds: float,
    think: float | None,
    rng: random.Random,
    warmup: float,
    pool: Drawers | None = None,
    ai: tuple[float, str] = (0.0, "hard"),
) -> _Run:
    """Play every table for ``warmup`` + ``seconds``; measure the last ``seconds``.

    ``think`` is the mean pause (s) before each move; None for flat out. A game that ends
    is followed by a new one at its table, so ``len(tables)`` games stay in play.
    """
    by_id = {c.user_id: c for c in robots(4)}
    by_id |= {-n: Caller(-n, "AI") for n in range(1, 4)}
    begin = time.perf_counter() + warmup
    run = _Run((begin, begin + seconds))
    serial = iter(range(10**9))

    async def game(table: Table) -> None:
        reply, due = None, time.perf_counter()
        while True:
            if think is not None:  # the next move is due a think time after the last was made
                due += rng.expovariate(1 / think)
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if time.perf_counter() >= run.window[1]:
                return
            if reply is None or not reply.playable:  # a game ended: the table starts another
                row = await service.store.live_game(table.channel_id)
                if row is None:
                    await _open(service, table, next(serial), ai)
                    row = await service.store.live_game(table.channel_id)
                seats = await service.store.seats(row.id)
                awaiting, expect = [s.user_id for s in seats if s.awaiting], (row.id, row.version)
            else:  # players know whose turn it is from the last board, as on Discord
                awaiting, expect = list(reply.awaiting), (reply.game_id, reply.version)
            caller = by_id[rng.choice(awaiting)]
            requested = time.perf_counter()
            if caller.user_id < 0:  # an AI seat: it thinks in a worker, then moves
                reply = await service.ai_move(table, caller, expect)
            else:  # the picker's last click: legal moves checked against the button, the move
                moves = await service.legal_moves(table, caller, expect)
                reply = await service.move(table, caller, rng.choice(moves), expect)
            replied = time.perf_counter()
            if run.window[0] <= requested < run.window[1]:
                latencies = run.ai_latencies if caller.user_id < 0 else run.latencies
                latencies.append(replied - requested)
            if run.window[0] <= replied < run.window[1]:
                run.done_in_window += 1
            # after answering, the bot refreshes the channel's pinned status card
            await service.status_card(expect[0])

    async def meter() -> None:
        await asyncio.sleep(max(0.0, run.window[0] - time.perf_counter()))
        workers = pool.pids if pool else []
        before, drawing = _cpu_s(_pids(pool)), _cpu_s(workers)
        await asyncio.sleep(max(0.0, run.window[1] - time.perf_counter()))
        run.cpu_s = _cpu_s(_pids(pool)) - before
        run.drawing_cpu_s = _cpu_s(workers) - drawing

    await asyncio.gather(meter(), *(game(t) for t in tables))
    return run


async def _retire(store: Store, tables: list[Table]) -> None:
    for table in tables:
        row = await store.live_game(table.channel_id)
        if row is not None:
            await store.abandon(row.id, row.version)


@contextmanager
def _thinking(ai: tuple[float, str]) -> Iterator[Thinkers | None]:
    if not ai[0]:
        yield None
        return
    with thinkers(AI_PROCESSES) as pool:
        yield pool


@contextmanager
def _renderer(processes: int) -> Iterator[Drawers | None]:
    if not processes:
        yield None
        return
    with drawers(processes) as pool:
        yield pool


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
        with _renderer(processes) as pool, _thinking(ai) as minds:
            memory = _Memory(pool)
            watcher = asyncio.create_task(memory.watch())
            store = await SQLiteStore.open(path)
            try:
                await _measure(emit, store, pool, games, seconds, rate, ai, minds)
            finally:
                watcher.cancel()
                await store.close()
            memory.sample()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    metric(emit, "load.peak_rss_mb", max(memory.peak, own), "MiB")


async def _measure(
    emit: Emit,
    store: Store,
    pool: Drawers | None,
    games: int,
    seconds: float,
    rate: float,
    ai: tuple[float, str],
    minds: Thinkers | None,
) -> None:
    servers = max(1, games // 10)
    warmup = min(5.0, seconds / 4)
    tables = [Table(channel_id=2_000_000 + n, guild_id=1 + n % servers) for n in range(games)]
    for images in (False, True):
        service = Service(store, images=images, drawers=pool, thinkers=minds)
        setup, rng = Service(store, images=False, thinkers=minds), random.Random(5)
        for n, table in enumerate(tables):
            await _open(service, table, n, ai)
            await _advance(setup, table, rng.randrange(36), rng)
        paced = await _phase(
            service, tables, seconds, games / rate, random.Random(7), warmup, pool, ai
        )
        flat = await _phase(service, tables, seconds, None, random.Random(8), warmup, pool, ai)
        await _retire(store, tables)
        suffix = "" if images else "_norender"
        metric(
            emit,
            "load.moves_per_s" if images else "load.norender_moves_per_s",
            paced.moves_per_s(),
            "moves/s",
        )
        if images:
            metric(emit, "load.p50_ms", percentile(paced.latencies, 0.50) * 1000, "ms")
        if images and ai[0]:
            metric(emit, "load.ai_share", ai[0], "seats")
            metric(emit, "load.ai_p99_ms", percentile(paced.ai_latencies, 0.99) * 1000, "ms")
        metric(emit, f"load.p99{suffix}_ms", percentile(paced.latencies, 0.99) * 1000, "ms")
        metric(emit, f"load.capacity{suffix}_moves_per_s", flat.moves_per_s(), "moves/s")
        metric(emit, f"load.capacity{suffix}_p99_ms", percentile(flat.latencies, 0.99) * 1000, "ms")
        metric(emit, f"load.cpu{suffix}_ms_per_move", flat.cpu_ms_per_move(), "ms")
        if images and pool is not None:
            metric(emit, "load.cpu_drawing_ms_per_move", flat.drawing_ms_per_move(), "ms")
        for phase, run in (("", paced), ("capacity_", flat)):
            metric(emit, f"load.{phase}cores_busy{suffix}", run.cores_busy(), "cores")
