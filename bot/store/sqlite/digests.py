"""Daily digests in SQLite (:class:`bot.store.interface.Digests`): when each player's is
next due, kept with their settings and indexed, so the minute's pass reads only the
digests due; each claimed once, by a conditional UPDATE, with its notice."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from bot.clocks import next_digest
from bot.store.rows import Settings, iso
from bot.store.sqlite.connection import Connection

#: a user's settings as :func:`settings_of` reads them
SETTINGS_COLUMNS = (
    "notify, timezone, quiet_start, quiet_end, vacation_days, vacation_until, remind_hours, "
    "digest_hour, heads_up"
)
#: what decides when a digest is due, as stored beside it, and then when it is
DUE_BY = ("digest_hour", "timezone", "quiet_start", "quiet_end")
DUE_COLUMNS = f"{', '.join(DUE_BY)}, digest_at"


def settings_of(row: Sequence | None) -> Settings:
    if row is None:
        return Settings()
    return Settings(*row[:8], bool(row[8]))


def digest_due(settings: Settings, stored: Sequence | None, now: datetime) -> str | None:
    """When the player's next digest is due, as their new ``settings`` have it. ``stored``
    is what the row held (:data:`DUE_COLUMNS`): a change
    that moves nothing of it keeps the digest due as it was, so one due this minute and
    not yet sent is not skipped by, say, a vacation taken meanwhile."""
    if settings.digest_hour is None:
        return None
    now_by = tuple(getattr(settings, column) for column in DUE_BY)
    if stored is not None and tuple(stored[:4]) == now_by and stored[4] is not None:
        return str(stored[4])
    return iso(next_digest(settings.digest_hour, settings.timezone, settings.quiet, now))


def stored_due(conn: sqlite3.Connection, user_id: int) -> Sequence | None:
    """The row's :data:`DUE_COLUMNS`, for :func:`digest_due`."""
    return conn.execute(
        f"SELECT {DUE_COLUMNS} FROM user_settings WHERE user_id = ?", (user_id,)
    ).fetchone()


class DigestsSQL(Connection):
    async def due_digests(self, now: datetime) -> list[tuple[int, str, Settings]]:
        """Every player whose digest is due by ``now``: (user, due at, settings)."""
        rows = await self.rows(
            f"SELECT user_id, digest_at, {SETTINGS_COLUMNS} FROM user_settings "
            "WHERE digest_at <= ? ORDER BY digest_at, user_id",
            (iso(now),),
        )
        return [(r[0], r[1], settings_of(r[2:])) for r in rows]

    async def claim_digests(self, claims: Sequence[tuple[int, str, str, str | None]]) -> int:
        """Move each player's digest on from ``due`` to ``following`` and queue its text
        (none: nothing waits, nothing is sent), all in one transaction; each only if its
        digest is still due at ``due``, so two passes never both send one. ``claims``
        are (user, due, following, text); returns how many were queued."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> int:
            queued = 0
            for user_id, due, following, text in claims:
                moved = conn.execute(
                    "UPDATE user_settings SET digest_at = ? WHERE user_id = ? AND digest_at = ?",
                    (following, user_id, due),
                )
                if moved.rowcount == 1 and text is not None:
                    conn.execute(
                        "INSERT INTO outbox (user_id, kind, via, text, due_at, created_at) "
                        "VALUES (?, 'digest', 'dm', ?, ?, ?)",
                        (user_id, text, now, now),
                    )
                    queued += 1
            return queued

        return await self.write(unit)
