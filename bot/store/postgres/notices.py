"""The outbox on PostgreSQL (:mod:`bot.store.shared.notices`): notices are claimed with
``FOR UPDATE SKIP LOCKED``, so processes delivering at once each take different notices
and none waits for another; a claim and the notices it took are one statement."""

from __future__ import annotations

from datetime import datetime

from bot.store.rows import Notice, iso
from bot.store.shared.notices import CLAIM_LEASE, NOTICE_COLUMNS, NoticesSQL
from bot.store.sql import Body, Q


class NoticesPG(NoticesSQL):
    def _take_notices(self, now: datetime, claimer: str) -> Body[list[Notice]]:
        rows = yield Q.rows(
            "WITH c AS (SELECT id FROM outbox WHERE sent_at IS NULL AND dropped IS NULL "
            "AND due_at <= :now AND (claimed_at IS NULL OR claimed_at <= :lapsed) "
            "FOR UPDATE SKIP LOCKED), "
            "o AS (UPDATE outbox o SET claimed_at = :now, claimed_by = :claimer, "
            "attempts = o.attempts + 1 FROM c WHERE o.id = c.id RETURNING o.*) "
            f"SELECT {NOTICE_COLUMNS} FROM o LEFT JOIN games g ON g.id = o.game_id "
            "ORDER BY o.due_at, o.id",
            now=iso(now),
            lapsed=iso(now - CLAIM_LEASE),
            claimer=claimer,
        )
        return [Notice(*r) for r in rows]

    async def claim_announcement(self, game_id: int, seq: int, claimer: str) -> Notice | None:
        """One statement, committing by itself."""
        lapsed = iso(self.clock() - CLAIM_LEASE)
        statement = Q.row(
            "WITH o AS (UPDATE outbox SET claimed_by = :claimer WHERE game_id = :game_id "
            "AND seq = :seq AND kind = 'board' AND sent_at IS NULL AND dropped IS NULL "
            "AND (claimed_at IS NULL OR claimed_at <= :lapsed) RETURNING *) "
            f"SELECT {NOTICE_COLUMNS} FROM o LEFT JOIN games g ON g.id = o.game_id",
            claimer=claimer,
            game_id=game_id,
            seq=seq,
            lapsed=lapsed,
        ).map(lambda row: None if row is None else Notice(*row))
        return await self._write(statement)
