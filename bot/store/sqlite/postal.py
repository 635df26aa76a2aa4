"""Play by post in SQLite: turn clocks and the timers that read them
(:class:`bot.store.interface.Postal`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.clocks import Clocks, Wait
from bot.store.faults import StaleGame
from bot.store.queries import WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.rows import Awaiting, iso, parse_time
from bot.store.sqlite.connection import Connection
from bot.store.sqlite.waits import reschedule

#: claimed waits read back per statement: SQLite takes a bounded number of parameters
KEYS_A_READ = 400


class PostalSQL(Connection):
    async def clocks(self, game_id: int) -> Clocks:
        row = await self.row(
            "SELECT move_hours, deadline_policy, remind_hours, reminder_limit, reaction_hours "
            "FROM games WHERE id = ?",
            (game_id,),
        )
        return Clocks(*row)

    async def claim_due_waits(self, now: datetime, until: datetime, limit: int) -> list[Wait]:
        """The waits due by ``now``, claimed until ``until`` (one process has a SQLite
        file, but the claim keeps the scheduler's contract the same on every store).

        Read through the ``seats_due`` index, so a tick costs what is due, however many
        games are stored; every write that changes what decides a due time stores the new
        one in the same transaction (:func:`~bot.store.sqlite.waits.reschedule`)."""

        def unit(conn: sqlite3.Connection) -> list[Wait]:
            keys = conn.execute(
                "UPDATE seats SET due_at = ? WHERE (game_id, seat) IN (SELECT s.game_id, "
                "s.seat FROM seats s JOIN games g ON g.id = s.game_id WHERE s.due_at <= ? "
                "AND s.awaiting = 1 AND g.status = 'active' ORDER BY s.due_at LIMIT ?) "
                "RETURNING game_id, seat",
                (iso(until), iso(now), limit),
            ).fetchall()
            rows = []
            for start in range(0, len(keys), KEYS_A_READ):
                some = keys[start : start + KEYS_A_READ]
                rows += conn.execute(
                    f"SELECT {WAIT_COLUMNS} FROM {WAIT_TABLES} WHERE (s.game_id, s.seat) IN "
                    f"(VALUES {','.join(['(?, ?)'] * len(some))})",
                    [v for key in some for v in key],
                ).fetchall()
            return sorted((wait(r) for r in rows), key=lambda w: (w.game_id, w.seat))

        return await self.write(unit)

    async def reschedule(self, waits: Iterable[Wait]) -> None:
        """Store afresh when these waits are next due: the tick found nothing due in them
        (a wait running when migration 12 came, which it marks as due at once, or one a
        write left due too early, which costs this read and nothing else)."""
        keys = [(w.game_id, w.seat) for w in waits]

        def unit(conn: sqlite3.Connection) -> None:
            for game_id, seat in keys:
                reschedule(conn, "s.game_id = ? AND s.seat = ?", game_id, seat)

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
        Two schedulers (or one restarted at that moment) race on the same conditional
        UPDATE: only one of them queues anything.
        """
        change, condition, expected = {
            "reminder": ("reminders = ?", "reminders = ?", wait.reminders),
            "warning": ("warned = ?, deadline = COALESCE(?, deadline)", "warned = ?", 0),
        }[kind]
        values = (reminders,) if kind == "reminder" else (1, deadline)
        now = self.now()
        queued = [
            (wait.game_id, wait.user_id, kind, via, text, due, now, wait.turn_since)
            for via, text, due in notices
        ]

        def unit(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                f"UPDATE seats SET {change} WHERE game_id = ? AND seat = ? "
                f"AND awaiting = 1 AND turn_since IS ? AND {condition}",
                (*values, wait.game_id, wait.seat, wait.turn_since, expected),
            )
            if cur.rowcount != 1:
                return False
            reschedule(conn, "s.game_id = ? AND s.seat = ?", wait.game_id, wait.seat)
            conn.executemany(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
                "turn_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                queued,
            )
            return True

        return await self.write(unit)

    async def snooze(self, game_id: int, user_id: int, turn_since: str | None = None) -> bool:
        """No more reminders for the user's wait in this game (the one since ``turn_since``,
        if given); False if there is no such wait."""

        def unit(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE seats SET snoozed = 1 WHERE game_id = ? AND user_id = ? AND awaiting = 1 "
                "AND turn_since = COALESCE(?, turn_since)",
                (game_id, user_id, turn_since),
            )
            reschedule(conn, "s.game_id = ? AND s.user_id = ?", game_id, user_id)
            return cur.rowcount == 1

        return await self.write(unit)

    async def waiting_since(self, game_id: int, turn_since: str) -> list[str]:
        """The names of the seats whose wait began at ``turn_since``: whom a reminder was for."""
        rows = await self.rows(
            "SELECT name FROM seats WHERE game_id = ? AND awaiting = 1 AND turn_since = ? "
            "ORDER BY seat",
            (game_id, turn_since),
        )
        return [name for (name,) in rows]

    async def push_deadlines(self, hours: float, *, user_id: int) -> list[int]:
        """Move the running deadlines of one user's waits ``hours`` later (a vacation).

        Each seat remembers the time as vacation, and a negative ``hours`` (back early)
        takes back at most what the seat holds as vacation: a turn that began after the
        return was never pushed. Returns the games whose deadline moved.
        """

        def unit(conn: sqlite3.Connection) -> list[int]:
            waits = conn.execute(
                "SELECT s.game_id, s.seat, s.deadline, s.paused_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND s.awaiting = 1 "
                "AND s.deadline IS NOT NULL AND g.status = 'active'",
                (user_id,),
            ).fetchall()
            moved = []
            for game, seat, deadline, paused in waits:
                by = max(hours, -paused)
                if by == 0:
                    continue
                conn.execute(
                    "UPDATE seats SET deadline = ?, warned = 0, paused_hours = paused_hours + ? "
                    "WHERE game_id = ? AND seat = ?",
                    (iso(parse_time(deadline) + timedelta(hours=by)), by, game, seat),
                )
                moved.append(game)
            reschedule(conn, "s.user_id = ? AND s.awaiting = 1", user_id)
            return moved

        return await self.write(unit)

    async def extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> tuple[float, bool] | None:
        """Give the seats a game waits for ``hours`` more, if this turn's extensions stay
        within ``most`` hours: ``/game extend`` is capped per turn, and a new wait starts
        again from none. Returns the hours the turn had already been given and whether
        these were added (None: no deadline runs). The check and the change are one
        transaction, so two extensions at once cannot both slip under the cap.
        """

        def unit(conn: sqlite3.Connection) -> tuple[float, bool] | None:
            if not conn.execute(
                "SELECT 1 FROM games WHERE id = ? AND version = ?", (game_id, version)
            ).fetchone():
                raise StaleGame(f"game {game_id} moved on from version {version}")
            waits = conn.execute(
                "SELECT s.seat, s.deadline, s.extended_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = ? AND s.awaiting = 1 "
                "AND s.deadline IS NOT NULL AND g.status = 'active'",
                (game_id,),
            ).fetchall()
            if not waits:
                return None
            given = max(extended for _seat, _deadline, extended in waits)
            if given + hours > most:
                return given, False
            conn.executemany(
                "UPDATE seats SET deadline = ?, warned = 0, extended_hours = extended_hours + ? "
                "WHERE game_id = ? AND seat = ?",
                [
                    (iso(parse_time(deadline) + timedelta(hours=hours)), hours, game_id, seat)
                    for seat, deadline, _extended in waits
                ],
            )
            reschedule(conn, "s.game_id = ?", game_id)
            return given, True

        return await self.write(unit)

    async def awaiting(self, user_id: int) -> list[Awaiting]:
        """Every active game waiting for ``user_id``, the longest-waiting first, with the
        deadline of each (None: no time per move) and the position it waits in."""
        rows = await self.rows(
            "SELECT g.id, g.guild_id, g.channel_id, g.game_key, s.turn_since, s.deadline, "
            "g.version "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.user_id = ? AND s.awaiting = 1 AND g.status = 'active' "
            "ORDER BY s.turn_since, g.id",
            (user_id,),
        )
        return [Awaiting(*r) for r in rows]
