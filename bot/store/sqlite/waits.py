"""Statements that run inside other transactions: bump a game's version, start and stop
the seats' waits, and store when each wait is next due. Plain functions of the
connection, run in its thread as part of a unit (:mod:`bot.store.sqlite.connection`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from bot.clocks import counts_from, next_due
from bot.store.faults import StaleGame
from bot.store.queries import WAIT_COLUMNS, WAIT_TABLES, wait
from bot.store.rows import iso


def _due_at(row: Sequence) -> str | None:
    moment = next_due(wait(row))
    return None if moment is None else iso(moment)


def bump(
    conn: sqlite3.Connection, now: str, game_id: int, version: int, **columns: object
) -> tuple[float | None, float | None]:
    """Set columns and bump the version, only if nobody else did first. Returns the
    game's time per move and per reaction, which a new turn's deadline needs."""
    sets = "".join(f", {name} = ?" for name in columns)
    hours = conn.execute(
        f"UPDATE games SET version = version + 1, updated_at = ?{sets} "
        "WHERE id = ? AND version = ? RETURNING move_hours, reaction_hours",
        (now, *columns.values(), game_id, version),
    ).fetchone()
    if hours is None:
        raise StaleGame(f"game {game_id} moved on from version {version}")
    return hours[0], hours[1]


def reschedule(conn: sqlite3.Connection, where: str, *params: object) -> None:
    """Store when each seat matching ``where`` is next due (NULL: a seat no active game
    waits for), inside the caller's transaction. Every write that changes a wait or a
    player's vacation calls this: a due time left too late would never be read, and
    its reminder, warning or deadline would come late or not at all."""
    rows = conn.execute(
        f"SELECT {WAIT_COLUMNS}, s.awaiting = 1 AND g.status = 'active' "
        f"FROM {WAIT_TABLES} WHERE {where}",
        params,
    ).fetchall()
    conn.executemany(
        "UPDATE seats SET due_at = ? WHERE game_id = ? AND seat = ?",
        [(_due_at(r[:-1]) if r[-1] else None, r[0], r[5]) for r in rows],
    )


def set_awaiting(
    conn: sqlite3.Connection,
    now: datetime,
    game_id: int,
    hours: tuple[float | None, float | None],
    seats: Iterable[int],
    mover: int | None = None,
    reacting: bool = False,
) -> None:
    """Mark who the game waits for, and start their turn timers.

    A seat that starts waiting gets a fresh wait (since now, deadline from the game's
    time per move, no reminders sent); a seat that keeps waiting keeps its deadline,
    but acting (``mover``) restarts its reminder clock. Same transaction as the move.
    A turn of a seat's own (not a reaction window) lets it be told it is next once more.
    A player on vacation gets the whole time per move from their return, and the seat
    remembers that part as vacation, so coming back early takes back only that. Every
    seat's next due time follows, as the game's status (finished, abandoned) has it.
    ``hours`` is the game's (per move, per reaction), as :func:`bump` returns them.
    """
    awaited = sorted(set(seats))
    marks = ",".join("?" * len(awaited))
    conn.execute(
        "UPDATE seats SET awaiting = 0, turn_since = NULL, deadline = NULL, reacting = 0, "
        f"paused_hours = 0, extended_hours = 0 WHERE game_id = ? AND seat NOT IN ({marks})",
        (game_id, *awaited),
    )
    per_move, per_reaction = hours
    hours = per_reaction if reacting else per_move
    away = dict(
        conn.execute(
            "SELECT s.seat, u.vacation_until FROM seats s "
            "JOIN user_settings u ON u.user_id = s.user_id "
            f"WHERE s.game_id = ? AND s.seat IN ({marks}) AND u.vacation_until > ?",
            (game_id, *awaited, iso(now)),
        ).fetchall()
    )
    fresh = []
    for seat in awaited:
        start = counts_from(now, away.get(seat))
        deadline = None if hours is None else iso(start + timedelta(hours=hours))
        paused = 0.0 if hours is None else (start - now) / timedelta(hours=1)
        fresh.append((iso(now), deadline, paused, int(reacting), game_id, seat))
    told = "" if reacting else ", told_next = 0"
    conn.executemany(
        "UPDATE seats SET awaiting = 1, turn_since = ?, deadline = ?, paused_hours = ?, "
        f"reminders = 0, snoozed = 0, warned = 0, reacting = ?, extended_hours = 0{told} "
        "WHERE game_id = ? AND seat = ? AND awaiting = 0",
        fresh,
    )
    if mover in awaited:
        conn.execute(
            "UPDATE seats SET turn_since = ?, reminders = 0 WHERE game_id = ? AND seat = ?",
            (iso(now), game_id, mover),
        )
    reschedule(conn, "s.game_id = ?", game_id)
