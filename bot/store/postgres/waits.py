"""Statements that run inside other transactions: bump a game's version, start and stop
the seats' waits, and store when each wait is next due.

A move's new waits are worked out here in Python from one snapshot of the game's seats,
read in the same statement as the version bump, and written back by one statement: a
move costs the same few trips however many seats the game has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.clocks import Clocks, Wait, counts_from, next_due
from bot.store.faults import StaleGame
from bot.store.postgres.connection import Tx
from bot.store.queries import WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.rows import iso

#: a game's columns a wait needs, as the bump leaves them
_GAME = (
    "id, guild_id, channel_id, game_key, version, status, move_hours, deadline_policy, "
    "remind_hours, reminder_limit, reaction_hours, rated"
)
#: a seat's columns a wait needs, and those a new wait resets
_SEAT = (
    "s.seat, s.user_id, s.name, s.awaiting, s.place, s.score, s.turn_since, s.deadline, "
    "s.reminders, s.snoozed, s.warned, s.reacting, s.paused_hours, s.extended_hours, "
    "s.told_next, u.vacation_until, s.ai, u.remind_hours, u.digest_hour IS NOT NULL"
)


@dataclass(frozen=True)
class Seat:
    """One seat as the write found it, then as it leaves it."""

    seat: int
    user_id: int
    name: str
    awaiting: bool
    place: int | None
    score: int | None
    turn_since: str | None
    deadline: str | None
    reminders: int
    snoozed: bool
    warned: bool
    reacting: bool
    paused_hours: float
    extended_hours: float
    told_next: bool  # told it is next, since its own last turn began
    vacation_until: str | None
    ai: str | None  # an AI seat's level
    own_remind_hours: float | None  # the player's own reminder cadence
    digest: bool  # the player takes a daily digest instead of reminders


@dataclass(frozen=True)
class Game:
    """A game as the version bump left it, and its seats as they were."""

    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    version: int
    status: str
    clocks: Clocks
    rated: bool
    seats: tuple[Seat, ...]
    more: object = None  # the column a caller's CTE added (the move's seq, say)


class Statement:
    """A statement's parameters, numbered as they are added (``$1``, ``$2``, ...)."""

    def __init__(self, *values: object) -> None:
        self.values = list(values)

    def __call__(self, value: object) -> str:
        self.values.append(value)
        return f"${len(self.values)}"


async def bump(
    tx: Tx,
    now: str,
    game_id: int,
    version: int,
    more: Callable[[Statement], str] | None = None,
    **columns: object,
) -> Game:
    """Set columns and bump the version, only if nobody else did first; the game as it
    is now, with its seats as they were, read in the same statement. ``more`` adds to
    that statement a CTE that runs only if the bump did (``, name AS (... FROM g ...)``)
    and one more column for the first row (``(SELECT ... FROM name)``): both returned
    by one function of the statement's parameters, the column after a ``|``. Raises
    :class:`StaleGame` when the game has moved on: then nothing was written.

    The seats are locked as they are read (a game always has its creator's seat): a
    reminder another process claims meanwhile is waited for and read as it left the
    seat, never written back over by this write's older copy. The transaction's id is
    read with them (``tx.xid``), so a COMMIT cut off by the server's crash can be
    settled (:meth:`~bot.store.postgres.connection.Connection.write`)."""
    sql = Statement(now, game_id, version)
    sets = "".join(f", {name} = {sql(value)}" for name, value in columns.items())
    cte, _, column = (more(sql) if more else "|NULL").partition("|")
    rows = await tx.fetch(
        f"WITH g AS (UPDATE games SET version = version + 1, updated_at = $1{sets} "
        f"WHERE id = $2 AND version = $3 RETURNING {_GAME}){cte} "
        f"SELECT g.*, {column}, {_SEAT}, pg_current_xact_id()::text FROM g "
        "JOIN seats s ON s.game_id = g.id LEFT JOIN user_settings u ON u.user_id = s.user_id "
        "ORDER BY s.seat FOR UPDATE OF s",
        *sql.values,
    )
    if not rows:
        raise StaleGame(f"game {game_id} moved on from version {version}")
    first = rows[0]
    tx.xid = first[-1]  # to ask whether it committed, should its COMMIT go unanswered
    width = len(_GAME.split(", ")) + 1
    return Game(
        *first[:6],
        Clocks(*first[6:11]),
        first[11],
        tuple(Seat(*r[width:-1]) for r in rows),
        first[12],
    )


