"""Leases (:class:`bot.store.interface.Leases`), written once for every store: one upsert
takes a free or run-out lease, or renews the caller's own; of processes asking at once,
one gets it. A lease outlives its process (a new process is a new holder, and waits for
a dead one's lease to run out)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.store.faults import LeaseLost
from bot.store.rows import Fence, iso, parse_time
from bot.store.shared.base import Base
from bot.store.sql import Body, Q

#: the shortest wait :meth:`LeasesSQL.take_turn` asks for: never none, as it was not free
TURN_AGAIN = 0.01


def fence(now: str, held: Fence) -> Body[None]:
    """Renew the lease a write is made under, first thing in its transaction (its row
    locked until the commit, so a process taking the lease over waits for it): raises
    :class:`LeaseLost` (so nothing of the write is kept) if its holder holds it no more."""
    renewed = yield Q.count(
        "UPDATE leases SET until = :until WHERE name = :name AND holder = :holder AND until > :now",
        until=iso(held.until),
        name=held.name,
        holder=held.holder,
        now=now,
    )
    if renewed != 1:
        raise LeaseLost(f"{held.name} is no longer held by {held.holder}")


class LeasesSQL(Base):
    async def take_lease(self, name: str, holder: str, until: datetime) -> bool:
        taken = await self._write(
            Q.count(
                "INSERT INTO leases (name, holder, until) VALUES (:name, :holder, :until) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "until = excluded.until WHERE leases.holder = excluded.holder "
                "OR leases.until <= :now",
                name=name,
                holder=holder,
                until=iso(until),
                now=self.now(),
            )
        )
        return taken == 1

    async def drop_lease(self, name: str, holder: str) -> None:
        await self._write(
            Q.count(
                "DELETE FROM leases WHERE name = :name AND holder = :holder",
                name=name,
                holder=holder,
            )
        )

    async def lease_holder(self, name: str) -> str | None:
        row = await self._read(Q.row("SELECT holder FROM leases WHERE name = :name", name=name))
        return None if row is None else row[0]

    async def take_turn(self, name: str, holder: str, seconds: float) -> float:
        """By the store's clock: right where one process has the database, as SQLite's
        file is (a shared server decides by its own clock:
        :meth:`bot.store.postgres.leases.LeasesPG.take_turn`)."""
        return await self._write(self._take_turn(self.clock(), name, holder, seconds))

    def _take_turn(self, now: datetime, name: str, holder: str, seconds: float) -> Body[float]:
        taken = yield Q.count(
            "INSERT INTO leases (name, holder, until) VALUES (:name, :holder, :until) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
            "until = excluded.until WHERE leases.until <= :now",
            name=name,
            holder=holder,
            until=iso(now + timedelta(seconds=seconds)),
            now=iso(now),
        )
        if taken:
            return 0.0
        (until,) = yield Q.row("SELECT until FROM leases WHERE name = :name", name=name)
        return max((parse_time(until) - now).total_seconds(), TURN_AGAIN)
