"""Play by post: turn clocks and the timers that read them
(:class:`bot.store.interface.Postal`), written once for every store. Reminders and
warnings are claimed by a conditional UPDATE: of several processes ticking at once, the
one whose UPDATE changes the row queues the notices, the others find the row already
changed and queue nothing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from bot.domain.clocks import Clocks, Wait, extension_fits, vacation_shift
from bot.store.faults import StaleGame
from bot.store.rows import Awaiting, iso, parse_time
from bot.store.shared.seats import CLOCK_COLUMNS, WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.shared.waits import WaitsSQL
from bot.store.sql import COUNT, Body, Many, Q

#: claimed waits read back per statement: SQLite takes a bounded number of parameters
KEYS_A_READ = 400


class PostalSQL(WaitsSQL):
    async def clocks(self, game_id: int) -> Clocks:
        row = await self._read(
            Q.one(
                f"SELECT {', '.join(CLOCK_COLUMNS)} FROM games WHERE id = :game_id",
                game_id=game_id,
            )
        )
        return Clocks(*row)

    async def claim_due_waits(self, now: datetime, until: datetime, limit: int) -> list[Wait]:
        """The waits due by ``now``, claimed until ``until``: their due time moves there,
        so no other process takes them meanwhile, and a claim its process never finished
        falls due again then.

        Read through the ``seats_due`` index, so a tick costs what is due, however many
        games are stored; every write that changes what decides a due time stores the new
        one in the same transaction (:meth:`~bot.store.shared.waits.WaitsSQL._reschedule`)."""
        return await self._write(self._claim_due_waits(iso(now), iso(until), limit))

    def _claim_due_waits(self, now: str, until: str, limit: int) -> Body[list[Wait]]:
        keys = yield Q.rows(
            "UPDATE seats SET due_at = :until WHERE (game_id, seat) IN (SELECT s.game_id, "
            "s.seat FROM seats s JOIN games g ON g.id = s.game_id WHERE s.due_at <= :now "
            "AND s.awaiting = TRUE AND g.status = 'active' ORDER BY s.due_at LIMIT :limit) "
            "RETURNING game_id, seat",
            until=until,
            now=now,
            limit=limit,
        )
        rows = []
        for start in range(0, len(keys), KEYS_A_READ):
            some = keys[start : start + KEYS_A_READ]
            marks = ", ".join(f"(:g{i}, :s{i})" for i in range(len(some)))
            params = {
                f"{k}{i}": v for i, key in enumerate(some) for k, v in zip("gs", key, strict=True)
            }
            rows += yield Q(
                f"SELECT {WAIT_COLUMNS} FROM {WAIT_TABLES} WHERE (s.game_id, s.seat) IN "
                f"(VALUES {marks})",
                params,
            )
        return sorted((wait(r) for r in rows), key=lambda w: (w.game_id, w.seat))

    async def reschedule(self, waits: Iterable[Wait]) -> None:
        """Store afresh when these waits are next due: the tick found nothing due in them
        (a wait running when SQLite's migration 12 came, which it marks as due at once,
        or one a write left due too early, which costs this read and nothing else)."""
        keys = [(w.game_id, w.seat) for w in waits]
        await self._write(self._reschedule_waits(keys))

    def _reschedule_waits(self, keys: Sequence[tuple[int, int]]) -> Body[None]:
        for game_id, seat in keys:
            yield from self._reschedule(
                "s.game_id = :game_id AND s.seat = :seat", game_id=game_id, seat=seat
            )

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
        UPDATE (the row lock makes the second wait): only one of them queues anything.
        """
        change, condition = {
            "reminder": ("reminders = :reminders", "reminders = :expected"),
            "warning": (
                "warned = TRUE, deadline = COALESCE(:deadline, deadline)",
                "warned = FALSE",
            ),
        }[kind]
        values = (
            dict(reminders=reminders, expected=wait.reminders)
            if kind == "reminder"
            else dict(deadline=deadline)
        )
        return await self._write(
            self._claim(self.now(), wait, kind, change, condition, values, notices)
        )

    def _claim(
        self,
        now: str,
        wait: Wait,
        kind: str,
        change: str,
        condition: str,
        values: Mapping[str, object],
        notices: Iterable[tuple[str, str, str]],
    ) -> Body[bool]:
        changed = yield Q(
            f"UPDATE seats SET {change} WHERE game_id = :game_id AND seat = :seat "
            f"AND awaiting = TRUE AND turn_since IS NOT DISTINCT FROM :turn_since "
            f"AND {condition}",
            dict(values, game_id=wait.game_id, seat=wait.seat, turn_since=wait.turn_since),
            COUNT,
        )
        if changed != 1:
            return False
        yield from self._reschedule(
            "s.game_id = :game_id AND s.seat = :seat", game_id=wait.game_id, seat=wait.seat
        )
        yield Many(
            "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            "turn_since) VALUES (:game_id, :user_id, :kind, :via, :text, :due_at, :now, "
            ":turn_since)",
            [
                dict(
                    game_id=wait.game_id,
                    user_id=wait.user_id,
                    kind=kind,
                    via=via,
                    text=text,
                    due_at=due,
                    now=now,
                    turn_since=wait.turn_since,
                )
                for via, text, due in notices
            ],
        )
        return True

    async def snooze(self, game_id: int, user_id: int, turn_since: str | None = None) -> bool:
        """No more reminders for the user's wait in this game (the one since ``turn_since``,
        if given); False if there is no such wait."""
        return await self._write(self._snooze(game_id, user_id, turn_since))

    def _snooze(self, game_id: int, user_id: int, turn_since: str | None) -> Body[bool]:
        changed = yield Q.count(
            "UPDATE seats SET snoozed = TRUE WHERE game_id = :game_id AND user_id = :user_id "
            "AND awaiting = TRUE AND turn_since = COALESCE(:turn_since, turn_since)",
            game_id=game_id,
            user_id=user_id,
            turn_since=turn_since,
        )
        yield from self._reschedule(
            "s.game_id = :game_id AND s.user_id = :user_id", game_id=game_id, user_id=user_id
        )
        return changed == 1

    async def waiting_since(self, game_id: int, turn_since: str) -> list[str]:
        """The names of the seats whose wait began at ``turn_since``: whom a reminder was for."""
        rows = await self._read(
            Q.rows(
                "SELECT name FROM seats WHERE game_id = :game_id AND awaiting = TRUE "
                "AND turn_since = :turn_since ORDER BY seat",
                game_id=game_id,
                turn_since=turn_since,
            )
        )
        return [name for (name,) in rows]

    async def push_deadlines(self, hours: float, *, user_id: int) -> list[int]:
        """Move the running deadlines of one user's waits ``hours`` later (a vacation):
        each seat remembers the time as vacation, and coming back early takes back at
        most that (:func:`bot.domain.clocks.vacation_shift`). Returns the games whose deadline
        moved."""
        return await self._write(self._push_deadlines(hours, user_id))

    def _push_deadlines(self, hours: float, user_id: int) -> Body[list[int]]:
        waits = yield Q.rows(
            "SELECT s.game_id, s.seat, s.deadline, s.paused_hours FROM seats s "
            "JOIN games g ON g.id = s.game_id WHERE s.user_id = :user_id AND s.awaiting = TRUE "
            "AND s.deadline IS NOT NULL AND g.status = 'active' FOR UPDATE OF s",
            user_id=user_id,
        )
        moved = [
            dict(
                game_id=game,
                seat=seat,
                deadline=iso(parse_time(deadline) + timedelta(hours=by)),
                by=by,
            )
            for game, seat, deadline, paused in waits
            if (by := vacation_shift(hours, paused)) != 0
        ]
        yield Many(
            "UPDATE seats SET deadline = :deadline, warned = FALSE, "
            "paused_hours = paused_hours + :by WHERE game_id = :game_id AND seat = :seat",
            moved,
        )
        yield from self._reschedule("s.user_id = :user_id AND s.awaiting = TRUE", user_id=user_id)
        return [m["game_id"] for m in moved]

    async def extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> tuple[float, bool] | None:
        """Give the seats a game waits for ``hours`` more, if this turn's extensions stay
        within ``most`` hours (:func:`bot.domain.clocks.extension_fits`). Returns the hours the
        turn had already been given and whether these were added (None: no deadline
        runs). The game's row is locked first, so two extensions at once, from any
        processes, cannot both slip under the cap."""
        return await self._write(self._extend_turn(game_id, version, hours, most))

    def _extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> Body[tuple[float, bool] | None]:
        found = yield Q.row(
            "SELECT 1 FROM games WHERE id = :game_id AND version = :version FOR UPDATE",
            game_id=game_id,
            version=version,
        )
        if found is None:
            raise StaleGame(f"game {game_id} moved on from version {version}")
        waits = yield Q.rows(
            "SELECT s.seat, s.deadline, s.extended_hours FROM seats s "
            "JOIN games g ON g.id = s.game_id WHERE s.game_id = :game_id AND s.awaiting = TRUE "
            "AND s.deadline IS NOT NULL AND g.status = 'active'",
            game_id=game_id,
        )
        if not waits:
            return None
        given = max(extended for _seat, _deadline, extended in waits)
        if not extension_fits(given, hours, most):
            return given, False
        yield Many(
            "UPDATE seats SET deadline = :deadline, warned = FALSE, "
            "extended_hours = extended_hours + :hours WHERE game_id = :game_id AND seat = :seat",
            [
                dict(
                    deadline=iso(parse_time(deadline) + timedelta(hours=hours)),
                    hours=hours,
                    game_id=game_id,
                    seat=seat,
                )
                for seat, deadline, _extended in waits
            ],
        )
        yield from self._reschedule("s.game_id = :game_id", game_id=game_id)
        return given, True

    async def awaiting(self, user_id: int) -> list[Awaiting]:
        """Every active game waiting for ``user_id``, the longest-waiting first, with the
        deadline of each (None: no time per move) and the position it waits in."""
        rows = await self._read(
            Q.rows(
                "SELECT g.id, g.guild_id, g.channel_id, g.game_key, s.turn_since, s.deadline, "
                "g.version FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = :user_id AND s.awaiting = TRUE AND g.status = 'active' "
                "ORDER BY s.turn_since, g.id",
                user_id=user_id,
            )
        )
        return [Awaiting(*r) for r in rows]
