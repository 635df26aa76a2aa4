"""The SQLite store: the default, one file beside the bot, one process (WAL, foreign keys
on, durable commits). Every feature's statements are the shared ones
(:mod:`bot.store.shared`), rendered by :data:`~bot.store.sqlite.dialect.SQLITE`; this
package holds only the connection that runs them, a whole transaction in one trip to
SQLite's thread, and what only a file has (its lock, faults, migrations, copies)."""

from __future__ import annotations

from bot.store.shared import Features
from bot.store.sqlite.connection import CHECK_BEFORE_START, Connection
from bot.store.sqlite.files import sole_process
from bot.store.sqlite.migrations import Migration, migrations
from bot.store.sqlite.tables import SQLiteSide, occupied


class SQLiteStore(Features, Connection):
    """:class:`bot.store.interface.Store` on one SQLite file."""


#: what :class:`bot.store.backends.Backend` asks of a backend's package
Store, Side = SQLiteStore, SQLiteSide

__all__ = [
    "CHECK_BEFORE_START",
    "Migration",
    "SQLiteStore",
    "Side",
    "Store",
    "migrations",
    "occupied",
    "sole_process",
]
