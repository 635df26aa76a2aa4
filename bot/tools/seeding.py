"""The load benches' database: ``count`` stored games cloned from really played ones, as
a bot that has hosted years of play holds them (finished games with whole move logs and
results, one in ten still running on a 72-hour clock, some with a reminder due)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from bot.domain.clocks import Clocks
from bot.service import Service, Table
from bot.store import SQLiteStore, Store, iso
from bot.tools.selfplay import play_random, robots

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
        await service.lobby.create(table, seats[0], "skybridge", seed=1000 + n, clocks=clocks)
        for caller in seats[1:]:
            await service.lobby.join(table, caller)
        reply = await service.lobby.start(table, seats[0])
        by_id = {c.user_id: c for c in seats}
        for _ in range(8 + n):
            caller = by_id[rng.choice(reply.awaiting)]
            moves = await service.play.legal_moves(table, caller)
            reply = await service.play.move(table, caller, rng.choice(moves))


async def _rows(store: SQLiteStore, sql: str, params: tuple = ()) -> tuple[list[str], list[tuple]]:
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
        new_games: list[list[object]] = []
        new_seats: list[list[object]] = []
        new_moves: list[tuple[object, ...]] = []
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
                seat = list(s)
                seat[0] = next_id
                if live and seat[i_await]:
                    seat[i_turn], seat[i_dead] = iso(since), iso(since + timedelta(hours=72))
                    seat[i_due] = ""  # due at once: worked out below, from the new times
                new_seats.append(seat)
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
