"""The daily challenge (:class:`bot.store.interface.Daily`), written once for every store."""

from __future__ import annotations

import os

from bot.store.rows import Attempt, Entry
from bot.store.shared.base import Base
from bot.store.sql import Q

_ENTRY = (
    "SELECT e.day, e.user_id, e.name, e.guild_id, e.game_id, e.status, e.total, "
    "e.euler, g.status, g.channel_id, e.share_pending "
    "FROM daily_entries e JOIN games g ON g.id = e.game_id"
)


def settle_attempt(now: str, game_id: int, attempt: Attempt) -> Q:
    """Record how the daily attempt played in ``game_id`` ended (if it is one), its share
    line still to post: inside the transaction of the move (or call-off) that ended it."""
    return Q.count(
        "UPDATE daily_entries SET status = :status, total = :total, euler = :euler, "
        "finished_at = :now, share_pending = TRUE "
        "WHERE game_id = :game_id AND status = 'playing'",
        status=attempt.status,
        total=attempt.total,
        euler=attempt.euler,
        now=now,
        game_id=game_id,
    )


class DailySQL(Base):
    async def secret(self, name: str) -> bytes:
        """A random server-side secret, made once and kept in the database: the first
        process to ask makes it, every other one reads that one."""
        await self._write(
            Q.count(
                "INSERT INTO secrets (name, value) VALUES (:name, :value) "
                "ON CONFLICT (name) DO NOTHING",
                name=name,
                value=os.urandom(32),
            )
        )
        row = await self._read(Q.one("SELECT value FROM secrets WHERE name = :name", name=name))
        return bytes(row[0])

    async def entries(self, *, day: str | None = None, user_id: int | None = None) -> list[Entry]:
        """Daily attempts of one day, or of one user, oldest first."""
        column, value = ("day", day) if day is not None else ("user_id", user_id)
        return await self._entries_where(f"e.{column} = :value", value=value)

    async def all_entries(self) -> list[Entry]:
        return await self._entries_where("TRUE")

    async def unsettled_entries(self) -> list[Entry]:
        """Attempts still marked as playing whose game has ended: read through the index
        of attempts in play, not every result ever played."""
        return await self._entries_where(
            "e.status = 'playing' AND g.status IN ('finished', 'abandoned')"
        )

    async def entries_to_share(self) -> list[Entry]:
        """Settled attempts whose share line has not been claimed yet: asked every minute,
        so read through their own index, not from every attempt ever played."""
        return await self._entries_where("e.share_pending = TRUE")

    async def _entries_where(self, condition: str, **params: object) -> list[Entry]:
        rows = await self._read(
            Q.rows(f"{_ENTRY} WHERE {condition} ORDER BY e.day, e.user_id", **params)
        )
        return [Entry(*[*r[:10], bool(r[10])]) for r in rows]

    async def finish_entry(self, entry: Entry, attempt: Attempt) -> None:
        """Settle an attempt whose game ended without settling it (a row from before the
        move settled it), its share line still to post."""
        await self._write(settle_attempt(self.now(), entry.game_id, attempt))

    async def claim_share(self, entry: Entry) -> bool:
        """True once per attempt, across every process: its share line is posted once."""
        changed = await self._write(
            Q.count(
                "UPDATE daily_entries SET share_pending = FALSE "
                "WHERE day = :day AND user_id = :user_id AND share_pending = TRUE",
                day=entry.day,
                user_id=entry.user_id,
            )
        )
        return changed == 1

    async def attempt_day(self, game_id: int) -> str | None:
        """The day of the daily challenge still being played in ``game_id``, if it is one."""
        row = await self._read(
            Q.row(
                "SELECT day FROM daily_entries WHERE game_id = :game_id AND status = 'playing'",
                game_id=game_id,
            )
        )
        return row[0] if row else None

    async def set_daily_channel(self, guild_id: int, channel_id: int) -> None:
        await self._write(
            Q.count(
                "INSERT INTO daily_channels (guild_id, channel_id) VALUES (:guild_id, :channel_id) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
                guild_id=guild_id,
                channel_id=channel_id,
            )
        )

    async def daily_channels(self) -> dict[int, int]:
        rows = await self._read(Q.rows("SELECT guild_id, channel_id FROM daily_channels"))
        return {guild: channel for guild, channel in rows}

    async def daily_posted(self, day: str) -> set[int]:
        rows = await self._read(
            Q.rows("SELECT guild_id FROM daily_posts WHERE day = :day", day=day)
        )
        return {guild for (guild,) in rows}

    async def claim_daily_post(self, day: str, guild_id: int) -> bool:
        """Mark the server's post of ``day`` made; True if it was not already (the one
        process holding the daily lease marks it once posted; a terminal, at once)."""
        changed = await self._write(
            Q.count(
                "INSERT INTO daily_posts (day, guild_id) VALUES (:day, :guild_id) "
                "ON CONFLICT DO NOTHING",
                day=day,
                guild_id=guild_id,
            )
        )
        return changed == 1
