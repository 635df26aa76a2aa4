"""What runs inside other transactions, written once: bump a game's version and read its
seats, write back the seats as the play-by-post rules (:mod:`bot.domain.clocks`) leave them with
what a move queues beside them, and store when each wait is next due.

The rules themselves are not here: a write reads the game's seats (:meth:`WaitsSQL._bump`),
the caller applies :func:`bot.domain.clocks.awaited` and :func:`bot.domain.clocks.tell_next`
to them in Python, and :meth:`WaitsSQL._settle` writes back what they return. A store that can do a
part in fewer trips overrides it (PostgreSQL's one-statement CTEs,
:mod:`bot.store.postgres.waits`); what it writes stays the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.domain.clocks import Seat
from bot.domain.ratings import Rating
from bot.store.faults import StaleGame
from bot.store.rows import Attempt, MoveRecord
from bot.store.shared.base import Base
from bot.store.shared.daily import settle_attempt
from bot.store.shared.ratings import RATING_INSERT, RATING_UPSERT, RATING_VALUES, rating_values
from bot.store.shared.seats import (
    GAME,
    SEAT,
    WAIT_COLUMNS,
    WAIT_TABLES,
    Game,
    due_at,
    next_at,
    seat_of,
    wait,
)
from bot.store.sql import Body, Many, Q

#: columns of ``games`` a version bump sets, by name
Columns = Mapping[str, object]
#: a seat's columns a move writes, as :class:`~bot.domain.clocks.Seat` names them
WRITTEN = (
    "awaiting", "place", "score", "turn_since", "deadline", "reminders", "snoozed",
    "warned", "reacting", "paused_hours", "extended_hours", "told_next",
)  # fmt: skip


@dataclass(frozen=True)
class Queued:
    """What a write queues beside the seats it leaves (:meth:`WaitsSQL._settle`): "your
    turn" DMs for the waits it starts (user, text, due at), "you're next" heads-ups to
    send (user, via, text, due at: :func:`bot.domain.clocks.tell_next` chose them), the stand-in
    for a move's public post (mover, note, due at), the daily attempt its game settles,
    and the ratings it moves (:meth:`bot.store.shared.ratings.RatingsSQL._rate`)."""

    notices: Sequence[tuple[int, str, str]] = ()
    heads_ups: Sequence[tuple[int, str, str, str]] = ()
    board: tuple[int, str, str] | None = None
    attempt: Attempt | None = None
    ratings: Sequence[tuple[int, str, Rating]] | None = None  # (user, name, rating after)


class WaitsSQL(Base):
    def _bump(
        self, now: str, game_id: int, version: int, columns: Columns, entry: MoveRecord | None
    ) -> Body[Game]:
        """Set ``columns`` and bump the version, only if nobody else did first, appending
        ``entry`` to the log (and dropping a pending undo request) with it; the game as it
        is now, its seats as they were, locked till the commit. Raises
        :class:`StaleGame` when the game has moved on: then nothing was written."""
        sets = "".join(f", {name} = :{name}" for name in columns)
        row = yield Q.row(
            f"UPDATE games SET version = version + 1, updated_at = :now{sets} "
            f"WHERE id = :game_id AND version = :version RETURNING {GAME}",
            now=now,
            game_id=game_id,
            version=version,
            **columns,
        )
        if row is None:
            raise StaleGame(f"game {game_id} moved on from version {version}")
        seq = None
        if entry is not None:
            (seq,) = yield Q.row(
                "INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
                "VALUES (:game_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves "
                "WHERE game_id = :game_id), :seat, :user_id, :kind, :action, :now) RETURNING seq",
                game_id=game_id,
                seat=entry.seat,
                user_id=entry.user_id,
                kind=entry.kind,
                action=entry.action,
                now=now,
            )
            yield Q.count("DELETE FROM undo_requests WHERE game_id = :game_id", game_id=game_id)
        seats = yield Q.rows(
            f"SELECT {SEAT} FROM seats s LEFT JOIN user_settings u ON u.user_id = s.user_id "
            "WHERE s.game_id = :game_id ORDER BY s.seat FOR UPDATE OF s",
            game_id=game_id,
        )
        return Game.read(row, [seat_of(r) for r in seats], seq)

    def _settle(
        self, now: str, game: Game, seats: Sequence[Seat], queued: Queued | None = None
    ) -> Body[None]:
        """Write every seat as the rules leave it (``seats``, in seat order) with when it
        is next due, and what ``queued`` holds, in the caller's transaction."""
        queued = queued or Queued()
        before = {s.seat: s for s in game.seats}
        yield Many(
            f"UPDATE seats SET {', '.join(f'{c} = :{c}' for c in WRITTEN)} "
            "WHERE game_id = :game_id AND seat = :seat",
            [_written(game.id, s) for s in seats if s != before.get(s.seat)],
        )
        # after the seats: a change to them marks their wait due at once (the schema's
        # triggers, for writes made by hand), and this says exactly when
        yield Many(
            "UPDATE seats SET due_at = :due_at WHERE game_id = :game_id AND seat = :seat",
            [dict(game_id=game.id, seat=s.seat, due_at=due_at(game, s)) for s in seats],
        )
        since = {s.user_id: s.turn_since for s in seats if s.awaiting}
        yield Many(
            "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
            "turn_since) VALUES (:game_id, :user_id, 'turn', 'dm', :text, :due_at, :now, "
            ":turn_since)",
            [
                dict(game_id=game.id, user_id=u, text=t, due_at=d, now=now, turn_since=since[u])
                for u, t, d in queued.notices
                if u in since
            ],
        )
        yield Many(
            "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at) "
            "VALUES (:game_id, :user_id, 'heads_up', :via, :text, :due_at, :now)",
            [
                dict(game_id=game.id, user_id=u, via=v, text=t, due_at=d, now=now)
                for u, v, t, d in queued.heads_ups
            ],
        )
        if queued.board is not None:
            mover, note, due = queued.board
            yield Q.count(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, seq) "
                "VALUES (:game_id, :user_id, 'board', 'channel', :text, :due_at, :now, :seq)",
                game_id=game.id,
                user_id=mover,
                text=note,
                due_at=due,
                now=now,
                seq=game.seq,
            )
        if queued.attempt is not None:
            yield settle_attempt(now, game.id, queued.attempt)
        if queued.ratings is not None:
            guild, key = game.guild_id or 0, game.game_key
            rated = ((guild, key, user, name, r) for user, name, r in queued.ratings)
            yield Many(
                f"{RATING_INSERT} {RATING_VALUES} {RATING_UPSERT}", rating_values(now, rated)
            )

    def _reschedule(self, where: str, **params: object) -> Body[None]:
        """Store when each seat matching ``where`` is next due (NULL: a seat no active game
        waits for), inside the caller's transaction. Every write that changes a wait or a
        player's vacation calls this: a due time left too late would never be read, and
        its reminder, warning or deadline would come late or not at all."""
        rows = yield Q(
            f"SELECT {WAIT_COLUMNS}, s.awaiting = TRUE AND g.status = 'active' "
            f"FROM {WAIT_TABLES} WHERE {where} FOR UPDATE OF s",
            params,
        )
        yield Many(
            "UPDATE seats SET due_at = :due_at WHERE game_id = :game_id AND seat = :seat",
            [
                dict(game_id=r[0], seat=r[5], due_at=next_at(wait(r)) if r[-1] else None)
                for r in rows
            ],
        )


def _written(game_id: int, seat: Seat) -> dict[str, object]:
    values = {column: getattr(seat, column) for column in WRITTEN}
    return dict(values, game_id=game_id, seat=seat.seat)
