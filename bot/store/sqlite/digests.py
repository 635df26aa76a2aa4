"""Daily digests in SQLite (:class:`bot.store.interface.Digests`): when each player's is
next due, kept with their settings and indexed, so the minute's pass reads only the
digests due; each claimed once, by a conditional UPDATE, with its notice."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from bot.store.queries import DUE_COLUMNS, SETTINGS_COLUMNS, settings_of
from bot.store.rows import Settings, iso
from bot.store.sqlite.connection import Connection


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
