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

import json
from collections.abc import Iterable, Sequence
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
    Opening,
    Recorded,
    Rematch,
    SeatRow,
    UndoRequest,
    iso,
)
from bot.store.shared.leagues import link_match, settle_once
from bot.store.shared.leases import fence
from bot.store.shared.notices import queue_turn
from bot.store.shared.ratings import RatingsSQL
from bot.store.shared.seats import CLOCK_COLUMNS, Game
from bot.store.shared.waits import Queued, WaitsSQL
from bot.store.sql import ROW, Body, Dialect, Duplicate, Many, Q

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


class GamesSQL(WaitsSQL, RatingsSQL):
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        creator_id: int,
        creator_name: str,
        clocks: Clocks | None = None,
        rated: bool = True,
        others: Sequence[tuple[int, str, str | None]] = (),
        opening: Opening | None = None,
    ) -> int:
        """A new game in the lobby, its creator in seat 0 and ``others`` (user, name, AI
        level) after them; started at once by ``opening``; all in one transaction.

        Raises :class:`StaleGame` if the channel already has a live game, the opening's
        league match has its game already, or its daily attempt is made; and
        :class:`~bot.store.faults.LeaseLost` if the opening's lease is held no more.
        """
        values = dict(
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=game_key,
            options=json.dumps(options),
            seed=seed,
            creator_id=creator_id,
            **_clock_columns(clocks or Clocks()),
            rated=rated,
        )
        people = [(creator_id, creator_name, None), *others]
        try:
            return await self._write(self._create(self.clock(), values, people, opening))
        except Duplicate as exc:
            if exc.constraint == "games_live_channel":
                raise StaleGame("this channel already has a live game") from exc
            if exc.constraint == "daily_entries_pkey":
                raise StaleGame("today's challenge has been opened already") from exc
            raise

    def _create(
        self,
        moment: datetime,
        values: dict[str, object],
        people: Sequence[tuple[int, str, str | None]],
        opening: Opening | None,
    ) -> Body[int]:
        now = iso(moment)
        if opening is not None and opening.fence is not None:
            yield from fence(now, opening.fence)
        if opening is not None and opening.rematch is not None:
            # the rematch's row, taken first: a second click opening it waits here, and
            # then finds it opened
            yield from self._agree_rematch(now, *opening.rematch)
        game_id = yield from self._insert_game(now, values, people)
        if opening is None:
            return game_id
        yield from self._start(moment, game_id, 0, opening)
        if opening.match is not None:
            yield from link_match(opening.match, game_id)
        if opening.entry is not None:
            day, shared_in = opening.entry
            creator_id, creator_name, _ai = people[0]
            yield Q.count(
                "INSERT INTO daily_entries (day, user_id, name, guild_id, game_id) "
                "VALUES (:day, :user_id, :name, :guild_id, :game_id)",
                day=day,
                user_id=creator_id,
                name=creator_name,
                guild_id=shared_in,
                game_id=game_id,
            )
        if opening.rematch is not None:
            yield Q.count(
                "UPDATE rematches SET opened = :game_id WHERE game_id = :finished",
                game_id=game_id,
                finished=opening.rematch[0],
            )
        return game_id

    def _insert_game(
        self, now: str, values: dict[str, object], people: Sequence[tuple[int, str, str | None]]
    ) -> Body[int]:
        """Insert a game in the lobby (``values``: its columns) and its seats; its id."""
        (game_id,) = yield Q(
            "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, "
            "creator_id, created_at, updated_at, move_hours, deadline_policy, remind_hours, "
            "reminder_limit, reaction_hours, rated) VALUES (:guild_id, :channel_id, "
            ":game_key, 'lobby', :options, :seed, :creator_id, :now, :now, :move_hours, "
            ":deadline_policy, :remind_hours, :reminder_limit, :reaction_hours, :rated) "
            "RETURNING id",
            dict(values, now=now),
            ROW,
        )
        yield Many(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) "
            "VALUES (:game_id, :seat, :user_id, :name, :ai)",
            [
                dict(game_id=game_id, seat=seat, user_id=user, name=name, ai=ai)
                for seat, (user, name, ai) in enumerate(people)
            ],
        )
        return int(game_id)

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

    async def join(
        self, game_id: int, version: int, user_id: int, name: str, ai: str | None = None
    ) -> None:
        await self._write(self._join(self.now(), game_id, version, user_id, name, ai))

    def _join(
        self, now: str, game_id: int, version: int, user_id: int, name: str, ai: str | None
    ) -> Body[None]:
        yield from self._bump(now, game_id, version, {}, None)
        yield Q.count(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (:game_id, "
            "(SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = :game_id), "
            ":user_id, :name, :ai)",
            game_id=game_id,
            user_id=user_id,
            name=name,
            ai=ai,
        )

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""
        await self._write(self._leave(self.now(), game_id, version, user_id))

    def _leave(self, now: str, game_id: int, version: int, user_id: int) -> Body[None]:
        game = yield from self._bump(now, game_id, version, {}, None)
        (gone,) = [s.seat for s in game.seats if s.user_id == user_id]
        yield Q.count(
            "DELETE FROM seats WHERE game_id = :game_id AND seat = :seat",
            game_id=game_id,
            seat=gone,
        )
        # (game, seat) is unique: later seats move up one by one, upwards
        for seat in sorted(s.seat for s in game.seats if s.seat > gone):
            yield Q.count(
                "UPDATE seats SET seat = seat - 1 WHERE game_id = :game_id AND seat = :seat",
                game_id=game_id,
                seat=seat,
            )

    async def start(
        self,
        game_id: int,
        version: int,
        state: str,
        awaiting: Iterable[int],
        heads_ups: Sequence[tuple[int, str, str, str]] = (),
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        opening = Opening(state, tuple(awaiting), heads_ups, notices)
        await self._write(self._start(self.clock(), game_id, version, opening))

    def _start(self, moment: datetime, game_id: int, version: int, opening: Opening) -> Body[None]:
        """Start the game at ``version`` as ``opening`` has it, in the caller's transaction."""
        now = iso(moment)
        columns = dict(status="active", **state_columns(opening.state))
        game = yield from self._bump(now, game_id, version, columns, None)
        seats = awaited(game.seats, game.clocks, moment, opening.awaiting)
        seats, told = tell_next(seats, opening.heads_ups)
        yield from self._settle(now, game, seats, Queued(opening.notices, told))

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

    async def rematch(self, game_id: int) -> Rematch:
        row = await self._read(
            Q.row("SELECT agreed, opened FROM rematches WHERE game_id = :id", id=game_id)
        )
        return Rematch() if row is None else Rematch(frozenset(json.loads(row[0])), row[1])

    async def agree_rematch(self, game_id: int, user_id: int) -> frozenset[int]:
        """Note that ``user_id`` wants to play this game again, in one transaction with
        reading who else has: two players agreeing at once both count."""
        return await self._write(self._agree_rematch(self.now(), game_id, user_id))

    def _agree_rematch(self, now: str, game_id: int, user_id: int) -> Body[frozenset[int]]:
        """Add ``user_id`` to those who want to play ``game_id`` again, inside the caller's
        transaction; everyone who has. Raises :class:`StaleGame` once its rematch is
        opened. Read, then written: right where the write transaction holds the whole
        database (PostgreSQL merges under the row's lock instead:
        :mod:`bot.store.postgres.games`)."""
        row = yield Q.row(
            "SELECT agreed, opened FROM rematches WHERE game_id = :game_id", game_id=game_id
        )
        if row is not None and row[1] is not None:
            raise StaleGame(f"the rematch of game {game_id} has been opened")
        agreed = frozenset(json.loads(row[0]) if row else ()) | {user_id}
        yield Q.count(
            "INSERT INTO rematches (game_id, agreed, created_at) VALUES (:game_id, :agreed, :now) "
            "ON CONFLICT (game_id) DO UPDATE SET agreed = excluded.agreed",
            game_id=game_id,
            agreed=json.dumps(sorted(agreed)),
            now=now,
        )
        return agreed

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self._read(
            Q.row(
                "SELECT user_id, moves, version, agreed FROM undo_requests WHERE game_id = :id",
                id=game_id,
            )
        )
        if row is None:
            return None
        return UndoRequest(row[0], row[1], row[2], frozenset(json.loads(row[3])))

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None:
        await self._write(
            Q.count(
                "INSERT INTO undo_requests (game_id, user_id, moves, version, agreed, created_at) "
                "VALUES (:game_id, :user_id, :moves, :version, :agreed, :now) "
                "ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, "
                "moves = excluded.moves, version = excluded.version, agreed = excluded.agreed, "
                "created_at = excluded.created_at",
                game_id=game_id,
                user_id=request.user_id,
                moves=request.moves,
                version=request.version,
                agreed=json.dumps(sorted(request.agreed)),
                now=self.now(),
            )
        )


def _clock_columns(clocks: Clocks) -> dict[str, object]:
    """A game's clocks, as its columns."""
    return dict(
        move_hours=clocks.move_hours,
        deadline_policy=clocks.policy,
        remind_hours=clocks.remind_hours,
        reminder_limit=clocks.reminder_limit,
        reaction_hours=clocks.reaction_hours,
    )
