"""Units of work: plain functions of a ``sqlite3.Connection`` that the store runs whole
in the connection's thread (:meth:`bot.store.sqlite.connection.Connection.write`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TypeVar

from bot.store.sqlite.migrations import Migration, statements

T = TypeVar("T")
#: a unit of work: a function of the connection, run whole in the connection's thread
Unit = Callable[..., T]


def fetch_rows(conn: sqlite3.Connection, sql: str, params: Sequence) -> list[tuple]:
    return conn.execute(sql, params).fetchall()


def execute(conn: sqlite3.Connection, sql: str, params: Sequence) -> int:
    return conn.execute(sql, params).rowcount


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
