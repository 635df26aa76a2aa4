"""``python -m bot bench --timers``: what grows with the games stored, at 100,000 of them.

The database is :func:`bot.tools.seeding.seed`'s: cloned real Skybridge games, one in ten
still running on a 72-hour clock (some with a reminder due), the rest finished; with what
years of play leave besides (:func:`_history`): notices never sent, daily results shared,
and 20,000 players' settings (:func:`_players`: daily digests at every hour of the day,
some due at once, cadences of their own, heads-ups). The first pass does what is due; the
figures are what every minute costs afterwards, when nothing or little is due, which is
what a bot with years of finished games pays all day:

- ``timers.tick_ms`` (p50, and ``timers.tick_max_ms``): the play-by-post pass alone
  (:meth:`bot.service.timers.Timers.tick`: reminders, warnings, deadlines, reaction windows,
  daily digests);
- ``timers.minute_ms``: the whole once-a-minute pass the bot runs (that tick, league
  rounds, the daily challenge's settling and rollover, due notices);
- ``timers.tick_cpu_ms``, ``timers.minute_cpu_ms``: the same in CPU time (p50) of the
  process and its SQLite thread: steadier than wall-clock figures on a shared machine;
- ``timers.first_tick_ms`` (and ``_cpu_ms``): the first pass, with its due reminders
  (``timers.first_due``) and digests: each reminder is claimed in a transaction of its
  own (a pass's digests in one), so the wall-clock figure is mostly waiting for disk
  flushes;
- ``timers.startup_s`` and its phases: ``python -m bot``'s start in a fresh process, as
  the load bench times it (imports, open with migrations and the integrity check, the
  client's set-up, the first pass); ``timers.startup_cpu_s``, that process's CPU time.

One JSON object per line, like the other benches.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, timedelta
from pathlib import Path

from bot.domain.clocks import next_digest
from bot.service import Service
from bot.service.minute import MinutePass
from bot.service.timers import Posted
from bot.store import SQLiteStore, Store, iso
from bot.tools import seeding
from bot.tools.figures import Emit, metric, percentile
from bot.tools.startup import report_startup

STORED = 100_000
TICKS = 30


async def _timed(work: Callable[[], Awaitable[int]]) -> tuple[float, float, int]:
    """Seconds ``work`` took, of wall clock and of CPU, and how many things it did."""
    started, cpu = time.perf_counter(), time.process_time()
    done = await work()
    return time.perf_counter() - started, time.process_time() - cpu, done


def _p50_ms(values: Sequence[float]) -> float:
    return percentile(values, 0.50) * 1000


async def _history(store: SQLiteStore, stored: int) -> None:
    """One finished game in ten gets a notice that was never sent (its player moved
    before quiet hours ended), one in ten a daily challenge result already shared; and
    :func:`_players`' settings."""
    long_ago = "2026-01-01T00:00:00.000000+00:00"
    await _players(store, stored // 5)
    async with store.transaction() as db:
        rows = await db.execute_fetchall(
            "SELECT id FROM games WHERE status = 'finished' ORDER BY id LIMIT ?", (stored // 5,)
        )
        games = [game for (game,) in rows]
        await db.executemany(
            "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            "turn_since, dropped) VALUES (?, 1, 'turn', 'dm', 'Your turn', ?, ?, ?, 'moved')",
            [(game, long_ago, long_ago, long_ago) for game in games[::2]],
        )
        await db.executemany(  # 300 players a day, from 2020 on
            "INSERT INTO daily_entries (day, user_id, name, game_id, status, total, euler) "
            "VALUES (?, ?, 'Player', ?, 'won', 50, 40)",
            [
                ((date(2020, 1, 1) + timedelta(days=n // 300)).isoformat(), n % 300, game)
                for n, game in enumerate(games[1::2])
            ],
        )


async def _players(store: SQLiteStore, count: int) -> None:
    """``count`` players' settings, as ``/settings`` leaves them: one in four takes the
    daily digest, at an hour of the day spread over all 24 (one in a hundred of those
    due now, three live games waiting for each), one in three of the rest reminders
    every 12 hours, one in two the heads-up."""
    now = store.clock()
    rows, due_now = [], []
    for n in range(count):
        user, hour = 10_000_000 + n, n % 24
        digest = n % 4 == 0
        due = next_digest(hour, "UTC", None, now) if digest else None
        if digest and n % 400 == 0:
            due = now - timedelta(minutes=1)
            due_now.append(user)
        cadence = 12.0 if n % 3 == 0 and not digest else None
        rows.append((user, cadence, hour if digest else None, iso(due) if due else None, n % 2))
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO user_settings (user_id, remind_hours, digest_hour, digest_at, "
            "heads_up) VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        waiting = await db.execute_fetchall(
            "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.awaiting = 1 AND g.status = 'active' ORDER BY s.game_id LIMIT ?",
            (3 * len(due_now),),
        )
        await db.executemany(  # the trigger marks these waits due: the first pass looks
            "UPDATE seats SET user_id = ? WHERE game_id = ? AND seat = ?",
            [(due_now[i % len(due_now)], game, seat) for i, (game, seat) in enumerate(waiting)],
        )


async def _passes(emit: Emit, store: Store, ticks: int) -> None:
    service = Service(store, images=False)
    timers = service.timers

    async def tick() -> int:
        return len(await timers.tick())

    async def posted(_item: Posted) -> bool:
        """Posts go nowhere: no Discord here."""
        return True

    async def minute() -> int:  # notices delivered, as the bot's loop would
        return await MinutePass(timers, service.league_rounds, service.daily).run(
            posted, timers.sent
        )

    first, cpu, due = await _timed(minute)
    metric(emit, "timers.first_tick_ms", first * 1000, "ms")
    metric(emit, "timers.first_tick_cpu_ms", cpu * 1000, "ms")
    metric(emit, "timers.first_due", due, "items")
    walls, cpus, _done = zip(*[await _timed(tick) for _ in range(ticks)], strict=True)
    metric(emit, "timers.tick_ms", _p50_ms(walls), "ms")
    metric(emit, "timers.tick_max_ms", max(walls) * 1000, "ms")
    metric(emit, "timers.tick_cpu_ms", _p50_ms(cpus), "ms")
    walls, cpus, _done = zip(*[await _timed(minute) for _ in range(ticks)], strict=True)
    metric(emit, "timers.minute_ms", _p50_ms(walls), "ms")
    metric(emit, "timers.minute_cpu_ms", _p50_ms(cpus), "ms")


async def run(emit: Emit = print, stored: int = STORED, ticks: int = TICKS) -> None:
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-timers-") as tmp:
        path = Path(tmp) / "timers.db"
        await seeding.seed(path, stored)
        store = await SQLiteStore.open(path)
        try:
            await _history(store, stored)
        finally:
            await store.close()
        metric(emit, "timers.stored_games", stored, "games")
        metric(emit, "timers.db_mb", path.stat().st_size / 2**20, "MiB")
        store = await SQLiteStore.open(path)
        try:
            await _passes(emit, store, ticks)
        finally:
            await store.close()
        report_startup(emit, "timers", path)
