"""The outbox and settings (:class:`bot.store.interface.Notices`,
:class:`bot.store.interface.SettingsStore`), written once for every store. A notice is
claimed under a claimer's token, for a while: processes delivering at once each take
different notices (:meth:`NoticesSQL._take_notices`; PostgreSQL's skip one another's row
locks), and a claim older than the lease (its process died) is handed out again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.domain.clocks import digest_after
from bot.store.rows import Notice, Settings, iso
from bot.store.shared.waits import WaitsSQL
from bot.store.sql import Body, Q

MAX_ATTEMPTS = 3  # tries per way of delivering a notice; then a DM falls back to the channel
RETRY_AFTER = timedelta(minutes=5)  # times the attempts so far
CLAIM_LEASE = timedelta(minutes=10)  # a claim older than this died with its process
#: a :class:`~bot.store.rows.Notice` as read from ``outbox o``, its game ``g`` joined
NOTICE_COLUMNS = (
    "o.id, o.game_id, g.guild_id, g.channel_id, o.user_id, o.via, o.kind, o.text, "
    "o.turn_since, o.attempts, o.seq, o.claimed_by"
)
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
    return Settings(*[*row[:8], bool(row[8])])


def digest_due(settings: Settings, stored: Sequence | None, now: datetime) -> str | None:
    """When the player's next digest is due, as their new ``settings`` have it. ``stored``
    is what the row held (:data:`DUE_COLUMNS`): a change
    that moves nothing of it keeps the digest due as it was, so one due this minute and
    not yet sent is not skipped by, say, a vacation taken meanwhile."""
    now_by = tuple(getattr(settings, column) for column in DUE_BY)
    kept = stored is not None and tuple(stored[:4]) == now_by and stored[4] is not None
    if settings.digest_hour is not None and kept:
        assert stored is not None  # kept: it was read
        return str(stored[4])
    moment = digest_after(settings, now)
    return None if moment is None else iso(moment)


def queue_turn(now: str, game_id: int, user_id: int, text: str, due_at: str) -> Q:
    """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
    return Q.count(
        "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
        "turn_since) SELECT game_id, user_id, 'turn', 'dm', :text, :due_at, :now, turn_since "
        "FROM seats WHERE game_id = :game_id AND user_id = :user_id AND awaiting = TRUE",
        text=text,
        due_at=due_at,
        now=now,
        game_id=game_id,
        user_id=user_id,
    )


#: a notice whose wait is over (the player moved, was replaced, the game ended) is dropped
#: rather than sent: a DM held through quiet hours must not arrive after the move. So is a
#: "you're next" heads-up once its player's turn has come (their turn notice says so) or
#: the game is over. Notices queued before SQLite's migration 7 name no wait and are
#: delivered as before.
_DROP_MOVED = (
    "UPDATE outbox SET dropped = 'moved' WHERE sent_at IS NULL AND dropped IS NULL "
    "AND ((turn_since IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats s "
    "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
    "AND s.user_id = outbox.user_id AND s.awaiting = TRUE "
    "AND s.turn_since = outbox.turn_since AND g.status = 'active')) "
    "OR (kind = 'heads_up' AND NOT EXISTS (SELECT 1 FROM seats s "
    "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
    "AND s.user_id = outbox.user_id AND s.awaiting = FALSE AND g.status = 'active')))"
)


