"""Leases in PostgreSQL (:class:`bot.store.interface.Leases`): one upsert takes a free or
run-out lease, or renews the caller's own; of processes asking at once, one gets it."""

from __future__ import annotations

from datetime import datetime

from bot.store.faults import LeaseLost
from bot.store.postgres.connection import Connection, Tx
from bot.store.rows import Fence, iso


async def fence(tx: Tx, now: str, held: Fence) -> None:
    """Renew the lease a write is made under, first thing in its transaction (its row
    locked until the commit, so a process taking the lease over waits for it): raises
    :class:`LeaseLost` (so nothing of the write is kept) if its holder holds it no more."""
    renewed = await tx.execute(
        "UPDATE leases SET until = $1 WHERE name = $2 AND holder = $3 AND until > $4",
        iso(held.until),
        held.name,
        held.holder,
        now,
    )
    if renewed != 1:
        raise LeaseLost(f"{held.name} is no longer held by {held.holder}")


class LeasesPG(Connection):
    async def take_lease(self, name: str, holder: str, until: datetime) -> bool:
        taken = await self.execute(
            "INSERT INTO leases (name, holder, until) VALUES ($1, $2, $3) "
            "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until "
            "WHERE leases.holder = EXCLUDED.holder OR leases.until <= $4",
            (name, holder, iso(until), self.now()),
        )
        return taken == 1

    async def drop_lease(self, name: str, holder: str) -> None:
        await self.execute("DELETE FROM leases WHERE name = $1 AND holder = $2", (name, holder))

    async def lease_holder(self, name: str) -> str | None:
        row = await self.row("SELECT holder FROM leases WHERE name = $1", (name,))
        return None if row is None else row[0]

    async def take_turn(self, name: str, holder: str, seconds: float) -> float:
        """The server's clock alone (``now()``) decides, whatever the hosts' clocks say.
        Of processes asking at once for a turn never taken, the one that inserts it has
        it; the others, not seeing its row yet, try again a moment later."""
        row = await self.row(
            "WITH t AS (INSERT INTO leases (name, holder, until) "
            "VALUES ($1, $2, now() + make_interval(secs => $3)) "
            "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until "
            "WHERE leases.until <= now() RETURNING 1) "
            "SELECT CASE WHEN EXISTS (SELECT 1 FROM t) THEN 0 ELSE GREATEST($4::float8, "
            "(SELECT EXTRACT(EPOCH FROM until - now())::float8 FROM leases WHERE name = $1)) END",
            (name, holder, seconds, TURN_AGAIN),
        )
        return float(row[0])


#: the shortest wait :meth:`LeasesPG.take_turn` asks for: never none, as it was not free
TURN_AGAIN = 0.01
