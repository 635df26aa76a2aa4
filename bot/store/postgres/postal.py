"""Play by post in PostgreSQL: turn clocks and the timers that read them
(:class:`bot.store.interface.Postal`). Reminders and warnings are claimed by a conditional
UPDATE: of several processes ticking at once, the one whose UPDATE changes the row queues
the notices, the others find the row already changed and queue nothing."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.clocks import Clocks, Wait
from bot.store.faults import StaleGame
from bot.store.postgres.connection import Connection, Tx
from bot.store.postgres.waits import reschedule
from bot.store.queries import WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.rows import Awaiting, iso, parse_time


class PostalPG(Connection):
    async def clocks(self, game_id: int) -> Clocks:
        row = await self.row(
            "SELECT move_hours, deadline_policy, remind_hours, reminder_limit, reaction_hours "
            "FROM games WHERE id = $1",
            (game_id,),
        )
        return Clocks(*row)

    async def claim_due_waits(self, now: datetime, until: datetime, limit: int) -> list[Wait]:
        """The waits due by ``now``, claimed until ``until`` with ``FOR UPDATE SKIP
        LOCKED``: processes ticking at once each take different waits, none waits for
        another, and a claim its process never finished falls due again at ``until``.
        Read through the ``seats_due`` index: a tick costs what is due."""

        async def unit(tx: Tx) -> list[Wait]:
            rows = await tx.fetch(
                "WITH c AS (SELECT s.game_id, s.seat FROM seats s JOIN games g "
                "ON g.id = s.game_id WHERE s.due_at <= $1 AND s.awaiting "
                "AND g.status = 'active' ORDER BY s.due_at LIMIT $3 "
                "FOR UPDATE OF s SKIP LOCKED), "
                "claimed AS (UPDATE seats SET due_at = $2 FROM c WHERE seats.game_id = "
                "c.game_id AND seats.seat = c.seat RETURNING seats.game_id, seats.seat) "
                f"SELECT {WAIT_COLUMNS} FROM {WAIT_TABLES} JOIN claimed ON "
                "claimed.game_id = s.game_id AND claimed.seat = s.seat ORDER BY g.id, s.seat",
                iso(now),
                iso(until),
                limit,
            )
            return [wait(r) for r in rows]

        return await self.write(unit)

    async def reschedule(self, waits: Iterable[Wait]) -> None:
        """Store afresh when these waits are next due: the tick found nothing due in them."""
        games = [w.game_id for w in waits]
        seats = [w.seat for w in waits]

        async def unit(tx: Tx) -> None:
            await reschedule(
                tx,
                "(s.game_id, s.seat) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))",
                games,
                seats,
            )

        await self.write(unit)

    async def claim(
        self,
        wait: Wait,
        kind: str,
        notices: Iterable[tuple[str, str, str]],
        reminders: int | None = None,
        deadline: str | None = None,
    ) -> bool:
        """Mark a reminder or warning as sent for this wait and queue its notices, once.

        ``notices`` are (via, text, due_at); ``reminders`` is the reminder count this one
        brings the wait to; ``deadline`` moves a late warning's deadline to give it time.
        The UPDATE's condition is the claim: the row lock makes a second process wait,
        then find the condition false, and queue nothing.
        """
        change, condition, values = {
            "reminder": ("reminders = $4", "reminders = $5", (reminders, wait.reminders)),
            "warning": ("warned = TRUE, deadline = COALESCE($4, deadline)", "NOT warned")
            + ((deadline,),),
        }[kind]
        queued = list(notices)
        now = self.now()

        async def unit(tx: Tx) -> bool:
            changed = await tx.execute(
                f"UPDATE seats SET {change} WHERE game_id = $1 AND seat = $2 AND awaiting "
                f"AND turn_since IS NOT DISTINCT FROM $3 AND {condition}",
                wait.game_id,
                wait.seat,
                wait.turn_since,
                *values,
            )
            if changed != 1:
                return False
            await reschedule(tx, "s.game_id = $1 AND s.seat = $2", wait.game_id, wait.seat)
            if queued:
                vias, texts, dues = (list(column) for column in zip(*queued, strict=True))
                await tx.execute(
                    "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
                    "turn_since) SELECT $1, $2, $3, v.via, v.text, v.due_at, $4, $5 FROM "
                    "unnest($6::text[], $7::text[], $8::timestamptz[]) AS v(via, text, due_at)",
                    wait.game_id,
                    wait.user_id,
                    kind,
                    now,
                    wait.turn_since,
                    vias,
                    texts,
                    dues,
                )
            return True

        return await self.write(unit)

    async def snooze(self, game_id: int, user_id: int, turn_since: str | None = None) -> bool:
        """No more reminders for the user's wait in this game (the one since ``turn_since``,
        if given); False if there is no such wait."""

        async def unit(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE seats SET snoozed = TRUE WHERE game_id = $1 AND user_id = $2 "
                "AND awaiting AND turn_since = COALESCE($3, turn_since)",
                game_id,
                user_id,
                turn_since,
            )
            await reschedule(tx, "s.game_id = $1 AND s.user_id = $2", game_id, user_id)
            return changed == 1

        return await self.write(unit)

    async def waiting_since(self, game_id: int, turn_since: str) -> list[str]:
        """The names of the seats whose wait began at ``turn_since``: whom a reminder was for."""
        rows = await self.rows(
            "SELECT name FROM seats WHERE game_id = $1 AND awaiting AND turn_since = $2 "
            "ORDER BY seat",
            (game_id, turn_since),
        )
        return [name for (name,) in rows]

    async def push_deadlines(self, hours: float, *, user_id: int) -> list[int]:
        """Move the running deadlines of one user's waits ``hours`` later (a vacation).

        Each seat remembers the time as vacation, and a negative ``hours`` (back early)
        takes back at most what the seat holds as vacation. Returns the games whose
        deadline moved.
        """

        async def unit(tx: Tx) -> list[int]:
            waits = await tx.fetch(
                "SELECT s.game_id, s.seat, s.deadline, s.paused_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.user_id = $1 AND s.awaiting "
                "AND s.deadline IS NOT NULL AND g.status = 'active' FOR UPDATE OF s",
                user_id,
            )
            moved = [
                (game, seat, deadline, by)
                for game, seat, deadline, paused in waits
                if (by := max(hours, -paused)) != 0
            ]
            if moved:
                await tx.execute(
                    "UPDATE seats SET deadline = v.deadline, warned = FALSE, "
                    "paused_hours = paused_hours + v.by FROM unnest($1::bigint[], $2::int[], "
                    "$3::timestamptz[], $4::float8[]) AS v(game_id, seat, deadline, by) "
                    "WHERE seats.game_id = v.game_id AND seats.seat = v.seat",
                    [m[0] for m in moved],
                    [m[1] for m in moved],
                    [iso(parse_time(m[2]) + timedelta(hours=m[3])) for m in moved],
                    [m[3] for m in moved],
                )
            await reschedule(tx, "s.user_id = $1 AND s.awaiting", user_id)
            return [m[0] for m in moved]

        return await self.write(unit)

    async def extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> tuple[float, bool] | None:
        """Give the seats a game waits for ``hours`` more, if this turn's extensions stay
        within ``most`` hours. Returns the hours the turn had already been given and
        whether these were added (None: no deadline runs). The game's row is locked
        first, so two extensions at once, from any processes, cannot both slip under
        the cap.
        """

        async def unit(tx: Tx) -> tuple[float, bool] | None:
            if (
                await tx.fetchrow(
                    "SELECT 1 FROM games WHERE id = $1 AND version = $2 FOR UPDATE",
                    game_id,
                    version,
                )
                is None
            ):
                raise StaleGame(f"game {game_id} moved on from version {version}")
            waits = await tx.fetch(
                "SELECT s.seat, s.deadline, s.extended_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = $1 AND s.awaiting "
                "AND s.deadline IS NOT NULL AND g.status = 'active'",
                game_id,
            )
            if not waits:
                return None
            given = max(extended for _seat, _deadline, extended in waits)
            if given + hours > most:
                return given, False
            await tx.execute(
                "UPDATE seats SET deadline = v.deadline, warned = FALSE, "
                "extended_hours = extended_hours + $4 FROM unnest($2::int[], "
                "$3::timestamptz[]) AS v(seat, deadline) "
                "WHERE seats.game_id = $1 AND seats.seat = v.seat",
                game_id,
                [seat for seat, _deadline, _extended in waits],
                [iso(parse_time(d) + timedelta(hours=hours)) for _seat, d, _extended in waits],
                hours,
            )
            await reschedule(tx, "s.game_id = $1", game_id)
            return given, True

        return await self.write(unit)

    async def awaiting(self, user_id: int) -> list[Awaiting]:
        """Every active game waiting for ``user_id``, the longest-waiting first, with the
        deadline of each (None: no time per move) and the position it waits in."""
        rows = await self.rows(
            "SELECT g.id, g.guild_id, g.channel_id, g.game_key, s.turn_since, s.deadline, "
            "g.version "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.user_id = $1 AND s.awaiting AND g.status = 'active' "
            "ORDER BY s.turn_since, g.id",
            (user_id,),
        )
        return [Awaiting(*r) for r in rows]
