"""The outbox and settings in SQLite (:class:`bot.store.interface.Notices`,
:class:`bot.store.interface.SettingsStore`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from bot.store.queries import (
    CLAIM_LEASE,
    MAX_ATTEMPTS,
    NOTICE_COLUMNS,
    RETRY_AFTER,
    SETTINGS_COLUMNS,
    digest_due,
    settings_of,
)
from bot.store.rows import Notice, Settings, iso
from bot.store.sqlite.connection import Connection
from bot.store.sqlite.digests import stored_due
from bot.store.sqlite.units import fetch_rows
from bot.store.sqlite.waits import reschedule


def queue_turn(
    conn: sqlite3.Connection, now: str, game_id: int, user_id: int, text: str, due_at: str
) -> None:
    """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
    conn.execute(
        "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
        "turn_since) SELECT game_id, user_id, 'turn', 'dm', ?, ?, ?, turn_since "
        "FROM seats WHERE game_id = ? AND user_id = ? AND awaiting = 1",
        (text, due_at, now, game_id, user_id),
    )


def queue_board(
    conn: sqlite3.Connection, now: str, game_id: int, user_id: int, seq: int, note: str, due: str
) -> None:
    """Queue the stand-in for move ``seq``'s public post, made by ``user_id``'s seat."""
    conn.execute(
        "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, seq) "
        "VALUES (?, ?, 'board', 'channel', ?, ?, ?, ?)",
        (game_id, user_id, note, due, now, seq),
    )


def _notices(conn: sqlite3.Connection, ids: list[int]) -> list[Notice]:
    """The notices of ``ids``, as they now stand, the longest due first."""
    rows = conn.execute(
        f"SELECT {NOTICE_COLUMNS} FROM outbox o LEFT JOIN games g ON g.id = o.game_id "
        f"WHERE o.id IN ({','.join('?' * len(ids))}) ORDER BY o.due_at, o.id",
        ids,
    ).fetchall()
    return [Notice(*r) for r in rows]


def tell_next(
    conn: sqlite3.Connection, now: str, game_id: int, heads_ups: Iterable[tuple[int, str, str, str]]
) -> None:
    """Queue each "you're next" heads-up (user, via, text, due at) for a player not
    awaited in this game who has not been told since their own last turn began, and note
    that they have: at most one a turn, however the game goes meanwhile."""
    for user_id, via, text, due_at in heads_ups:
        told = conn.execute(
            "UPDATE seats SET told_next = 1 WHERE game_id = ? AND user_id = ? AND awaiting = 0 "
            "AND told_next = 0",
            (game_id, user_id),
        )
        if told.rowcount == 1:
            conn.execute(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at) "
                "VALUES (?, ?, 'heads_up', ?, ?, ?, ?)",
                (game_id, user_id, via, text, due_at, now),
            )


