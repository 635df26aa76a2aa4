"""Games, seats and the move log in SQLite (:class:`bot.store.interface.Games`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.clocks import Clocks
from bot.store.damage import CHECKED_FIELDS, GAME_FIELDS, damaged, game_row, state_columns
from bot.store.faults import StaleGame
from bot.store.interface import Forfeit
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
from bot.store.sqlite.connection import Connection
from bot.store.sqlite.daily import settle_attempt
from bot.store.sqlite.files import unique_failed
from bot.store.sqlite.leagues import link_match, settle_once
from bot.store.sqlite.leases import fence
from bot.store.sqlite.notices import queue_board, queue_turn, tell_next
from bot.store.sqlite.ratings import rate_game
from bot.store.sqlite.waits import bump, reschedule, set_awaiting


def _columns(fields: tuple[str, ...], table: str = "") -> str:
    """Columns of ``games`` to read a row from (:mod:`bot.store.damage`): its state and
    options as the bytes stored, so a damaged byte is named, not raised as a decoding
    error."""
    prefix = f"{table}." if table else ""
    return ", ".join(
        f"CAST({prefix}{f} AS BLOB)" if f in ("state", "options") else f"{prefix}{f}"
        for f in fields
    )


_GAME_COLUMNS = _columns(GAME_FIELDS)
_SEAT_COLUMNS = "seat, user_id, name, awaiting, place, score, deadline, ai"
#: a game and its seats, one row per seat (one with no seat columns for a seatless game)
_SEATED = "SELECT {}, {} FROM games g LEFT JOIN seats s ON s.game_id = g.id".format(
    _columns(GAME_FIELDS, "g"), ", ".join(f"s.{c}" for c in _SEAT_COLUMNS.split(", "))
)
_GAME_WIDTH = len(GAME_FIELDS)
#: the statuses of the game a channel is playing: at most one, by a unique index
_LIVE = "('lobby', 'active')"


def _game(row: Sequence | None) -> GameRow | None:
    return None if row is None else game_row(row)


def _seat(row: Sequence) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6], row[7])


def _start(
    conn: sqlite3.Connection, moment: datetime, game_id: int, version: int, opening: Opening
) -> None:
    """Start the game at ``version`` as ``opening`` has it, in the caller's transaction."""
    now = iso(moment)
    hours = bump(conn, now, game_id, version, status="active", **state_columns(opening.state))
    set_awaiting(conn, moment, game_id, hours, opening.awaiting)
    for notice in opening.notices:
        queue_turn(conn, now, game_id, *notice)
    tell_next(conn, now, game_id, opening.heads_ups)


