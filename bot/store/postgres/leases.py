"""Leases on PostgreSQL (:mod:`bot.store.shared.leases`): a turn is taken by the server's
clock, whatever the hosts' clocks say."""

from __future__ import annotations

from bot.store.shared.leases import TURN_AGAIN, LeasesSQL
from bot.store.sql import Q


class LeasesPG(LeasesSQL):
    async def take_turn(self, name: str, holder: str, seconds: float) -> float:
        """The server's clock alone (``now()``) decides. Of processes asking at once for
        a turn never taken, the one that inserts it has it; the others, not seeing its
        row yet, try again a moment later."""
        row = await self._write(
            Q.one(
                "WITH t AS (INSERT INTO leases (name, holder, until) "
                "VALUES (:name, :holder, now() + make_interval(secs => :seconds)) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "until = excluded.until WHERE leases.until <= now() RETURNING 1) "
                "SELECT CASE WHEN EXISTS (SELECT 1 FROM t) THEN 0 ELSE GREATEST("
                ":again::float8, (SELECT EXTRACT(EPOCH FROM until - now())::float8 "
                "FROM leases WHERE name = :name)) END",
                name=name,
                holder=holder,
                seconds=seconds,
                again=TURN_AGAIN,
            )
        )
        return float(row[0])