def awaited(
    game: Game,
    now: datetime,
    seats: Iterable[int],
    mover: int | None = None,
    reacting: bool = False,
) -> list[Seat]:
    """Who the game waits for now, and their turn timers: the seats as they are to be.

    A seat that starts waiting gets a fresh wait (since now, deadline from the game's
    time per move, no reminders sent); a seat that keeps waiting keeps its deadline, but
    acting (``mover``) restarts its reminder clock. A player on vacation gets the whole
    time per move from their return, and the seat remembers that part as vacation, so
    coming back early takes back only that. A turn of a seat's own (not a reaction
    window) lets it be told it is next once more.
    """
    waiting = set(seats)
    hours = game.clocks.reaction_hours if reacting else game.clocks.move_hours
    after = []
    for seat in game.seats:
        if seat.seat not in waiting:
            seat = replace(
                seat, awaiting=False, turn_since=None, deadline=None, reacting=False,
                paused_hours=0.0, extended_hours=0.0,
            )  # fmt: skip
        elif not seat.awaiting:
            start = counts_from(now, seat.vacation_until)
            seat = replace(
                seat,
                awaiting=True,
                turn_since=iso(now),
                deadline=None if hours is None else iso(start + timedelta(hours=hours)),
                paused_hours=0.0 if hours is None else (start - now) / timedelta(hours=1),
                reminders=0,
                snoozed=False,
                warned=False,
                reacting=reacting,
                extended_hours=0.0,
                told_next=seat.told_next and reacting,
            )
        elif seat.seat == mover:
            seat = replace(seat, turn_since=iso(now), reminders=0)
        after.append(seat)
    return after


def due_at(game: Game, seat: Seat) -> str | None:
    """When this seat's wait is next due (None: a seat no active game waits for)."""
    if not seat.awaiting or game.status != "active":
        return None
    return _next(
        Wait(
            game.id, game.guild_id, game.channel_id, game.game_key, game.version, seat.seat,
            seat.user_id, seat.name, seat.turn_since, seat.deadline, seat.reminders,
            seat.snoozed, seat.warned, game.clocks, seat.vacation_until, seat.reacting,
            seat.ai, seat.own_remind_hours, seat.digest,
        )
    )  # fmt: skip


def write_seats(sql: Statement, game: Game, seats: Sequence[Seat]) -> str:
    """A CTE (without its name) that writes every seat's wait, place, score and due time."""
    columns = {
        "seat": "int",
        "awaiting": "bool",
        "place": "int",
        "score": "int",
        "turn_since": "timestamptz",
        "deadline": "timestamptz",
        "reminders": "int",
        "snoozed": "bool",
        "warned": "bool",
        "reacting": "bool",
        "paused_hours": "float8",
        "extended_hours": "float8",
        "told_next": "bool",
    }
    arrays = [
        f"{sql([getattr(s, name) for s in seats])}::{kind}[]" for name, kind in columns.items()
    ]
    due = f"{sql([due_at(game, s) for s in seats])}::timestamptz[]"
    sets = ", ".join(f"{name} = v.{name}" for name in [*columns, "due_at"] if name != "seat")
    return (
        f"UPDATE seats SET {sets} FROM unnest({', '.join(arrays)}, {due}) "
        f"AS v({', '.join(columns)}, due_at) WHERE seats.game_id = {sql(game.id)} "
        "AND seats.seat = v.seat"
    )


async def reschedule(tx: Tx, where: str, *params: object) -> None:
    """Store when each seat matching ``where`` is next due (NULL: a seat no active game
    waits for), inside the caller's transaction: two trips, however many seats. Every
    write that changes a wait or a player's vacation calls this."""
    rows = await tx.fetch(
        f"SELECT {WAIT_COLUMNS}, s.awaiting AND g.status = 'active' "
        f"FROM {WAIT_TABLES} WHERE {where} FOR UPDATE OF s",
        *params,
    )
    if not rows:
        return
    due = [None if not r[-1] else _next(wait(r)) for r in rows]
    await tx.execute(
        "UPDATE seats SET due_at = v.due_at FROM unnest($1::bigint[], $2::int[], "
        "$3::timestamptz[]) AS v(game_id, seat, due_at) "
        "WHERE seats.game_id = v.game_id AND seats.seat = v.seat",
        [r[0] for r in rows],
        [r[5] for r in rows],
        due,
    )


def _next(w: Wait) -> str | None:
    moment = next_due(w)
    return None if moment is None else iso(moment)


def tell_next(
    seats: Sequence[Seat], heads_ups: Iterable[tuple[int, str, str, str]]
) -> tuple[list[Seat], list[tuple[int, str, str, str]]]:
    """The "you're next" heads-ups (user, via, text, due at) to queue, and the seats as
    they are to be: each for a player not awaited who has not been told since their own
    last turn began, who now has been. The seats were read locked, so this holds."""
    after, queued = list(seats), []
    for user_id, via, text, due_at in heads_ups:
        for i, seat in enumerate(after):
            if seat.user_id == user_id and not seat.awaiting and not seat.told_next:
                after[i] = replace(seat, told_next=True)
                queued.append((user_id, via, text, due_at))
    return after, queued
