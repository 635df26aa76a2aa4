"""Units of work: plain functions of a ``sqlite3.Connection`` that the store runs whole
in the connection's thread (:meth:`bot.store.sqlite.connection.Connection.write`); among
them :func:`drive`, which runs a body of neutral statements (:mod:`bot.store.sql`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

from bot.store.sql import COUNT, ROW, Dialect, Duplicate, Many, Statement, Work, body
from bot.store.sqlite.dialect import duplicate
from bot.store.sqlite.migrations import Migration, statements

T = TypeVar("T")
#: a unit of work: a function of the connection, run whole in the connection's thread
Unit = Callable[..., T]


def fetch_rows(conn: sqlite3.Connection, sql: str, params: Sequence) -> list[tuple]:
    return conn.execute(sql, params).fetchall()


def execute(conn: sqlite3.Connection, sql: str, params: Sequence) -> int:
    return conn.execute(sql, params).rowcount


def drive(conn: sqlite3.Connection, dialect: Dialect, work: Work[T]) -> T:
    """Run a body (or one statement) to its end, each statement as ``dialect`` renders it,
    sending the body what each brought back; its result."""
    steps, sent = body(work), None
    try:
        while True:
            sent = _run(conn, dialect, steps.send(sent))
    except StopIteration as done:
        return done.value
    except BaseException:
        steps.close()
        raise


def _run(conn: sqlite3.Connection, dialect: Dialect, statement: Statement) -> Any:
    text = dialect.render(statement.sql).text
    try:
        if isinstance(statement, Many):
            if statement.rows:
                conn.executemany(text, statement.rows)
            return None
        cursor = conn.execute(text, statement.params)
    except sqlite3.IntegrityError as exc:
        name = duplicate(exc)
        if name is None:
            raise
        raise Duplicate(name) from exc
    if statement.want == COUNT:
        return statement.result(cursor.rowcount)
    if statement.want == ROW:
        return statement.result(cursor.fetchone())
    return statement.result(cursor.fetchall())


def in_transaction(
    conn: sqlite3.Connection, unit: Unit[T], args: Sequence, begin: bool, commit: bool
) -> T:
    """Run ``unit`` in a savepoint of the open transaction: ``begin`` opens that
    transaction first and ``commit`` ends it, making the unit durable in the same trip.
    A unit that raises leaves nothing behind, and a transaction it opened is closed."""
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    conn.execute("SAVEPOINT unit")
    try:
        result = unit(conn, *args)
        conn.execute("RELEASE unit")
        if commit:
            conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):  # the error that brought us here says more
                if begin or commit:  # the transaction holds this unit only
                    conn.execute("ROLLBACK")
                else:
                    conn.execute("ROLLBACK TO unit")
                    conn.execute("RELEASE unit")
        raise
    return result


def commit(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("COMMIT")
    except sqlite3.Error:
        if conn.in_transaction:  # SQLite may have rolled back already (a full disk)
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def apply_migration(conn: sqlite3.Connection, mig: Migration, now: str) -> None:
    for statement in statements(mig.sql):
        conn.execute(statement)
    conn.execute(
        "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
        (mig.number, mig.name, now),
    )
