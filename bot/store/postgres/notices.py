"""The outbox and settings in PostgreSQL (:class:`bot.store.interface.Notices`,
:class:`bot.store.interface.SettingsStore`). Notices are claimed with ``FOR UPDATE SKIP
LOCKED``: processes delivering at once each take different notices, none waits for
another, and a claim older than the lease (its process died) is handed out again."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.postgres.connection import Connection, Tx
from bot.store.postgres.waits import Game, Seat, Statement, reschedule
from bot.store.queries import (
    CLAIM_LEASE,
    DUE_COLUMNS,
    MAX_ATTEMPTS,
    NOTICE_COLUMNS,
    RETRY_AFTER,
    SETTINGS_COLUMNS,
    digest_due,
    settings_of,
)
from bot.store.rows import Notice, Settings, iso


def queue_for_move(
    sql: Statement,
    now: str,
    game: Game,
    seats: Sequence[Seat],
    notices: Sequence[tuple[int, str, str]],
    told: Sequence[tuple[int, str, str, str]],
    board: tuple[int, str, str] | None,
) -> list[str]:
    """The statements (``WITH`` parts) that queue what a move sends: the "your turn" DMs
    for the waits it starts (user, text, due at), the "you're next" heads-ups (user, via,
    text, due at), and the stand-in for its public post (``board``: mover, note, due at)."""
    parts = []
    since = {s.user_id: s.turn_since for s in seats if s.awaiting}
    queued = [(user, text, due, since[user]) for user, text, due in notices if user in since]
    if queued:
        users, texts, dues, turns = (list(column) for column in zip(*queued, strict=True))
        parts.append(
            "n AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            f"turn_since) SELECT {sql(game.id)}, v.u, 'turn', 'dm', v.t, v.d, {sql(now)}, v.s "
            f"FROM unnest({sql(users)}::bigint[], {sql(texts)}::text[], "
            f"{sql(dues)}::timestamptz[], {sql(turns)}::timestamptz[]) AS v(u, t, d, s))"
        )
    if told:
        users, vias, texts, dues = (list(column) for column in zip(*told, strict=True))
        parts.append(
            "h AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at) "
            f"SELECT {sql(game.id)}, v.u, 'heads_up', v.v, v.t, v.d, {sql(now)} "
            f"FROM unnest({sql(users)}::bigint[], {sql(vias)}::text[], {sql(texts)}::text[], "
            f"{sql(dues)}::timestamptz[]) AS v(u, v, t, d))"
        )
    if board is not None:
        mover, note, due = board
        parts.append(
            "b AS (INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            f"seq) VALUES ({sql(game.id)}, {sql(mover)}, 'board', 'channel', {sql(note)}, "
            f"{sql(due)}::timestamptz, {sql(now)}, {sql(int(game.more))}))"
        )
    return parts


async def queue_turn(tx: Tx, now: str, game_id: int, user_id: int, text: str, due_at: str) -> None:
    """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
    await tx.execute(
        "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
        "turn_since) SELECT game_id, user_id, 'turn', 'dm', $1, $2, $3, turn_since "
        "FROM seats WHERE game_id = $4 AND user_id = $5 AND awaiting",
        text,
        due_at,
        now,
        game_id,
        user_id,
    )


