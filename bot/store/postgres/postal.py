"""Play by post on PostgreSQL (:mod:`bot.store.shared.postal`): due waits are claimed with
``FOR UPDATE SKIP LOCKED`` in one statement, so processes ticking at once each take
different waits and none waits for another; waits are rescheduled in one statement."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.clocks import Wait
from bot.store.shared.postal import PostalSQL
from bot.store.shared.seats import WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.sql import Body, Q


class PostalPG(PostalSQL):
    def _claim_due_waits(self, now: str, until: str, limit: int) -> Body[list[Wait]]:
        rows = yield Q.rows(
            "WITH c AS (SELECT s.game_id, s.seat FROM seats s JOIN games g "
            "ON g.id = s.game_id WHERE s.due_at <= :now AND s.awaiting = TRUE "
            "AND g.status = 'active' ORDER BY s.due_at LIMIT :limit "
            "FOR UPDATE OF s SKIP LOCKED), "
            "claimed AS (UPDATE seats SET due_at = :until FROM c WHERE seats.game_id = "
            "c.game_id AND seats.seat = c.seat RETURNING seats.game_id, seats.seat) "
            f"SELECT {WAIT_COLUMNS} FROM {WAIT_TABLES} JOIN claimed ON "
            "claimed.game_id = s.game_id AND claimed.seat = s.seat ORDER BY g.id, s.seat",
            now=now,
            until=until,
            limit=limit,
        )
        return [wait(r) for r in rows]

    def _reschedule_waits(self, keys: Sequence[tuple[int, int]]) -> Body[None]:
        yield from self._reschedule(
            "(s.game_id, s.seat) IN (SELECT * FROM unnest(:games::bigint[], :seats::int[]))",
            games=[game for game, _seat in keys],
            seats=[seat for _game, seat in keys],
        )
