"""Daily digests on PostgreSQL (:mod:`bot.store.shared.digests`): every claim of a pass
and the notices it queues in one statement."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.shared.digests import DigestsSQL
from bot.store.sql import Body, Q


class DigestsPG(DigestsSQL):
    def _claim_digests(
        self, now: str, claims: Sequence[tuple[int, str, str | None, str | None]]
    ) -> Body[int]:
        users, dues, followings, texts = (list(c) for c in zip(*claims, strict=True))
        return (
            yield Q.count(
                "WITH v AS (SELECT * FROM unnest(:users::bigint[], :dues::timestamptz[], "
                ":followings::timestamptz[], :texts::text[]) AS v(u, due, following, body)), "
                "m AS (UPDATE user_settings s SET digest_at = v.following FROM v "
                "WHERE s.user_id = v.u AND s.digest_at = v.due RETURNING v.u, v.body) "
                "INSERT INTO outbox (user_id, kind, via, text, due_at, created_at) "
                "SELECT m.u, 'digest', 'dm', m.body, :now, :now FROM m WHERE m.body IS NOT NULL",
                users=users,
                dues=dues,
                followings=followings,
                texts=texts,
                now=now,
            )
        )