class NoticesPG(Connection):
    async def queue_turn_notice(self, game_id: int, user_id: int, text: str, due_at: str) -> None:
        """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
        await self.read(queue_turn, self.now(), game_id, user_id, text, due_at)

    async def claim_notices(self, claimer: str) -> list[Notice]:
        """Take the notices due now for delivery, under ``claimer``; two deliverers never
        get the same one.

        A notice whose wait is over (the player moved, was replaced, the game ended) is
        dropped rather than sent: a DM held through quiet hours must not arrive after the
        move. So is a "you're next" heads-up once its player's turn has come (their turn
        notice says so) or the game is over.
        """
        now = self.clock()

        async def unit(tx: Tx) -> list[Notice]:
            await tx.execute(
                "UPDATE outbox SET dropped = 'moved' WHERE sent_at IS NULL AND dropped IS NULL "
                "AND ((turn_since IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
                "AND s.user_id = outbox.user_id AND s.awaiting "
                "AND s.turn_since = outbox.turn_since AND g.status = 'active')) "
                "OR (kind = 'heads_up' AND NOT EXISTS (SELECT 1 FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
                "AND s.user_id = outbox.user_id AND NOT s.awaiting AND g.status = 'active')))"
            )
            rows = await tx.fetch(
                "WITH c AS (SELECT id FROM outbox WHERE sent_at IS NULL AND dropped IS NULL "
                "AND due_at <= $1 AND (claimed_at IS NULL OR claimed_at <= $2) "
                "FOR UPDATE SKIP LOCKED), "
                "o AS (UPDATE outbox o SET claimed_at = $1, claimed_by = $3, "
                "attempts = o.attempts + 1 FROM c WHERE o.id = c.id RETURNING o.*) "
                f"SELECT {NOTICE_COLUMNS} FROM o LEFT JOIN games g ON g.id = o.game_id "
                "ORDER BY o.due_at, o.id",
                iso(now),
                iso(now - CLAIM_LEASE),
                claimer,
            )
            return [Notice(*r) for r in rows]

        return await self.write(unit)

    async def claim_announcement(self, game_id: int, seq: int, claimer: str) -> Notice | None:
        """The stand-in for move ``seq``'s public post, taken by ``claimer`` to post the
        move now: None if another process is delivering it or posted it already. It stays
        due when it was, for another process to post should this one die first."""
        row = await self.row(
            "WITH o AS (UPDATE outbox SET claimed_by = $1 WHERE game_id = $2 AND seq = $3 "
            "AND kind = 'board' AND sent_at IS NULL AND dropped IS NULL "
            "AND (claimed_at IS NULL OR claimed_at <= $4) RETURNING *) "
            f"SELECT {NOTICE_COLUMNS} FROM o LEFT JOIN games g ON g.id = o.game_id",
            (claimer, game_id, seq, iso(self.clock() - CLAIM_LEASE)),
        )
        return None if row is None else Notice(*row)

    async def confirm_claim(self, notice: Notice) -> bool:
        """Extend ``notice``'s claim from now if it is still the one it was taken under
        and the notice is neither sent nor dropped: True, send it now; False, another
        process took it over (this one stalled past the claim), so leave it be."""
        extended = await self.execute(
            "UPDATE outbox SET claimed_at = $1 WHERE id = $2 AND claimed_by = $3 "
            "AND sent_at IS NULL AND dropped IS NULL",
            (self.now(), notice.id, notice.claim),
        )
        return extended == 1

    async def delivery_failed(self, notice: Notice) -> str:
        """Put back a notice Discord refused, for a later try: ``retry``; after the last
        try a DM becomes a channel mention (``channel``), a mention is given up (``dropped``),
        and so is a digest, which no one channel may show (tomorrow's comes anyway)."""
        now = self.clock()
        if notice.attempts < MAX_ATTEMPTS:
            outcome, sets = "retry", "claimed_at = NULL, due_at = $2"
            params: tuple = (iso(now + RETRY_AFTER * notice.attempts),)
        elif notice.via == "dm" and notice.channel_id is not None:
            outcome = "channel"
            sets = "via = 'channel', attempts = 0, claimed_at = NULL, due_at = $2"
            params = (iso(now),)
        else:
            outcome, sets, params = "dropped", "dropped = 'failed'", ()
        await self.execute(f"UPDATE outbox SET {sets} WHERE id = $1", (notice.id, *params))
        return outcome

    async def mark_sent(self, notice: Notice) -> bool:
        """``notice`` went out: it is sent, whoever holds it. Whether its claim was still
        this one (False: another process took it over meanwhile, and may send it too)."""
        row = await self.row(
            "UPDATE outbox SET sent_at = COALESCE(sent_at, $1) WHERE id = $2 RETURNING claimed_by",
            (self.now(), notice.id),
        )
        return row is not None and row[0] == notice.claim

    async def settings(self, user_id: int) -> Settings:
        row = await self.row(
            f"SELECT {SETTINGS_COLUMNS} FROM user_settings WHERE user_id = $1", (user_id,)
        )
        return settings_of(row)

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        now = self.clock()

        async def unit(tx: Tx) -> None:
            stored = await tx.fetchrow(
                f"SELECT {DUE_COLUMNS} FROM user_settings WHERE user_id = $1 FOR UPDATE", user_id
            )
            await tx.execute(
                "INSERT INTO user_settings (user_id, notify, timezone, quiet_start, quiet_end, "
                "vacation_days, vacation_until, remind_hours, digest_hour, heads_up, "
                "digest_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
                "ON CONFLICT (user_id) DO UPDATE SET notify = EXCLUDED.notify, "
                "timezone = EXCLUDED.timezone, quiet_start = EXCLUDED.quiet_start, "
                "quiet_end = EXCLUDED.quiet_end, vacation_days = EXCLUDED.vacation_days, "
                "vacation_until = EXCLUDED.vacation_until, "
                "remind_hours = EXCLUDED.remind_hours, digest_hour = EXCLUDED.digest_hour, "
                "heads_up = EXCLUDED.heads_up, digest_at = EXCLUDED.digest_at",
                user_id,
                settings.notify,
                settings.timezone,
                settings.quiet_start,
                settings.quiet_end,
                settings.vacation_days,
                settings.vacation_until,
                settings.remind_hours,
                settings.digest_hour,
                settings.heads_up,
                digest_due(settings, stored, now),
            )
            # nothing is due during a vacation, and a reminder comes at the player's own
            # cadence or not at all with a digest: these move the user's waits
            await reschedule(tx, "s.user_id = $1 AND s.awaiting", user_id)

        await self.write(unit)

    async def organiser_role(self, guild_id: int) -> int | None:
        row = await self.row(
            "SELECT organiser_role FROM guild_settings WHERE guild_id = $1", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.execute(
            "INSERT INTO guild_settings (guild_id, organiser_role) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET organiser_role = EXCLUDED.organiser_role",
            (guild_id, role_id),
        )