class GamesSQL(Connection):
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
        moment = self.clock()
        now = iso(moment)
        clocks = clocks or Clocks()

        def unit(conn: sqlite3.Connection) -> int:
            if opening is not None and opening.fence is not None:
                fence(conn, now, opening.fence)
            if opening is not None and opening.rematch is not None:
                _agree_rematch(conn, now, *opening.rematch)
            game_id = conn.execute(
                "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, "
                "creator_id, created_at, updated_at, move_hours, deadline_policy, "
                "remind_hours, reminder_limit, reaction_hours, rated) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game_key, json.dumps(options), seed, creator_id)
                + (now, now, clocks.move_hours, clocks.policy, clocks.remind_hours)
                + (clocks.reminder_limit, clocks.reaction_hours, int(rated)),
            ).lastrowid
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seat, *person)
                    for seat, person in enumerate([(creator_id, creator_name, None), *others])
                ],
            )
            if opening is not None:
                _start(conn, moment, game_id, 0, opening)
                if opening.match is not None:
                    link_match(conn, opening.match, game_id)
                if opening.entry is not None:
                    day, shared_in = opening.entry
                    conn.execute(
                        "INSERT INTO daily_entries (day, user_id, name, guild_id, game_id) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (day, creator_id, creator_name, shared_in, game_id),
                    )
                if opening.rematch is not None:
                    conn.execute(
                        "UPDATE rematches SET opened = ? WHERE game_id = ?",
                        (game_id, opening.rematch[0]),
                    )
            return int(game_id)

        try:
            return await self.write(unit)
        except sqlite3.IntegrityError as exc:
            if unique_failed(exc, "games.channel_id"):
                raise StaleGame("this channel already has a live game") from exc
            if unique_failed(exc, "daily_entries.day, daily_entries.user_id"):
                raise StaleGame("today's challenge has been opened already") from exc
            raise

    async def game(self, game_id: int) -> GameRow | None:
        return _game(await self.row(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)))

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in a channel, if any."""
        return _game(
            await self.row(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN {_LIVE}",
                (channel_id,),
            )
        )

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game in a channel, finished or not (for boards and history)."""
        return _game(
            await self.row(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
        )

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def seated_game(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one query: every click loads one, and a trip to the
        database's thread costs more CPU than the query."""
        return await self._seated("g.id = ?", game_id)

    async def seated_live_game(self, channel_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """:meth:`live_game` and its seats, in one query."""
        return await self._seated(f"g.channel_id = ? AND g.status IN {_LIVE}", channel_id)

    async def _seated(self, where: str, key: int) -> tuple[GameRow, list[SeatRow]] | None:
        rows = await self.rows(f"{_SEATED} WHERE {where} ORDER BY s.seat", (key,))
        if not rows:
            return None
        game = _game(rows[0][:_GAME_WIDTH])
        assert game is not None
        return game, [_seat(r[_GAME_WIDTH:]) for r in rows if r[_GAME_WIDTH] is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The log, its texts read as the bytes stored: a byte damaged there reads as
        U+FFFD (so that entry does not replay), not as a decoding error of the whole log."""
        rows = await self.rows(
            "SELECT seq, seat, user_id, CAST(kind AS BLOB), CAST(action AS BLOB), "
            "CAST(created_at AS BLOB) FROM moves WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [
            MoveRow(seq, seat, user, *(t.decode(errors="replace") for t in texts))
            for seq, seat, user, *texts in rows
        ]

    async def repair_state(self, game_id: int, version: int, state: str) -> bool:
        stored = state_columns(state)  # the version stays: the position is the same
        sql = "UPDATE games SET state = ?, state_crc = ? WHERE id = ? AND version = ?"
        changed = await self.execute(sql, (stored["state"], stored["state_crc"], game_id, version))
        return changed == 1

    async def damaged_games(self) -> list[int]:
        """Read once, at start-up: the live games' rows, a checksum each."""
        checked = _columns(CHECKED_FIELDS)
        rows = await self.rows(f"SELECT {checked} FROM games WHERE status IN {_LIVE}")
        return [row[0] for row in rows if damaged(row)]

    async def count_games(self) -> int:
        row = await self.row("SELECT COUNT(*) FROM games")
        return int(row[0])

    async def join(
        self, game_id: int, version: int, user_id: int, name: str, ai: str | None = None
    ) -> None:
        now = self.now()

        def unit(conn: sqlite3.Connection) -> None:
            bump(conn, now, game_id, version)
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES "
                "(?, (SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?), ?, ?, ?)",
                (game_id, game_id, user_id, name, ai),
            )

        await self.write(unit)

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""
        now = self.now()

        def unit(conn: sqlite3.Connection) -> None:
            bump(conn, now, game_id, version)
            (seat,) = conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? RETURNING seat",
                (game_id, user_id),
            ).fetchone()
            # shift one by one, upwards, so (game, seat) stays unique at every step
            later = conn.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                (game_id, seat),
            ).fetchall()
            for (s,) in later:
                conn.execute(
                    "UPDATE seats SET seat = seat - 1 WHERE game_id = ? AND seat = ?", (game_id, s)
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
        """Append one log entry and store the state it leads to, atomically, in one trip.

        ``results`` (place, score per seat) finishes the game, ``rate`` then moves the
        ratings of a rated game, and ``attempt`` settles the daily attempt played in it,
        if there is one: with the move, never a tick later. ``notices`` are "your turn"
        DMs (user, text, due at) for the waits the move starts, ``heads_ups`` "you're
        next" notices (user, via, text, due at), each queued once a turn (:func:`tell_next`);
        ``announce`` (note, due at) the stand-in for the move's public post. Returns the
        entry's seq. Raises :class:`StaleGame` if the game is no longer at ``version``.
        """
        moment = self.clock()
        now = iso(moment)
        awaited = list(move.awaiting)

        def unit(conn: sqlite3.Connection) -> int:
            status = "finished" if move.results else "active"
            hours = bump(conn, now, game_id, version, status=status, **state_columns(move.state))
            (seq,) = conn.execute(
                "INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
                "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), "
                "?, ?, ?, ?, ?) RETURNING seq",
                (game_id, game_id, move.seat, move.user_id, move.kind, move.action, now),
            ).fetchone()
            set_awaiting(
                conn, moment, game_id, hours, awaited, mover=move.seat, reacting=move.reacting
            )
            conn.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            for notice in move.notices:
                queue_turn(conn, now, game_id, *notice)
            tell_next(conn, now, game_id, move.heads_ups)
            if move.announce is not None:
                queue_board(conn, now, game_id, move.user_id, seq, *move.announce)
            if move.results:
                conn.executemany(
                    "UPDATE seats SET place = ?, score = ? WHERE game_id = ? AND seat = ?",
                    [(place, score, game_id, s) for s, (place, score) in enumerate(move.results)],
                )
                conn.execute("UPDATE games SET finished_at = ? WHERE id = ?", (now, game_id))
                if move.rate is not None:
                    rate_game(conn, now, game_id, move.rate)
            if move.attempt is not None:
                settle_attempt(conn, now, game_id, move.attempt)
            return int(seq)

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

        def unit(conn: sqlite3.Connection) -> None:
            bump(conn, iso(moment), game_id, version, status="abandoned")
            set_awaiting(conn, moment, game_id, (None, None), ())
            if attempt is not None:
                settle_attempt(conn, iso(moment), game_id, attempt)
            if forfeit is not None:
                match_id, places, forfeiting = forfeit
                zeros = [0] * len(places)
                if not settle_once(conn, match_id, "forfeit", places, zeros, forfeiting):
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

        def unit(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "UPDATE games SET updated_at = ? WHERE id = ? AND version = ?",
                (now, game_id, version),
            )
            if cur.rowcount != 1:
                raise StaleGame(f"game {game_id} moved on from version {version}")
            conn.execute(
                "UPDATE seats SET user_id = ?, name = ?, ai = ?, reminders = 0, snoozed = 0, "
                "told_next = 0, turn_since = CASE WHEN awaiting = 1 THEN ? END "
                "WHERE game_id = ? AND seat = ?",
                (user_id, name, ai, now, game_id, seat),
            )
            reschedule(conn, "s.game_id = ? AND s.seat = ?", game_id, seat)
            for notice in notices:
                queue_turn(conn, now, game_id, *notice)

        await self.write(unit)

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's result moves ratings: opened rated, two seats or more, and
        no AI seat (AI players are never rated)."""
        row = await self.row(
            f"SELECT {RATED} FROM games g WHERE g.id = ?",
            (game_id,),
        )
        return bool(row and row[0])

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.execute(
            "UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def rematch(self, game_id: int) -> Rematch:
        row = await self.row("SELECT agreed, opened FROM rematches WHERE game_id = ?", (game_id,))
        return Rematch() if row is None else Rematch(frozenset(json.loads(row[0])), row[1])

    async def agree_rematch(self, game_id: int, user_id: int) -> frozenset[int]:
        """Note that ``user_id`` wants to play this game again, in one transaction with
        reading who else has: two players agreeing at once both count."""
        return await self.write(_agree_rematch, self.now(), game_id, user_id)

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self.row(
            "SELECT user_id, moves, version, agreed FROM undo_requests WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return UndoRequest(row[0], row[1], row[2], frozenset(json.loads(row[3])))

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None:
        await self.execute(
            "INSERT OR REPLACE INTO undo_requests "
            "(game_id, user_id, moves, version, agreed, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, request.user_id, request.moves, request.version)
            + (json.dumps(sorted(request.agreed)), self.now()),
        )


def _agree_rematch(
    conn: sqlite3.Connection, now: str, game_id: int, user_id: int
) -> frozenset[int]:
    """Add ``user_id`` to those who want to play ``game_id`` again, inside the caller's
    transaction; everyone who has. Raises :class:`StaleGame` once its rematch is opened."""
    row = conn.execute(
        "SELECT agreed, opened FROM rematches WHERE game_id = ?", (game_id,)
    ).fetchone()
    if row is not None and row[1] is not None:
        raise StaleGame(f"the rematch of game {game_id} has been opened")
    agreed = frozenset(json.loads(row[0]) if row else ()) | {user_id}
    conn.execute(
        "INSERT INTO rematches (game_id, agreed, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET agreed = excluded.agreed",
        (game_id, json.dumps(sorted(agreed)), now),
    )
    return agreed
