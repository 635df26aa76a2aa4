"""Leases in SQLite (:class:`bot.store.interface.Leases`). One bot process has the file,
but a lease outlives it (a new process is a new holder, and waits for a dead one's lease
to run out), and the terminal beside it takes them too; so they work as PostgreSQL's."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from bot.store.faults import LeaseLost
from bot.store.rows import Fence, iso, parse_time
from bot.store.sqlite.connection import Connection


def fence(conn: sqlite3.Connection, now: str, held: Fence) -> None:
    """Renew the lease a write is made under, first thing in its transaction: raises
    :class:`LeaseLost` (so nothing of the write is kept) if its holder holds it no more."""
    renewed = conn.execute(
        "UPDATE leases SET until = ? WHERE name = ? AND holder = ? AND until > ?",
        (iso(held.until), held.name, held.holder, now),
    ).rowcount
    if renewed != 1:
        raise LeaseLost(f"{held.name} is no longer held by {held.holder}")


class LeasesSQL(Connection):
    async def take_lease(self, name: str, holder: str, until: datetime) -> bool:
        taken = await self.execute(
            "INSERT INTO leases (name, holder, until) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until "
            "WHERE leases.holder = excluded.holder OR leases.until <= ?",
            (name, holder, iso(until), self.now()),
        )
        return taken == 1

    async def drop_lease(self, name: str, holder: str) -> None:
        await self.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def lease_holder(self, name: str) -> str | None:
        row = await self.row("SELECT holder FROM leases WHERE name = ?", (name,))
        return None if row is None else row[0]

    async def take_turn(self, name: str, holder: str, seconds: float) -> float:
        """One process has the file, so the store's clock is the only clock there is."""
        now = self.clock()

        def unit(conn: sqlite3.Connection) -> float:
            taken = conn.execute(
                "INSERT INTO leases (name, holder, until) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "until = excluded.until WHERE leases.until <= ?",
                (name, holder, iso(now + timedelta(seconds=seconds)), iso(now)),
            ).rowcount
            if taken:
                return 0.0
            (until,) = conn.execute("SELECT until FROM leases WHERE name = ?", (name,)).fetchone()
            return max((parse_time(until) - now).total_seconds(), TURN_AGAIN)

        return await self.write(unit)


#: the shortest wait :meth:`LeasesSQL.take_turn` asks for: never none, as it was not free
TURN_AGAIN = 0.01