class NoticesSQL(WaitsSQL):
    async def queue_turn_notice(self, game_id: int, user_id: int, text: str, due_at: str) -> None:
        """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
        await self._write(queue_turn(self.now(), game_id, user_id, text, due_at))

    async def claim_notices(self, claimer: str) -> list[Notice]:
        """Take the notices due now for delivery, under ``claimer``; two deliverers never
        get the same one. A notice whose wait is over is dropped first (:data:`_DROP_MOVED`)."""
        return await self._write(self._claim_notices(self.clock(), claimer))

    def _claim_notices(self, now: datetime, claimer: str) -> Body[list[Notice]]:
        yield Q.count(_DROP_MOVED)
        return (yield from self._take_notices(now, claimer))

    def _take_notices(self, now: datetime, claimer: str) -> Body[list[Notice]]:
        """Claim the notices due by ``now`` whose claim, if any, has run out: the longest
        due first, as they now stand."""
        claimed = yield Q.rows(
            "UPDATE outbox SET claimed_at = :now, claimed_by = :claimer, "
            "attempts = attempts + 1 WHERE sent_at IS NULL AND dropped IS NULL "
            "AND due_at <= :now AND (claimed_at IS NULL OR claimed_at <= :lapsed) RETURNING id",
            now=iso(now),
            claimer=claimer,
            lapsed=iso(now - CLAIM_LEASE),
        )
        return (yield from _notices([r[0] for r in claimed]))

    async def claim_announcement(self, game_id: int, seq: int, claimer: str) -> Notice | None:
        """The stand-in for move ``seq``'s public post, taken by ``claimer`` to post the
        move now: None if another process is delivering it or posted it already. It stays
        due when it was, for another process to post should this one die first."""
        return await self._write(
            self._claim_announcement(iso(self.clock() - CLAIM_LEASE), game_id, seq, claimer)
        )

    def _claim_announcement(
        self, lapsed: str, game_id: int, seq: int, claimer: str
    ) -> Body[Notice | None]:
        taken = yield Q.rows(
            "UPDATE outbox SET claimed_by = :claimer WHERE game_id = :game_id AND seq = :seq "
            "AND kind = 'board' AND sent_at IS NULL AND dropped IS NULL "
            "AND (claimed_at IS NULL OR claimed_at <= :lapsed) RETURNING id",
            claimer=claimer,
            game_id=game_id,
            seq=seq,
            lapsed=lapsed,
        )
        found = yield from _notices([r[0] for r in taken])
        return found[0] if found else None

    async def confirm_claim(self, notice: Notice) -> bool:
        """Extend ``notice``'s claim from now if it is still the one it was taken under
        and the notice is neither sent nor dropped: True, send it now; False, another
        process took it over (this one stalled past the claim), so leave it be."""
        extended = await self._write(
            Q.count(
                "UPDATE outbox SET claimed_at = :now WHERE id = :id AND claimed_by = :claim "
                "AND sent_at IS NULL AND dropped IS NULL",
                now=self.now(),
                id=notice.id,
                claim=notice.claim,
            )
        )
        return extended == 1

    async def delivery_failed(self, notice: Notice) -> str:
        """Put back a notice Discord refused, for a later try: ``retry``; after the last
        try a DM becomes a channel mention (``channel``), a mention is given up (``dropped``),
        and so is a digest, which no one channel may show (tomorrow's comes anyway)."""
        now = self.clock()
        if notice.attempts < MAX_ATTEMPTS:
            outcome, sets = "retry", "claimed_at = NULL, due_at = :due_at"
            params: dict[str, object] = dict(due_at=iso(now + RETRY_AFTER * notice.attempts))
        elif notice.via == "dm" and notice.channel_id is not None:
            outcome = "channel"
            sets = "via = 'channel', attempts = 0, claimed_at = NULL, due_at = :due_at"
            params = dict(due_at=iso(now))
        else:
            outcome, sets, params = "dropped", "dropped = 'failed'", {}
        await self._write(Q(f"UPDATE outbox SET {sets} WHERE id = :id", dict(params, id=notice.id)))
        return outcome

    async def mark_sent(self, notice: Notice) -> bool:
        """``notice`` went out: it is sent, whoever holds it. Whether its claim was still
        this one (False: another process took it over meanwhile, and may send it too)."""
        row = await self._write(
            Q.row(
                "UPDATE outbox SET sent_at = COALESCE(sent_at, :now) WHERE id = :id "
                "RETURNING claimed_by",
                now=self.now(),
                id=notice.id,
            )
        )
        return row is not None and row[0] == notice.claim

    async def settings(self, user_id: int) -> Settings:
        row = await self._read(
            Q.row(
                f"SELECT {SETTINGS_COLUMNS} FROM user_settings WHERE user_id = :user_id",
                user_id=user_id,
            )
        )
        return settings_of(row)

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        """Store a user's settings, when their digest is next due following them, and when
        each of their waits is: nothing is due during a vacation, and a reminder comes at
        the player's own cadence, or not at all with a digest."""
        await self._write(self._put_settings(self.clock(), user_id, settings))

    def _put_settings(self, now: datetime, user_id: int, settings: Settings) -> Body[None]:
        stored = yield Q.row(
            f"SELECT {DUE_COLUMNS} FROM user_settings WHERE user_id = :user_id FOR UPDATE",
            user_id=user_id,
        )
        yield Q.count(
            "INSERT INTO user_settings (user_id, notify, timezone, quiet_start, quiet_end, "
            "vacation_days, vacation_until, remind_hours, digest_hour, heads_up, digest_at) "
            "VALUES (:user_id, :notify, :timezone, :quiet_start, :quiet_end, :vacation_days, "
            ":vacation_until, :remind_hours, :digest_hour, :heads_up, :digest_at) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
            "timezone = excluded.timezone, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, vacation_days = excluded.vacation_days, "
            "vacation_until = excluded.vacation_until, "
            "remind_hours = excluded.remind_hours, digest_hour = excluded.digest_hour, "
            "heads_up = excluded.heads_up, digest_at = excluded.digest_at",
            user_id=user_id,
            notify=settings.notify,
            timezone=settings.timezone,
            quiet_start=settings.quiet_start,
            quiet_end=settings.quiet_end,
            vacation_days=settings.vacation_days,
            vacation_until=settings.vacation_until,
            remind_hours=settings.remind_hours,
            digest_hour=settings.digest_hour,
            heads_up=settings.heads_up,
            digest_at=digest_due(settings, stored, now),
        )
        yield from self._reschedule("s.user_id = :user_id AND s.awaiting = TRUE", user_id=user_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        row = await self._read(
            Q.row(
                "SELECT organiser_role FROM guild_settings WHERE guild_id = :guild_id",
                guild_id=guild_id,
            )
        )
        return None if row is None else row[0]

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self._write(
            Q.count(
                "INSERT INTO guild_settings (guild_id, organiser_role) VALUES (:guild_id, :role) "
                "ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role",
                guild_id=guild_id,
                role=role_id,
            )
        )


def _notices(ids: list[int]) -> Body[list[Notice]]:
    """The notices of ``ids``, as they now stand, the longest due first."""
    if not ids:
        return []
    marks = {f"id{i}": notice for i, notice in enumerate(ids)}
    rows = yield Q(
        f"SELECT {NOTICE_COLUMNS} FROM outbox o LEFT JOIN games g ON g.id = o.game_id "
        f"WHERE o.id IN ({', '.join(f':{m}' for m in marks)}) ORDER BY o.due_at, o.id",
        marks,
    )
    return [Notice(*r) for r in rows]
