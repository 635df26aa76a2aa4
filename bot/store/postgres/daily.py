"""The daily challenge in PostgreSQL (:class:`bot.store.interface.Daily`)."""

from __future__ import annotations

import os

from bot.store.postgres.connection import Connection
from bot.store.postgres.waits import Statement
from bot.store.rows import Attempt, Entry

_ENTRY = (
    "SELECT e.day, e.user_id, e.name, e.guild_id, e.game_id, e.status, e.total, "
    "e.euler, g.status, g.channel_id, e.share_pending "
    "FROM daily_entries e JOIN games g ON g.id = e.game_id"
)


def settle_attempt(sql: Statement, now: str, game_id: int, attempt: Attempt) -> str:
    """The statement that records how the daily attempt played in ``game_id`` ended (if
    it is one), its share line still to post: part of the move that ended it."""
    return (
        f"UPDATE daily_entries SET status = {sql(attempt.status)}, total = {sql(attempt.total)}, "
        f"euler = {sql(attempt.euler)}, finished_at = {sql(now)}, share_pending = TRUE "
        f"WHERE game_id = {sql(game_id)} AND status = 'playing'"
    )


class DailyPG(Connection):
    async def secret(self, name: str) -> bytes:
        """A random server-side secret, made once and kept in the database: the first
        process to ask makes it, every other one reads that one."""
        await self.execute(
            "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            (name, os.urandom(32)),
        )
        row = await self.row("SELECT value FROM secrets WHERE name = $1", (name,))
        return bytes(row[0])

    async def entries(self, *, day: str | None = None, user_id: int | None = None) -> list[Entry]:
        """Daily attempts of one day, or of one user, oldest first."""
        column, value = ("day", day) if day is not None else ("user_id", user_id)
        return await self._entries_where(f"e.{column} = $1", value)

    async def all_entries(self) -> list[Entry]:
        return await self._entries_where("TRUE")

    async def unsettled_entries(self) -> list[Entry]:
        """Attempts still marked as playing whose game has ended, through the index of
        attempts in play."""
        return await self._entries_where(
            "e.status = 'playing' AND g.status IN ('finished', 'abandoned')"
        )

    async def entries_to_share(self) -> list[Entry]:
        """Settled attempts whose share line has not been claimed yet, through their index."""
        return await self._entries_where("e.share_pending")

    async def _entries_where(self, condition: str, *params: object) -> list[Entry]:
        rows = await self.rows(f"{_ENTRY} WHERE {condition} ORDER BY e.day, e.user_id", params)
        return [Entry(*r) for r in rows]

    async def finish_entry(self, entry: Entry, attempt: Attempt) -> None:
        """Settle an attempt whose game ended without settling it, its share line to post."""
        sql = Statement()
        await self.execute(settle_attempt(sql, self.now(), entry.game_id, attempt), sql.values)

    async def claim_share(self, entry: Entry) -> bool:
        """True once per attempt, across every process: its share line is posted once."""
        changed = await self.execute(
            "UPDATE daily_entries SET share_pending = FALSE "
            "WHERE day = $1 AND user_id = $2 AND share_pending",
            (entry.day, entry.user_id),
        )
        return changed == 1

    async def attempt_day(self, game_id: int) -> str | None:
        """The day of the daily challenge still being played in ``game_id``, if it is one."""
        row = await self.row(
            "SELECT day FROM daily_entries WHERE game_id = $1 AND status = 'playing'", (game_id,)
        )
        return row[0] if row else None

    async def set_daily_channel(self, guild_id: int, channel_id: int) -> None:
        await self.execute(
            "INSERT INTO daily_channels (guild_id, channel_id) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET channel_id = EXCLUDED.channel_id",
            (guild_id, channel_id),
        )

    async def daily_channels(self) -> dict[int, int]:
        rows = await self.rows("SELECT guild_id, channel_id FROM daily_channels")
        return {guild: channel for guild, channel in rows}

    async def daily_posted(self, day: str) -> set[int]:
        rows = await self.rows("SELECT guild_id FROM daily_posts WHERE day = $1", (day,))
        return {guild for (guild,) in rows}

    async def claim_daily_post(self, day: str, guild_id: int) -> bool:
        """Mark the server's post of ``day`` made; True if it was not already (the one
        process holding the daily lease marks it once posted; a terminal, at once)."""
        changed = await self.execute(
            "INSERT INTO daily_posts (day, guild_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            (day, guild_id),
        )
        return changed == 1
