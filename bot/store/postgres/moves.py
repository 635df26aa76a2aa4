"""A move on PostgreSQL in one statement, one trip to the server, where the store knows
the seats it will find.

A move's transaction reads its game's seats, applies the play-by-post rules to them in
Python (:func:`bot.domain.clocks.awaited`, :func:`bot.domain.clocks.tell_next`) and writes
them back: four trips (BEGIN, the bump with the seats' read, the write-back, COMMIT;
:mod:`bot.store.postgres.waits`). But the seats as a move of this store left them are
known: kept here (:meth:`MovesPG._moved`), the next move's rules run on them before any
trip, and the whole move is one statement in a transaction of its own: it locks the game
and its seats, and only if they are still at the version and exactly as kept (every
column the rules read, the players' settings too, so a reminder sent, a seat handed over
or a vacation begun elsewhere meanwhile counts) bumps the version and writes the log
entry, the seats and the notices, all at once. Otherwise it writes nothing and the move
goes the four-trip way, which reads the seats as they are. A move that ends the game
(ratings, a daily attempt) always does.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from contextlib import suppress
from dataclasses import fields, replace

from bot.domain.clocks import Seat, awaited, tell_next
from bot.store.damage import state_columns
from bot.store.faults import CannotSave, CommitUnknown
from bot.store.postgres import connection
from bot.store.postgres.connection import _UNREACHABLE, Connection, Tx
from bot.store.postgres.games import GamesPG
from bot.store.postgres.waits import LOGGED, _queue, _write_seats
from bot.store.rows import MoveRecord, Recorded, iso
from bot.store.shared.games import row_of
from bot.store.shared.seats import SEAT, Game
from bot.store.shared.waits import Queued
from bot.store.sql import Q

#: games whose seats are kept as this store's last move of each left them
GAMES_KEPT = 1024
#: each :class:`~bot.domain.clocks.Seat` field's type, as the columns :data:`SEAT` reads are
_TYPES = dict(
    seat="int", user_id="bigint", name="text", awaiting="bool", place="int", score="int",
    turn_since="timestamptz", deadline="timestamptz", reminders="int", snoozed="bool",
    warned="bool", reacting="bool", paused_hours="float8", extended_hours="float8",
    told_next="bool", vacation_until="timestamptz", ai="text", own_remind_hours="float8",
    digest="bool",
)  # fmt: skip
assert list(_TYPES) == [f.name for f in fields(Seat)]
#: the gate every part of the one-statement move waits on: the game was bumped
_BUMPED = "EXISTS (SELECT 1 FROM g)"


class MovesPG(GamesPG, Connection):
    """Games on PostgreSQL, a move in one statement where it can be (its connection's
    own trips, to settle one whose answer is lost)."""

    _kept: OrderedDict[int, Game] | None = None

    async def record(self, game_id: int, version: int, move: MoveRecord) -> Recorded:
        """:meth:`bot.store.shared.games.GamesSQL.record`, in one statement when this store
        moved the game last and the move does not end it."""
        kept = self._games_kept().pop(game_id, None)
        if (
            kept is None
            or kept.version != version
            or move.results is not None
            or move.attempt is not None
            or move.seen is None
            or move.seen != tuple(map(row_of, kept.seats))
        ):
            return await super().record(game_id, version, move)
        moment = self.clock()
        seats = awaited(
            kept.seats, kept.clocks, moment, move.awaiting, mover=move.seat, reacting=move.reacting
        )
        seats, told = tell_next(seats, move.heads_ups)
        after = replace(kept, version=version + 1, seats=tuple(seats))
        board = None if move.announce is None else (move.user_id, *move.announce)
        now = iso(moment)
        row = await self._alone(
            _one_statement(now, kept, after, move, Queued(move.notices, told, board)),
            (game_id, now, move.user_id, move.action),
        )
        if row is None:  # not as kept: read as it is
            return await super().record(game_id, version, move)
        seq, pinned = row
        self._moved(replace(after, status_message_id=pinned))
        return Recorded(int(seq), [row_of(s) for s in seats], pinned)

    def _moved(self, game: Game) -> None:
        kept = self._games_kept()
        kept.pop(game.id, None)
        if game.status == "active":
            kept[game.id] = game
            if len(kept) > GAMES_KEPT:
                kept.popitem(last=False)

    def _games_kept(self) -> OrderedDict[int, Game]:
        if self._kept is None:
            self._kept = OrderedDict()
        return self._kept

    async def _alone(self, statement: Q, entry: tuple[int, str, int, str]) -> tuple | None:
        """Run ``statement`` in a transaction of its own, one trip: its row. Lost on the
        way, it may have committed or not: once the server can say that the connection's
        backend is gone (:meth:`_settled`), the log ``entry`` (game, time, user, action)
        the move writes tells which, and then the outcome is what it would have been
        answered, not "nothing was done" for a move that may have been."""
        async with self._connection() as conn:
            pid = conn.get_server_pid()
            try:
                return await Tx(conn, self).run(statement)
            except _UNREACHABLE as exc:
                lost: BaseException = exc
        try:
            return await self._settled(pid, entry)
        except CommitUnknown as unknown:
            raise unknown from lost

    async def _settled(self, pid: int, entry: tuple[int, str, int, str]) -> tuple | None:
        """The seq of the log ``entry`` and where its game's status is pinned, once the
        backend ``pid`` that was writing it is gone (a backend finishes its transaction
        before it goes), or None if it is not in the log then; asked again and again for
        :data:`SETTLE_WITHIN` seconds at most while the server comes back, then
        :class:`CommitUnknown`."""
        pause = 0.1
        try:
            async with asyncio.timeout(connection.SETTLE_WITHIN):
                while True:
                    with suppress(CannotSave):  # not back yet
                        alive = "SELECT 1 FROM pg_stat_activity WHERE pid = $1"
                        if not await self.rows(alive, (pid,)):  # read after it went
                            row = await self.row(
                                "SELECT m.seq, g.status_message_id FROM moves m JOIN games g "
                                "ON g.id = m.game_id WHERE m.game_id = $1 AND m.created_at = $2 "
                                "AND m.user_id = $3 AND m.action = $4",
                                entry,
                            )
                            return None if row is None else tuple(row)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 1.0)
        except TimeoutError:
            pass
        raise CommitUnknown()


def _one_statement(now: str, kept: Game, after: Game, move: MoveRecord, queued: Queued) -> Q:
    """The move as one statement: its game and seats locked (the game first, as every
    write that bumps a version locks them) and compared with ``kept``; only if they are
    as kept, the bump, the log entry, the dropped undo request, the seats as ``after``
    has them and the notices ``queued``. Its row: the entry's seq and where the game's
    status is pinned; none if not as kept."""
    params: dict[str, object] = dict(
        now=now,
        game_id=kept.id,
        version=kept.version,
        status=after.status,
        seat=move.seat,
        user_id=move.user_id,
        kind=move.kind,
        action=move.action,
        **state_columns(move.state),
    )
    names = [f"c{i}" for i in range(len(_TYPES))]
    found, expected = [], []
    for name, (field, kind) in zip(names, _TYPES.items(), strict=True):
        params[f"kept_{field}"] = [getattr(s, field) for s in kept.seats]
        found.append(f"array_agg({name} ORDER BY c0)")
        expected.append(f":kept_{field}::{kind}[]")
    parts = [
        f"l ({', '.join(names)}) AS (SELECT {SEAT} FROM games g0 JOIN seats s "
        "ON s.game_id = g0.id LEFT JOIN user_settings u ON u.user_id = s.user_id "
        "WHERE g0.id = :game_id FOR UPDATE OF g0, s)",
        "g AS (UPDATE games SET version = version + 1, updated_at = :now, status = :status, "
        "state = :state, state_crc = :state_crc WHERE id = :game_id AND version = :version "
        f"AND EXISTS (SELECT 1 FROM (SELECT ROW({', '.join(found)}) AS r FROM l) AS k "
        f"WHERE k.r IS NOT DISTINCT FROM ROW({', '.join(expected)})) "
        "RETURNING id, status_message_id)",
        LOGGED,
        f"s AS ({_write_seats(params, after, after.seats, _BUMPED)})",
        *_queue(params, after, after.seats, queued, "(SELECT MAX(seq) FROM m)", _BUMPED),
    ]
    sql = f"WITH {', '.join(parts)} SELECT m.seq, g.status_message_id FROM g, m"
    return Q.row(sql, **params)
