"""Games, seats and the move log (:class:`bot.store.interface.Games`), written once for every
store.

A move is one transaction: the version bump with the log entry, reading the seats
(:meth:`~bot.store.shared.waits.WaitsSQL._bump`); the play-by-post rules applied to them in
Python (:func:`bot.domain.clocks.awaited`, :func:`bot.domain.clocks.tell_next`); the
players' ratings if it finishes a rated game (:meth:`~bot.store.shared.ratings.RatingsSQL._rate`);
and every seat written back with what the move queues
(:meth:`~bot.store.shared.waits.WaitsSQL._settle`). SQLite runs it in one trip; PostgreSQL
in four (:mod:`bot.store.postgres.waits`), or in one statement where it knows the seats it
will find (:mod:`bot.store.postgres.moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import cache

from bot.domain.clocks import Clocks, Seat, awaited, tell_next
from bot.store.damage import CHECKED_FIELDS, GAME_FIELDS, damaged, game_row, state_columns
from bot.store.faults import StaleGame
from bot.store.interface import Forfeit
from bot.store.rows import (
    Attempt,
    GameRow,
    MoveRecord,
    MoveRow,
    Recorded,
    SeatRow,
    iso,
)
from bot.store.shared.leagues import settle_once
from bot.store.shared.lobby import LobbySQL
from bot.store.shared.notices import queue_turn
from bot.store.shared.ratings import RatingsSQL
from bot.store.shared.seats import CLOCK_COLUMNS, Game
from bot.store.shared.waits import Queued
from bot.store.sql import Body, Dialect, Q

_SEAT_COLUMNS = ("seat", "user_id", "name", "awaiting", "place", "score", "deadline", "ai")
_GAME_WIDTH = len(GAME_FIELDS)
_SEATED_WIDTH = _GAME_WIDTH + len(CLOCK_COLUMNS)  # a game read with its clocks
#: the statuses of the game a channel is playing: at most one, by a unique index
_LIVE = "('lobby', 'active')"
#: whether game ``g`` moves ratings: opened rated, two seats or more (a solo game against
#: Euler moves none), and no AI seat (AI players are never rated)
RATED = (
    "g.rated = TRUE AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id) >= 2 "
    "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.ai IS NOT NULL)"
)


@cache
def _columns(dialect: Dialect, table: str = "", checked: bool = False) -> str:
    """Columns of ``games`` to read a row from (:mod:`bot.store.damage`): its state and
    options as the bytes stored where the database would fail to decode a damaged byte,
    so it is named, not raised as a decoding error."""
    prefix = f"{table}." if table else ""
    return ", ".join(
        dialect.as_bytes(f"{prefix}{f}") if f in ("state", "options") else f"{prefix}{f}"
        for f in (CHECKED_FIELDS if checked else GAME_FIELDS)
    )


@cache
def _seated(dialect: Dialect) -> str:
    """A game, its clocks and its seats, one row per seat (one with no seat columns for a
    seatless game)."""
    clocks = ", ".join(f"g.{c}" for c in CLOCK_COLUMNS)
    seats = ", ".join(f"s.{c}" for c in _SEAT_COLUMNS)
    return (
        f"SELECT {_columns(dialect, 'g')}, {clocks}, {seats} FROM games g "
        "LEFT JOIN seats s ON s.game_id = g.id"
    )


def _game(row: Sequence | None) -> GameRow | None:
    return None if row is None else game_row(row)


def _seat(row: Sequence) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6], row[7])


def row_of(seat: Seat) -> SeatRow:
    """A seat as the service reads it, from a seat as a write finds or leaves it."""
    s = seat
    return SeatRow(s.seat, s.user_id, s.name, s.awaiting, s.place, s.score, s.deadline, s.ai)


def _text(value: str | bytes) -> str:
    """A log's text as stored: a byte damaged there reads as U+FFFD (so that entry does
    not replay), not as a decoding error of the whole log."""
    return value.decode(errors="replace") if isinstance(value, bytes) else value


class GamesSQL(LobbySQL, RatingsSQL):
    async def game(self, game_id: int) -> GameRow | None:
        return await self._one_game("id = :key", game_id)

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in a channel, if any."""
        return await self._one_game(f"channel_id = :key AND status IN {_LIVE}", channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game in a channel, finished or not (for boards and history)."""
        return await self._one_game("channel_id = :key ORDER BY id DESC LIMIT 1", channel_id)

    async def _one_game(self, where: str, key: int) -> GameRow | None:
        sql = f"SELECT {_columns(self.dialect)} FROM games WHERE {where}"
        return _game(await self._read(Q.row(sql, key=key)))

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._read(
            Q.rows(
                f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE game_id = :game_id "
                "ORDER BY seat",
                game_id=game_id,
            )
        )
        return [_seat(r) for r in rows]

    async def seated_game(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one query: every click loads one, and a trip to the
        database costs more than the query."""
        return await self._seated("g.id = :key", game_id)

    async def seated_live_game(self, channel_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """:meth:`live_game` and its seats, in one query."""
        return await self._seated(f"g.channel_id = :key AND g.status IN {_LIVE}", channel_id)

    async def _seated(self, where: str, key: int) -> tuple[GameRow, list[SeatRow]] | None:
        sql = f"{_seated(self.dialect)} WHERE {where} ORDER BY s.seat"
        rows = await self._read(Q.rows(sql, key=key))
        if not rows:
            return None
        game = _game(rows[0][:_GAME_WIDTH])
        assert game is not None
        game = replace(game, clocks=Clocks(*rows[0][_GAME_WIDTH:_SEATED_WIDTH]))
        return game, [_seat(r[_SEATED_WIDTH:]) for r in rows if r[_SEATED_WIDTH] is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The log, its texts read as stored (:func:`_text`)."""
        texts = ", ".join(self.dialect.as_bytes(c) for c in ("kind", "action", "created_at"))
        rows = await self._read(
            Q.rows(
                f"SELECT seq, seat, user_id, {texts} FROM moves WHERE game_id = :game_id "
                "ORDER BY seq",
                game_id=game_id,
            )
        )
        return [MoveRow(seq, seat, user, *map(_text, rest)) for seq, seat, user, *rest in rows]

    async def repair_state(self, game_id: int, version: int, state: str) -> bool:
        stored = state_columns(state)  # the version stays: the position is the same
        changed = await self._write(
            Q.count(
                "UPDATE games SET state = :state, state_crc = :state_crc "
                "WHERE id = :game_id AND version = :version",
                game_id=game_id,
                version=version,
                **stored,
            )
        )
        return changed == 1

    async def damaged_games(self) -> list[int]:
        """Read once, at start-up: the live games' rows, a checksum each."""
        checked = _columns(self.dialect, checked=True)
        rows = await self._read(Q.rows(f"SELECT {checked} FROM games WHERE status IN {_LIVE}"))
        return [row[0] for row in rows if damaged(row)]

    async def count_games(self) -> int:
        row = await self._read(Q.one("SELECT COUNT(*) FROM games"))
        return int(row[0])

    async def record(self, game_id: int, version: int, move: MoveRecord) -> Recorded:
        """Append one log entry and store the state it leads to, atomically: with the
        move, never a tick later, its game finished, its ratings moved and its daily
        attempt settled, as :class:`~bot.store.rows.MoveRecord` says. Returns the
        entry's seq and the seats as they now are. Raises :class:`StaleGame` if the game
        is no longer at ``version``.
        """
        return await self._write(self._record(self.clock(), game_id, version, move))

    def _record(
        self, moment: datetime, game_id: int, version: int, move: MoveRecord
    ) -> Body[Recorded]:
        now = iso(moment)
        columns = dict(state_columns(move.state), status="finished" if move.results else "active")
        if move.results:
            columns["finished_at"] = now
        game = yield from self._bump(now, game_id, version, columns, move)
        if move.seen is not None and tuple(map(row_of, game.seats)) != move.seen:
            raise StaleGame(f"game {game_id}'s seats changed since the move was decided")
        seats = awaited(
            game.seats, game.clocks, moment, move.awaiting, mover=move.seat, reacting=move.reacting
        )
        ratings = None
        if move.results:
            seats = [
                replace(s, place=place, score=score)
                for s, (place, score) in zip(seats, move.results, strict=True)
            ]
            if move.rate is not None and game.moves_ratings:
                ratings = yield from self._rate(now, game, seats, move.rate)
        seats, told = tell_next(seats, move.heads_ups)
        board = None if move.announce is None else (move.user_id, *move.announce)
        queued = Queued(move.notices, told, board, move.attempt, ratings)
        yield from self._settle(now, game, seats, queued)
        assert game.seq is not None
        self._moved(replace(game, seats=tuple(seats), seq=None))
        return Recorded(int(game.seq), [row_of(s) for s in seats], game.status_message_id)

    def _moved(self, game: Game) -> None:
        """Hear of ``game`` as a move is leaving it, its seats as written, in the move's
        transaction (it may yet fail): a store that can store the next move in fewer
        trips when it knows the seats it will find keeps it (:mod:`bot.store.postgres.moves`)."""

    async def abandon(
        self,
        game_id: int,
        version: int,
        attempt: Attempt | None = None,
        forfeit: Forfeit | None = None,
    ) -> None:
        """Call a game off; ``attempt`` settles the daily attempt played in it, and
        ``forfeit`` the league match, with it. Its match settled already, nothing is."""
        await self._write(self._abandon(self.clock(), game_id, version, attempt, forfeit))

    def _abandon(
        self,
        moment: datetime,
        game_id: int,
        version: int,
        attempt: Attempt | None,
        forfeit: Forfeit | None,
    ) -> Body[None]:
        now = iso(moment)
        game = yield from self._bump(now, game_id, version, {"status": "abandoned"}, None)
        seats = awaited(game.seats, game.clocks, moment, ())
        yield from self._settle(now, game, seats, Queued(attempt=attempt))
        if forfeit is not None:
            match_id, places, forfeiting = forfeit
            zeros = [0] * len(places)
            if not (yield settle_once(match_id, "forfeit", places, zeros, forfeiting)):
                raise StaleGame(f"league match {match_id} was settled meanwhile")

    async def replace_player(
        self,
        game_id: int,
        version: int,
        seat: int,
        user_id: int,
        name: str,
        ai: str | None = None,
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Hand a seat to another user, if the game is still at ``version``.

        The position does not change, so neither does the version: the Play button under
        the newest board stays good, for the newcomer. Their wait (reminders) starts now,
        and ``notices`` ("your turn" DMs: user, text, due at) tell them so.
        """
        now = self.now()
        await self._write(self._replace(now, game_id, version, seat, user_id, name, ai, notices))

    def _replace(
        self,
        now: str,
        game_id: int,
        version: int,
        seat: int,
        user_id: int,
        name: str,
        ai: str | None,
        notices: Sequence[tuple[int, str, str]],
    ) -> Body[None]:
        touched = yield Q.count(
            "UPDATE games SET updated_at = :now WHERE id = :game_id AND version = :version",
            now=now,
            game_id=game_id,
            version=version,
        )
        if touched != 1:
            raise StaleGame(f"game {game_id} moved on from version {version}")
        yield Q.count(
            "UPDATE seats SET user_id = :user_id, name = :name, ai = :ai, reminders = 0, "
            "snoozed = FALSE, told_next = FALSE, "
            "turn_since = CASE WHEN awaiting = TRUE THEN CAST(:now AS TIMESTAMPTZ) END "
            "WHERE game_id = :game_id AND seat = :seat",
            user_id=user_id,
            name=name,
            ai=ai,
            now=now,
            game_id=game_id,
            seat=seat,
        )
        yield from self._reschedule(
            "s.game_id = :game_id AND s.seat = :seat", game_id=game_id, seat=seat
        )
        for notice in notices:
            yield queue_turn(now, game_id, *notice)

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's result moves ratings: opened rated, two seats or more, and
        no AI seat (AI players are never rated)."""
        row = await self._read(Q.row(f"SELECT {RATED} FROM games g WHERE g.id = :id", id=game_id))
        return bool(row and row[0])

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self._write(
            Q.count(
                "UPDATE games SET status_message_id = :message_id WHERE id = :game_id",
                message_id=message_id,
                game_id=game_id,
            )
        )
