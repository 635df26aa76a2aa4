"""Daily digests (:class:`bot.store.interface.Digests`), written once for every store: when
each player's is next due, kept with their settings and indexed, so the minute's pass
reads only the digests due; each claimed once, by a conditional UPDATE, with its notice,
so of several processes passing at once only one queues a player's digest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.store.rows import Settings, iso
from bot.store.shared.base import Base
from bot.store.shared.notices import SETTINGS_COLUMNS, settings_of
from bot.store.sql import Body, Q


class DigestsSQL(Base):
    async def due_digests(self, now: datetime) -> list[tuple[int, str, Settings]]:
        """Every player whose digest is due by ``now``: (user, due at, settings)."""
        rows = await self._read(
            Q.rows(
                f"SELECT user_id, digest_at, {SETTINGS_COLUMNS} FROM user_settings "
                "WHERE digest_at <= :now ORDER BY digest_at, user_id",
                now=iso(now),
            )
        )
        return [(r[0], r[1], settings_of(r[2:])) for r in rows]

    async def claim_digests(self, claims: Sequence[tuple[int, str, str | None, str | None]]) -> int:
        """Move each player's digest on from ``due`` to ``following`` and queue its text
        (none: nothing waits, nothing is sent), all in one transaction; each only if its
        digest is still due at ``due``, so two passes never both send one. ``claims``
        are (user, due, following, text); returns how many were queued."""
        if not claims:
            return 0
        return await self._write(self._claim_digests(self.now(), claims))

    def _claim_digests(
        self, now: str, claims: Sequence[tuple[int, str, str | None, str | None]]
    ) -> Body[int]:
        queued = 0
        for user_id, due, following, text in claims:
            moved = yield Q.count(
                "UPDATE user_settings SET digest_at = :following "
                "WHERE user_id = :user_id AND digest_at = :due",
                following=following,
                user_id=user_id,
                due=due,
            )
            if moved == 1 and text is not None:
                yield Q.count(
                    "INSERT INTO outbox (user_id, kind, via, text, due_at, created_at) "
                    "VALUES (:user_id, 'digest', 'dm', :text, :now, :now)",
                    user_id=user_id,
                    text=text,
                    now=now,
                )
                queued += 1
        return queued
