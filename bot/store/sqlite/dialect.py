"""How SQLite reads the neutral statements (:mod:`bot.store.sql`), and what its driver's
errors mean in their terms."""

from __future__ import annotations

import sqlite3

from bot.store.sql import Dialect


class SQLiteDialect(Dialect):
    def as_bytes(self, column: str) -> str:
        """SQLite decodes a text column as UTF-8 and fails on a damaged byte: read as a blob."""
        return f"CAST({column} AS BLOB)"


#: SQLite's booleans are the integers 0 and 1, stored and compared so: a partial index
#: ``WHERE awaiting = 1`` serves ``awaiting = 1`` only, not ``awaiting = TRUE``. Times are
#: text (``CAST(... AS TIMESTAMPTZ)`` would read a date as the number it begins with).
#: ``IS`` compares NULLs as values (``IS NOT DISTINCT FROM`` came in 3.39). A write
#: transaction (``BEGIN IMMEDIATE``) holds the whole file, so rows need no locks of their own.
SQLITE = SQLiteDialect(
    "SQLite",
    numbered=False,
    words={
        "TRUE": "1",
        "FALSE": "0",
        "TIMESTAMPTZ": "TEXT",
        "IS NOT DISTINCT FROM": "IS",
        "FOR UPDATE": "",
    },
)

#: the unique constraints SQLite names by their columns, as PostgreSQL's schema names them
_CONSTRAINTS = {
    "games.channel_id": "games_live_channel",
    "daily_entries.day, daily_entries.user_id": "daily_entries_pkey",
    "leagues.guild_id, leagues.name": "leagues_guild_name",
}
_UNIQUE = "UNIQUE constraint failed: "


def duplicate(error: sqlite3.IntegrityError) -> str | None:
    """The unique constraint ``error`` says was broken, named as PostgreSQL names it (its
    columns where it has no such name); None for any other integrity error (a NOT NULL
    column given a NaN, which SQLite stores as NULL, say): a bug, to surface as one."""
    text = str(error)
    if not text.startswith(_UNIQUE):
        return None
    columns = text.removeprefix(_UNIQUE)
    return _CONSTRAINTS.get(columns, columns)
