"""Games, seats and the move log in PostgreSQL (:class:`bot.store.interface.Games`).

A move is one transaction of four trips: BEGIN; the version bump, the log entry and the
cancelled undo request, reading the seats in the same statement; every seat's new wait
and due time with the move's notices and daily attempt; COMMIT. A move that finishes a
rated game takes two more, to rate it in order (:mod:`bot.store.postgres.ratings`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime

import asyncpg

from bot.clocks import Clocks
from bot.store.damage import CHECKED_FIELDS, GAME_FIELDS, damaged, game_row, state_columns
from bot.store.faults import StaleGame
from bot.store.interface import Forfeit
from bot.store.postgres.connection import Connection, Tx
from bot.store.postgres.daily import settle_attempt
from bot.store.postgres.leagues import link_match, settle_once
from bot.store.postgres.leases import fence
from bot.store.postgres.notices import queue_for_move, queue_turn
from bot.store.postgres.ratings import rate_game
from bot.store.postgres.waits import (
    Game,
    Seat,
    Statement,
    awaited,
    bump,
    reschedule,
    tell_next,
    write_seats,
)
from bot.store.queries import RATED
from bot.store.rows import (
    Attempt,
    GameRow,
    MoveRecord,
    MoveRow,
    Opening,
    Rematch,
    SeatRow,
    UndoRequest,
    iso,
)

_GAME_COLUMNS = ", ".join(GAME_FIELDS)
_SEAT_COLUMNS = "seat, user_id, name, awaiting, place, score, deadline, ai"
#: a game and its seats, one row per seat (one with no seat columns for a seatless game)
_SEATED = "SELECT {}, {} FROM games g LEFT JOIN seats s ON s.game_id = g.id".format(
    ", ".join(f"g.{c}" for c in GAME_FIELDS),
    ", ".join(f"s.{c}" for c in _SEAT_COLUMNS.split(", ")),
)
_GAME_WIDTH = len(GAME_FIELDS)
_LIVE = "('lobby', 'active')"


def _game(row: Sequence | None) -> GameRow | None:
    return None if row is None else game_row(row)


def _seat(row: Sequence) -> SeatRow:
    return SeatRow(*row)


def _log_entry(seat: int, user_id: int, kind: str, action: str):
    """The CTE that appends the move to the log, if the bump did, and returns its seq."""

    def more(sql: Statement) -> str:
        return (
            ", m AS (INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
            "SELECT g.id, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) + 1, "
            f"{sql(seat)}, {sql(user_id)}, {sql(kind)}, {sql(action)}, $1 FROM g RETURNING seq)"
            ", d AS (DELETE FROM undo_requests WHERE game_id IN (SELECT id FROM g))"
            "|(SELECT seq FROM m)"
        )

    return more


async def settle(
    tx: Tx,
    now: str,
    game: Game,
    seats: Sequence[Seat],
    notices: Sequence[tuple[int, str, str]] = (),
    attempt: Attempt | None = None,
    ratings: Callable[[Statement], str] | None = None,
    heads_ups: Sequence[tuple[int, str, str, str]] = (),
    board: tuple[int, str, str] | None = None,
) -> None:
    """One statement, one trip: every seat's wait, the "your turn" DMs for the waits that
    start (user, text, due at), the "you're next" heads-ups (user, via, text, due at;
    each once a turn: :func:`~bot.store.postgres.waits.tell_next`), the stand-in for the
    move's public post (``board``: the mover, a note, due at), the daily attempt the game
    settles, and the ratings the game moves (a statement built on the same parameters)."""
    sql = Statement()
    seats, told = tell_next(seats, heads_ups)
    parts = [f"s AS ({write_seats(sql, game, seats)})"]
    parts += queue_for_move(sql, now, game, seats, notices, told, board)
    if attempt is not None:
        parts.append(f"a AS ({settle_attempt(sql, now, game.id, attempt)})")
    if ratings is not None:
        parts.append(f"r AS ({ratings(sql)})")
    await tx.execute(f"WITH {', '.join(parts)} SELECT 1", *sql.values)


async def _start(tx: Tx, moment: datetime, game_id: int, version: int, opening: Opening) -> None:
    """Start the game at ``version`` as ``opening`` has it, in the caller's transaction."""
    now = iso(moment)
    game = await bump(tx, now, game_id, version, status="active", **state_columns(opening.state))
    seats = awaited(game, moment, opening.awaiting)
    await settle(tx, now, game, seats, opening.notices, heads_ups=opening.heads_ups)


