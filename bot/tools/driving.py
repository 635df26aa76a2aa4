"""Playing the load benches' games: opening them, moving them on through the service as
players do (or flat out), and what a phase of play measured; the CPU and memory of the
bot's processes, read from ``/proc``. One bot process drives its own share of the games
with these, whether it is the bench's own process or one of several (:mod:`load_processes`)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from bot.processes.drawing import Drawers, drawers
from bot.processes.thinking import AI_PROCESSES, Thinkers, thinkers
from bot.service import Caller, Service, Table
from bot.store import Store
from bot.tools.selfplay import robots

# -- memory -----------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_s(pids: list[int]) -> float:
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


def machine_cpu_s() -> tuple[float, float] | None:
    """CPU seconds the machine's cores have spent so far busy (every process: the database
    server's and the bench's own too) and stolen (a virtual machine's cores made to wait
    while its host ran something else), or None where ``/proc/stat`` is missing."""
    try:
        with open("/proc/stat") as stat:
            user, nice, system, _, _, irq, softirq, steal = map(int, stat.readline().split()[1:9])
    except (OSError, ValueError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / ticks, steal / ticks


def pids_of(pool: Drawers | None) -> list[int]:
    return [os.getpid(), *(pool.pids if pool else [])]


@dataclass
class Memory:
    """Peak resident memory of this process plus its render workers, sampled."""

    pool: Drawers | None
    peak: float = 0.0

    def sample(self) -> None:
        self.peak = max(self.peak, sum(rss_mb(pid) for pid in pids_of(self.pool)))

    async def watch(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.25)


# -- playing ----------------------------------------------------------------------------


async def open_game(service: Service, table: Table, n: int, ai: tuple[float, str]) -> None:
    """A game of 2-4 seats, ``ai[0]`` of them (on average) AI players at level ``ai[1]``."""
    count = 2 + n % 3
    share, level = ai
    ais = min(count - 1, int(count * share + random.Random(n).random()))
    seats = robots(count - ais)
    await service.lobby.create(table, seats[0], "skybridge", seed=n, ai=ais, ai_level=level)
    for caller in seats[1:]:
        await service.lobby.join(table, caller)
    await service.lobby.start(table, seats[0])


async def advance(service: Service, table: Table, moves: int, rng: random.Random) -> None:
    """Play ``moves`` random moves, untimed, so the games measured are at every stage (a
    Skybridge game lasts ~40 moves; late boards hold more pieces and cost more to draw)
    rather than all just begun."""
    for _ in range(moves):
        row = await service.store.live_game(table.channel_id)
        assert row is not None  # the caller opened the game these moves are played in
        seats = await service.store.seats(row.id)
        seat = rng.choice([s for s in seats if s.awaiting])
        caller = Caller(seat.user_id, seat.name)  # an AI seat too: a random move, untimed
        reply = await service.play.move(
            table, caller, rng.choice(await service.play.legal_moves(table, caller))
        )
        if not reply.playable:
            return


@dataclass
class Run:
    """What one phase measured: replies inside the window, latency of requests inside it."""

    window: tuple[float, float]
    done_in_window: int = 0
    latencies: list[float] = field(default_factory=list)
    ai_latencies: list[float] = field(default_factory=list)  # an AI's move, thinking included
    cpu_s: float = 0.0  # CPU the bot (and its render workers) used during the window
    drawing_cpu_s: float = 0.0  # of which the render workers
    # the seconds the meter really spanned (a busy event loop wakes it late) and, over those
    # same seconds, CPU seconds the whole machine spent busy and had stolen (None: no
    # /proc/stat); sampled at the same instants as ``cpu_s``, so the two compare
    metered_s: float = 0.0
    machine_busy_s: float | None = None
    machine_stolen_s: float | None = None

    def moves_per_s(self) -> float:
        return self.done_in_window / (self.window[1] - self.window[0])

    def cores_busy(self) -> float:
        """CPU seconds a second: 2.0 on this machine means the bot is CPU-bound."""
        return self.cpu_s / self._metered()

    def machine_cores(self) -> tuple[float, float] | None:
        """How many cores the whole machine kept busy (every process: the database server's
        and the bench's own too), and how many its host took away, while the bot's own were
        metered: busy and stolen together near the core count, the machine was the limit."""
        if self.machine_busy_s is None or self.machine_stolen_s is None:
            return None
        return self.machine_busy_s / self._metered(), self.machine_stolen_s / self._metered()

    def _metered(self) -> float:
        return self.metered_s or self.window[1] - self.window[0]

    def cpu_ms_per_move(self) -> float:
        return 1000 * self.cpu_s / max(1, self.done_in_window)

    def drawing_ms_per_move(self) -> float:
        return 1000 * self.drawing_cpu_s / max(1, self.done_in_window)

    @classmethod
    def joined(cls, runs: list[Run]) -> Run:
        """What several bot processes measured in one window, as one bot's figures."""
        whole = cls(runs[0].window)
        for run in runs:
            whole.done_in_window += run.done_in_window
            whole.latencies += run.latencies
            whole.ai_latencies += run.ai_latencies
            whole.cpu_s += run.cpu_s
            whole.drawing_cpu_s += run.drawing_cpu_s
        # one machine: its figures once, from the process that metered longest
        longest = max(runs, key=lambda run: run.metered_s)
        whole.metered_s = longest.metered_s
        whole.machine_busy_s, whole.machine_stolen_s = (
            longest.machine_busy_s,
            longest.machine_stolen_s,
        )
        return whole

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Run:
        return cls(**{**data, "window": tuple(data["window"])})


async def play(
    service: Service,
    tables: list[Table],
    seconds: float,
    think: float | None,
    rng: random.Random,
    begin: float,
    pool: Drawers | None = None,
    ai: tuple[float, str] = (0.0, "hard"),
) -> Run:
    """Play every table until ``begin`` + ``seconds``; measure from ``begin`` on (a
    ``time.perf_counter`` moment: the system's monotonic clock, the same in every process
    of the machine, so several bot processes measure one window).

    ``think`` is the mean pause (s) before each move; None for flat out. A game that ends
    is followed by a new one at its table, so ``len(tables)`` games stay in play.
    """
    by_id = {c.user_id: c for c in robots(4)}
    by_id |= {-n: Caller(-n, "AI") for n in range(1, 4)}
    run = Run((begin, begin + seconds))
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
                    await open_game(service, table, next(serial), ai)
                    row = await service.store.live_game(table.channel_id)
                    assert row is not None  # just opened
                seats = await service.store.seats(row.id)
                awaiting, expect = [s.user_id for s in seats if s.awaiting], (row.id, row.version)
            else:  # players know whose turn it is from the last board, as on Discord
                # a playable reply names its game and version
                assert reply.game_id is not None and reply.version is not None
                awaiting, expect = list(reply.awaiting), (reply.game_id, reply.version)
            caller = by_id[rng.choice(awaiting)]
            requested = time.perf_counter()
            if caller.user_id < 0:  # an AI seat: it thinks in a worker, then moves
                reply = await service.seats.ai_move(table, caller, expect)
            else:  # the picker's last click: legal moves checked against the button, the move
                moves = await service.play.legal_moves(table, caller, expect)
                reply = await service.play.move(table, caller, rng.choice(moves), expect)
            replied = time.perf_counter()
            if run.window[0] <= requested < run.window[1]:
                latencies = run.ai_latencies if caller.user_id < 0 else run.latencies
                latencies.append(replied - requested)
            if run.window[0] <= replied < run.window[1]:
                run.done_in_window += 1
            # after answering, the bot refreshes the channel's pinned status card
            await service.looking.status_card(expect[0])

    async def meter() -> None:
        await asyncio.sleep(max(0.0, run.window[0] - time.perf_counter()))
        workers = pool.pids if pool else []
        start, machine = time.perf_counter(), machine_cpu_s()
        before, drawing = cpu_s(pids_of(pool)), cpu_s(workers)
        await asyncio.sleep(max(0.0, run.window[1] - time.perf_counter()))
        run.cpu_s = cpu_s(pids_of(pool)) - before
        run.drawing_cpu_s = cpu_s(workers) - drawing
        machine_after = machine_cpu_s()
        run.metered_s = time.perf_counter() - start
        if machine is not None and machine_after is not None:
            run.machine_busy_s = machine_after[0] - machine[0]
            run.machine_stolen_s = machine_after[1] - machine[1]

    await asyncio.gather(meter(), *(game(t) for t in tables))
    return run


async def retire(store: Store, tables: list[Table]) -> None:
    for table in tables:
        row = await store.live_game(table.channel_id)
        if row is not None:
            await store.abandon(row.id, row.version)


@contextmanager
def thinking(ai: tuple[float, str]) -> Iterator[Thinkers | None]:
    if not ai[0]:
        yield None
        return
    with thinkers(AI_PROCESSES) as pool:
        yield pool


@contextmanager
def renderer(processes: int) -> Iterator[Drawers | None]:
    if not processes:
        yield None
        return
    with drawers(processes) as pool:
        yield pool


@dataclass
class Players:
    """One bot process's share of the bench's games, played on ``store``: the bench's own
    process plays them all on SQLite; each of several bot processes plays its own."""

    store: Store
    tables: list[Table]
    pool: Drawers | None = None  # drawing workers (None: boards drawn in threads)
    minds: Thinkers | None = None  # the AI worker (None: no AI seats)
    ai: tuple[float, str] = (0.0, "hard")
    first: int = 0  # the number of this share's first game, of all the bench's
    service: Service | None = None

    async def open(self, images: bool) -> None:
        """Open every table's game and play it on by 0-35 random moves, untimed, so the
        games measured are at every stage; later moves draw ``images`` or not."""
        self.service = Service(self.store, images=images, drawers=self.pool, thinkers=self.minds)
        setup, rng = Service(self.store, images=False, thinkers=self.minds), random.Random(5)
        for n, table in enumerate(self.tables, start=self.first):
            await open_game(self.service, table, n, self.ai)
            await advance(setup, table, rng.randrange(36), rng)

    async def play(self, begin: float, seconds: float, think: float | None, seed: int) -> Run:
        assert self.service is not None, "open() the games first"
        rng = random.Random(seed * 1_000_003 + self.first)
        return await play(self.service, self.tables, seconds, think, rng, begin, self.pool, self.ai)

    async def retire(self) -> None:
        await retire(self.store, self.tables)
