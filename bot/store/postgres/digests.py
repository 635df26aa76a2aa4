"""Daily digests in PostgreSQL (:class:`bot.store.interface.Digests`), as in SQLite
(:mod:`bot.store.sqlite.digests`): each claimed once by a conditional UPDATE, so of
several processes passing at once only one queues a player's digest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.store.postgres.connection import Connection, Tx
from bot.store.queries import SETTINGS_COLUMNS, settings_of
from bot.store.rows import Settings, iso


class DigestsPG(Connection):
    async def due_digests(self, now: datetime) -> list[tuple[int, str, Settings]]:
        """Every player whose digest is due by ``now``: (user, due at, settings)."""
        rows = await self.rows(
            f"SELECT user_id, digest_at, {SETTINGS_COLUMNS} FROM user_settings "
            "WHERE digest_at <= $1 ORDER BY digest_at, user_id",
            (iso(now),),
        )
        return [(r[0], r[1], settings_of(r[2:])) for r in rows]

    async def claim_digests(self, claims: Sequence[tuple[int, str, str, str | None]]) -> int:
        """Move each player's digest on from ``due`` to ``following`` and queue its text
        (none: nothing waits, nothing is sent), in one transaction of two trips; each only
        if its digest is still due at ``due``. ``claims`` are (user, due, following,
        text); returns how many were queued."""
        if not claims:
            return 0
        users, dues, followings, texts = (list(c) for c in zip(*claims, strict=True))

        async def unit(tx: Tx) -> int:
            return await tx.execute(
                "WITH v AS (SELECT * FROM unnest($1::bigint[], $2::timestamptz[], "
                "$3::timestamptz[], $4::text[]) AS v(u, due, following, body)), "
                "m AS (UPDATE user_settings s SET digest_at = v.following FROM v "
                "WHERE s.user_id = v.u AND s.digest_at = v.due RETURNING v.u, v.body) "
                "INSERT INTO outbox (user_id, kind, via, text, due_at, created_at) "
                "SELECT m.u, 'digest', 'dm', m.body, $5, $5 FROM m WHERE m.body IS NOT NULL",
                users,
                dues,
                followings,
                texts,
                self.now(),
            )

        return await self.write(unit)