class GamesPG(Connection):
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
        level) after them, in one statement; started at once by ``opening``, in the same
        transaction.

        Raises :class:`StaleGame` if the channel already has a live game, the opening's
        league match has its game already, or its daily attempt is made; and
        :class:`~bot.store.faults.LeaseLost` if the opening's lease is held no more.
        """
        moment = self.clock()
        now = iso(moment)
        clocks = clocks or Clocks()
        people = [(creator_id, creator_name, None), *others]
        users, names, levels = (list(column) for column in zip(*people, strict=True))

        async def unit(tx: Tx) -> int:
            if opening is not None and opening.fence is not None:
                await fence(tx, now, opening.fence)
            if opening is not None and opening.rematch is not None:
                # the rematch's row, locked first: a second click opening it waits here,
                # and then finds it opened
                await _agree_rematch(tx, now, *opening.rematch)
            row = await tx.fetchrow(
                "WITH g AS (INSERT INTO games (guild_id, channel_id, game_key, status, options, "
                "seed, creator_id, created_at, updated_at, move_hours, deadline_policy, "
                "remind_hours, reminder_limit, reaction_hours, rated) VALUES ($1, $2, $3, "
                "'lobby', $4, $5, $6, $7, $7, $8, $9, $10, $11, $12, $13) RETURNING id), "
                "s AS (INSERT INTO seats (game_id, seat, user_id, name, ai) "
                "SELECT g.id, v.n - 1, v.u, v.name, v.ai FROM g, unnest($14::bigint[], "
                "$15::text[], $16::text[]) WITH ORDINALITY AS v(u, name, ai, n)) SELECT id FROM g",
                *(guild_id, channel_id, game_key, json.dumps(options), seed, creator_id, now),
                *(clocks.move_hours, clocks.policy, clocks.remind_hours),
                *(clocks.reminder_limit, clocks.reaction_hours, rated, users, names, levels),
            )
            game_id = int(row[0])
            if opening is not None:
                await _start(tx, moment, game_id, 0, opening)
                if opening.match is not None:
                    await link_match(tx, opening.match, game_id)
                if opening.entry is not None:
                    day, shared_in = opening.entry
                    await tx.execute(
                        "INSERT INTO daily_entries (day, user_id, name, guild_id, game_id) "
                        "VALUES ($1, $2, $3, $4, $5)",
                        day,
                        creator_id,
                        creator_name,
                        shared_in,
                        game_id,
                    )
                if opening.rematch is not None:
                    await tx.execute(
                        "UPDATE rematches SET opened = $1 WHERE game_id = $2",
                        game_id,
                        opening.rematch[0],
                    )
            return game_id

        try:
            return await self.write(unit)
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "games_live_channel":
                raise StaleGame("this channel already has a live game") from exc
            if exc.constraint_name == "daily_entries_pkey":
                raise StaleGame("today's challenge has been opened already") from exc
            raise

    async def game(self, game_id: int) -> GameRow | None:
        return _game(await self.row(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1", (game_id,)))

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in a channel, if any."""
        return _game(
            await self.row(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status IN {_LIVE}",
                (channel_id,),
            )
        )

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game in a channel, finished or not (for boards and history)."""
        return _game(
            await self.row(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
        )

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def seated_game(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one query: every click loads one."""
        return await self._seated("g.id = $1", game_id)

    async def seated_live_game(self, channel_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """:meth:`live_game` and its seats, in one query."""
        return await self._seated(f"g.channel_id = $1 AND g.status IN {_LIVE}", channel_id)

    async def _seated(self, where: str, key: int) -> tuple[GameRow, list[SeatRow]] | None:
        rows = await self.rows(f"{_SEATED} WHERE {where} ORDER BY s.seat", (key,))
        if not rows:
            return None
        game = _game(rows[0][:_GAME_WIDTH])
        assert game is not None
        return game, [_seat(r[_GAME_WIDTH:]) for r in rows if r[_GAME_WIDTH] is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self.rows(
            "SELECT seq, seat, user_id, kind, action, created_at FROM moves "
            "WHERE game_id = $1 ORDER BY seq",
            (game_id,),
        )
        return [MoveRow(*r) for r in rows]

    async def repair_state(self, game_id: int, version: int, state: str) -> bool:
        stored = state_columns(state)  # the version stays: the position is the same
        sql = "UPDATE games SET state = $1, state_crc = $2 WHERE id = $3 AND version = $4"
        changed = await self.execute(sql, (stored["state"], stored["state_crc"], game_id, version))
        return changed == 1

    async def damaged_games(self) -> list[int]:
        """Read once, at start-up: the live games' rows, a checksum each."""
        checked = ", ".join(CHECKED_FIELDS)
        rows = await self.rows(f"SELECT {checked} FROM games WHERE status IN {_LIVE}")
        return [row[0] for row in rows if damaged(row)]

    async def count_games(self) -> int:
        row = await self.row("SELECT COUNT(*) FROM games")
        return int(row[0])

    async def join(
        self, game_id: int, version: int, user_id: int, name: str, ai: str | None = None
    ) -> None:
        def more(sql: Statement) -> str:
            return (
                ", j AS (INSERT INTO seats (game_id, seat, user_id, name, ai) SELECT g.id, "
                "(SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = g.id), "
                f"{sql(user_id)}, {sql(name)}, {sql(ai)}::text FROM g)|NULL"
            )

        async def unit(tx: Tx) -> None:
            await bump(tx, self.now(), game_id, version, more)

        await self.write(unit)

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""

        async def unit(tx: Tx) -> None:
            game = await bump(tx, self.now(), game_id, version)
            (gone,) = [s.seat for s in game.seats if s.user_id == user_id]
            # (game, seat) is unique: later seats move up one by one, upwards
            await tx.execute("DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, gone)
            for seat in sorted(s.seat for s in game.seats if s.seat > gone):
                await tx.execute(
                    "UPDATE seats SET seat = seat - 1 WHERE game_id = $1 AND seat = $2",
                    game_id,
                    seat,
                )

        await self.write(unit)

    async def start(
        self,
        game_id: int,
        version: int,
        state: str,
        awaiting: Iterable[int],
        heads_ups: Sequence[tuple[int, str, str, str]] = (),
        notices: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        moment = self.clock()
        opening = Opening(state, tuple(awaiting), heads_ups, notices)
        await self.write(_start, moment, game_id, version, opening)

    async def record(self, game_id: int, version: int, move: MoveRecord) -> int:
        """Append one log entry and store the state it leads to, atomically, in four trips.

        ``results`` (place, score per seat) finishes the game, ``rate`` then moves the
        ratings of a rated game, and ``attempt`` settles the daily attempt played in it,
        if there is one: with the move, never a tick later. ``notices`` are "your turn"
        DMs (user, text, due at) for the waits the move starts, ``heads_ups`` "you're
        next" notices (user, via, text, due at), each queued once a turn; ``announce``
        (note, due at) the stand-in for the move's public post. Returns the entry's seq.
        Raises :class:`StaleGame` if the game is no longer at ``version``.
        """
        moment = self.clock()
        now = iso(moment)
        waiting = list(move.awaiting)
        columns = state_columns(move.state)
        columns["status"] = "finished" if move.results else "active"
        if move.results:
            columns["finished_at"] = now

        async def unit(tx: Tx) -> int:
            log_entry = _log_entry(move.seat, move.user_id, move.kind, move.action)
            game = await bump(tx, now, game_id, version, log_entry, **columns)
            seats = awaited(game, moment, waiting, mover=move.seat, reacting=move.reacting)
            ratings = None
            if move.results:
                seats = [
                    replace(s, place=place, score=score)
                    for s, (place, score) in zip(seats, move.results, strict=True)
                ]
                people = all(s.ai is None for s in game.seats)  # AI players are never rated
                if move.rate is not None and game.rated and len(seats) >= 2 and people:
                    ratings = await rate_game(tx, now, game, seats, move.rate)
            board = None if move.announce is None else (move.user_id, *move.announce)
            await settle(
                tx, now, game, seats, move.notices, move.attempt, ratings, move.heads_ups, board
            )
            return int(game.more)

        return await self.write(unit)

    async def abandon(
        self,
        game_id: int,
        version: int,
        attempt: Attempt | None = None,
        forfeit: Forfeit | None = None,
    ) -> None:
        """Call a game off; ``attempt`` settles the daily attempt played in it, and
        ``forfeit`` the league match, with it. Its match settled already, nothing is."""
        moment = self.clock()

        async def unit(tx: Tx) -> None:
            game = await bump(tx, iso(moment), game_id, version, status="abandoned")
            await settle(tx, iso(moment), game, awaited(game, moment, ()), attempt=attempt)
            if forfeit is not None:
                match_id, places, forfeiting = forfeit
                zeros = [0] * len(places)
                if not await settle_once(tx, match_id, "forfeit", places, zeros, forfeiting):
                    raise StaleGame(f"league match {match_id} was settled meanwhile")

        await self.write(unit)

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

        async def unit(tx: Tx) -> None:
            changed = await tx.execute(
                "WITH g AS (UPDATE games SET updated_at = $1 WHERE id = $2 AND version = $3 "
                "RETURNING id) UPDATE seats SET user_id = $4, name = $5, reminders = 0, "
                "snoozed = FALSE, told_next = FALSE, turn_since = CASE WHEN awaiting THEN $1 END, "
                "ai = $7 "
                "WHERE game_id IN (SELECT id FROM g) AND seat = $6",
                now,
                game_id,
                version,
                user_id,
                name,
                seat,
                ai,
            )
            if changed != 1:
                raise StaleGame(f"game {game_id} moved on from version {version}")
            await reschedule(tx, "s.game_id = $1 AND s.seat = $2", game_id, seat)
            for notice in notices:
                await queue_turn(tx, now, game_id, *notice)

        await self.write(unit)

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's result moves ratings: opened rated, two seats or more, and
        no AI seat (AI players are never rated)."""
        row = await self.row(
            f"SELECT {RATED} FROM games g WHERE g.id = $1",
            (game_id,),
        )
        return bool(row and row[0])

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.execute(
            "UPDATE games SET status_message_id = $1 WHERE id = $2", (message_id, game_id)
        )

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self.row(
            "SELECT user_id, moves, version, agreed FROM undo_requests WHERE game_id = $1",
            (game_id,),
        )
        if row is None:
            return None
        return UndoRequest(row[0], row[1], row[2], frozenset(json.loads(row[3])))

    async def rematch(self, game_id: int) -> Rematch:
        row = await self.row("SELECT agreed, opened FROM rematches WHERE game_id = $1", (game_id,))
        return Rematch() if row is None else Rematch(frozenset(json.loads(row[0])), row[1])

    async def agree_rematch(self, game_id: int, user_id: int) -> frozenset[int]:
        """Note that ``user_id`` wants to play this game again: merged into the stored list
        under the row's lock, so two players agreeing at once both count."""
        return await self.write(_agree_rematch, self.now(), game_id, user_id)

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None:
        await self.execute(
            "INSERT INTO undo_requests (game_id, user_id, moves, version, agreed, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO UPDATE SET "
            "user_id = EXCLUDED.user_id, moves = EXCLUDED.moves, version = EXCLUDED.version, "
            "agreed = EXCLUDED.agreed, created_at = EXCLUDED.created_at",
            (game_id, request.user_id, request.moves, request.version)
            + (json.dumps(sorted(request.agreed)), self.now()),
        )


async def _agree_rematch(tx: Tx, now: str, game_id: int, user_id: int) -> frozenset[int]:
    """Add ``user_id`` to those who want to play ``game_id`` again, under the row's lock,
    inside the caller's transaction; everyone who has. Raises :class:`StaleGame` once
    its rematch is opened."""
    row = await tx.fetchrow(
        "INSERT INTO rematches (game_id, agreed, created_at) VALUES ($1, $2, $3) "
        "ON CONFLICT (game_id) DO UPDATE SET agreed = (SELECT jsonb_agg(DISTINCT v "
        "ORDER BY v)::text FROM jsonb_array_elements(rematches.agreed::jsonb "
        "|| EXCLUDED.agreed::jsonb) AS e(v)) WHERE rematches.opened IS NULL RETURNING agreed",
        game_id,
        json.dumps([user_id]),
        now,
    )
    if row is None:
        raise StaleGame(f"the rematch of game {game_id} has been opened")
    return frozenset(json.loads(row[0]))