class NoticesSQL(Connection):
    async def queue_turn_notice(self, game_id: int, user_id: int, text: str, due_at: str) -> None:
        """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
        await self.write(queue_turn, self.now(), game_id, user_id, text, due_at)

    async def claim_notices(self, claimer: str) -> list[Notice]:
        """Take the notices due now for delivery, under ``claimer``; two deliverers never
        get the same one.

        A notice whose wait is over (the player moved, was replaced, the game ended) is
        dropped rather than sent: a DM held through quiet hours must not arrive after the
        move. So is a "you're next" heads-up once its player's turn has come (their turn
        notice says so) or the game is over. Notices queued before migration 7 name no
        wait and are delivered as before.
        """
        now = self.clock()

        def unit(conn: sqlite3.Connection) -> list[Notice]:
            conn.execute(
                "UPDATE outbox SET dropped = 'moved' WHERE sent_at IS NULL AND dropped IS NULL "
                "AND turn_since IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
                "AND s.user_id = outbox.user_id AND s.awaiting = 1 "
                "AND s.turn_since = outbox.turn_since AND g.status = 'active')"
            )
            conn.execute(
                "UPDATE outbox SET dropped = 'moved' WHERE sent_at IS NULL AND dropped IS NULL "
                "AND kind = 'heads_up' AND NOT EXISTS (SELECT 1 FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
                "AND s.user_id = outbox.user_id AND s.awaiting = 0 AND g.status = 'active')"
            )
            claimed = conn.execute(
                "UPDATE outbox SET claimed_at = ?, claimed_by = ?, attempts = attempts + 1 "
                "WHERE sent_at IS NULL AND dropped IS NULL AND due_at <= ? "
                "AND (claimed_at IS NULL OR claimed_at <= ?) RETURNING id",
                (iso(now), claimer, iso(now), iso(now - CLAIM_LEASE)),
            ).fetchall()
            return _notices(conn, [r[0] for r in claimed])

        return await self.write(unit)

    async def claim_announcement(self, game_id: int, seq: int, claimer: str) -> Notice | None:
        """The stand-in for move ``seq``'s public post, taken by ``claimer`` to post the
        move now: None if another process is delivering it or posted it already. It stays
        due when it was, for another process to post should this one die first."""
        now = self.clock()

        def unit(conn: sqlite3.Connection) -> Notice | None:
            taken = conn.execute(
                "UPDATE outbox SET claimed_by = ? WHERE game_id = ? AND seq = ? "
                "AND kind = 'board' AND sent_at IS NULL AND dropped IS NULL "
                "AND (claimed_at IS NULL OR claimed_at <= ?) RETURNING id",
                (claimer, game_id, seq, iso(now - CLAIM_LEASE)),
            ).fetchall()
            found = _notices(conn, [r[0] for r in taken])
            return found[0] if found else None

        return await self.write(unit)

    async def confirm_claim(self, notice: Notice) -> bool:
        """Extend ``notice``'s claim from now if it is still the one it was taken under
        and the notice is neither sent nor dropped: True, send it now; False, another
        process took it over (this one stalled past the claim), so leave it be."""
        extended = await self.execute(
            "UPDATE outbox SET claimed_at = ? WHERE id = ? AND claimed_by = ? "
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
            outcome, sets = "retry", "claimed_at = NULL, due_at = ?"
            params: tuple = (iso(now + RETRY_AFTER * notice.attempts),)
        elif notice.via == "dm" and notice.channel_id is not None:
            outcome = "channel"
            sets = "via = 'channel', attempts = 0, claimed_at = NULL, due_at = ?"
            params = (iso(now),)
        else:
            outcome, sets, params = "dropped", "dropped = 'failed'", ()
        await self.execute(f"UPDATE outbox SET {sets} WHERE id = ?", (*params, notice.id))
        return outcome

    async def mark_sent(self, notice: Notice) -> bool:
        """``notice`` went out: it is sent, whoever holds it. Whether its claim was still
        this one (False: another process took it over meanwhile, and may send it too)."""
        rows = await self.write(
            fetch_rows,
            "UPDATE outbox SET sent_at = COALESCE(sent_at, ?) WHERE id = ? RETURNING claimed_by",
            (self.now(), notice.id),
        )
        return bool(rows) and rows[0][0] == notice.claim

    async def settings(self, user_id: int) -> Settings:
        row = await self.row(
            f"SELECT {SETTINGS_COLUMNS} FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return settings_of(row)

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        now = self.clock()

        def unit(conn: sqlite3.Connection) -> None:
            digest_at = digest_due(settings, stored_due(conn, user_id), now)
            conn.execute(
                "INSERT OR REPLACE INTO user_settings (user_id, notify, timezone, quiet_start, "
                "quiet_end, vacation_days, vacation_until, remind_hours, digest_hour, "
                "heads_up, digest_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (user_id, settings.notify, settings.timezone, settings.quiet_start)
                + (settings.quiet_end, settings.vacation_days, settings.vacation_until)
                + (settings.remind_hours, settings.digest_hour, int(settings.heads_up))
                + (digest_at,),
            )
            # nothing is due during a vacation, and a reminder comes at the player's own
            # cadence or not at all with a digest: these move the user's waits
            reschedule(conn, "s.user_id = ? AND s.awaiting = 1", user_id)

        await self.write(unit)

    async def organiser_role(self, guild_id: int) -> int | None:
        row = await self.row(
            "SELECT organiser_role FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.execute(
            "INSERT OR REPLACE INTO guild_settings (guild_id, organiser_role) VALUES (?, ?)",
            (guild_id, role_id),
        )
