"""The daily challenge in SQLite (:class:`bot.store.interface.Daily`)."""

from __future__ import annotations

import sqlite3

from bot.store.rows import Attempt, Entry
from bot.store.sqlite.connection import Connection

_ENTRY = (
    "SELECT e.day, e.user_id, e.name, e.guild_id, e.game_id, e.status, e.total, "
    "e.euler, g.status, g.channel_id, e.share_pending "
    "FROM daily_entries e JOIN games g ON g.id = e.game_id"
)


def settle_attempt(conn: sqlite3.Connection, now: str, game_id: int, attempt: Attempt) -> None:
    """Record how the daily attempt played in ``game_id`` ended (if it is one), its share
    line still to post: inside the transaction of the move that ended it."""
    conn.execute(
        "UPDATE daily_entries SET status = ?, total = ?, euler = ?, finished_at = ?, "
        "share_pending = 1 WHERE game_id = ? AND status = 'playing'",
        (attempt.status, attempt.total, attempt.euler, now, game_id),
    )


def _secret(conn: sqlite3.Connection, name: str) -> bytes:
    conn.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, randomblob(32))", (name,))
    (value,) = conn.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
    return bytes(value)


class DailySQL(Connection):
    async def secret(self, name: str) -> bytes:
        """A random server-side secret, made once and kept in the database."""
        return await self.write(_secret, name)

    async def entries(self, *, day: str | None = None, user_id: int | None = None) -> list[Entry]:
        """Daily attempts of one day, or of one user, oldest first."""
        column, value = ("day", day) if day is not None else ("user_id", user_id)
        return await self._entries_where(f"e.{column} = ?", value)

    async def all_entries(self) -> list[Entry]:
        return await self._entries_where("1")

    async def unsettled_entries(self) -> list[Entry]:
        """Attempts still marked as playing whose game has ended: read through the index
        of attempts in play, not every result ever played."""
        return await self._entries_where(
            "e.status = 'playing' AND g.status IN ('finished', 'abandoned')"
        )

    async def entries_to_share(self) -> list[Entry]:
        """Settled attempts whose share line has not been claimed yet: asked every minute,
        so read through their own index, not from every attempt ever played."""
        return await self._entries_where("e.share_pending = 1")

    async def _entries_where(self, condition: str, *params: object) -> list[Entry]:
        rows = await self.rows(f"{_ENTRY} WHERE {condition} ORDER BY e.day, e.user_id", params)
        return [Entry(*r[:10], bool(r[10])) for r in rows]

    async def finish_entry(self, entry: Entry, attempt: Attempt) -> None:
        """Settle an attempt whose game ended without settling it (a row from before the
        move settled it), its share line still to post."""
        await self.write(settle_attempt, self.now(), entry.game_id, attempt)

    async def claim_share(self, entry: Entry) -> bool:
        """True once per attempt: its share line is posted by one tick only."""
        changed = await self.execute(
            "UPDATE daily_entries SET share_pending = 0 "
            "WHERE day = ? AND user_id = ? AND share_pending = 1",
            (entry.day, entry.user_id),
        )
        return changed == 1

    async def attempt_day(self, game_id: int) -> str | None:
        """The day of the daily challenge still being played in ``game_id``, if it is one."""
        row = await self.row(
            "SELECT day FROM daily_entries WHERE game_id = ? AND status = 'playing'", (game_id,)
        )
        return row[0] if row else None

    async def set_daily_channel(self, guild_id: int, channel_id: int) -> None:
        await self.execute(
            "INSERT OR REPLACE INTO daily_channels (guild_id, channel_id) VALUES (?, ?)",
            (guild_id, channel_id),
        )

    async def daily_channels(self) -> dict[int, int]:
        rows = await self.rows("SELECT guild_id, channel_id FROM daily_channels")
        return {guild: channel for guild, channel in rows}

    async def daily_posted(self, day: str) -> set[int]:
        rows = await self.rows("SELECT guild_id FROM daily_posts WHERE day = ?", (day,))
        return {guild for (guild,) in rows}

    async def claim_daily_post(self, day: str, guild_id: int) -> bool:
        """Mark the server's post of ``day`` made; True if it was not already (the one
        process holding the daily lease marks it once posted; a terminal, at once)."""
        changed = await self.execute(
            "INSERT OR IGNORE INTO daily_posts (day, guild_id) VALUES (?, ?)", (day, guild_id)
        )
        return changed == 1
