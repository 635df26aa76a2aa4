"""SQLite's side of a whole-database copy (:mod:`bot.store.copying`): its catalogue, its
rows in batches, its writes; and what a file holds, read without changing it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import closing
from pathlib import Path

import aiosqlite

from bot.store.copying import BOOKKEEPING, BYTES, FLOAT, INT, TEXT, Column, CopyFault, Table
from bot.store.sqlite.files import open_fault

#: the types SQLite's migrations declare; a yes/no is an INTEGER, a time TEXT
_KINDS = {"INTEGER": INT, "REAL": FLOAT, "TEXT": TEXT, "BLOB": BYTES}
BATCH = 5000


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class SQLiteSide:
    """One SQLite connection inside its open transaction (the store's ``transaction()``)."""

    at_once = ""  # migration 0012: '' sorts before every time, so it is due at once
    yes_no = int

    def __init__(self, db: aiosqlite.Connection, where: str | Path) -> None:
        self._db = db
        self.where = str(where)

    async def catalogue(self) -> dict[str, Table]:
        tables = {}
        for (name,) in await self._db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ):
            columns = []
            for _cid, column, declared, *_ in await self._db.execute_fetchall(
                f"PRAGMA table_info({_quoted(name)})"
            ):
                kind = _KINDS.get(declared.upper())
                if kind is None:
                    raise CopyFault(
                        f"{self.where}: {name}.{column} is of the unknown type {declared}"
                    )
                columns.append(Column(column, kind))
            parents = {
                row[2]
                for row in await self._db.execute_fetchall(
                    f"PRAGMA foreign_key_list({_quoted(name)})"
                )
            }
            tables[name] = Table(name, tuple(columns), frozenset(parents - {name}))
        return tables

    async def rows(
        self, table: str, columns: Sequence[str], order: Sequence[str] = ()
    ) -> AsyncIterator[list[tuple]]:
        sql = f"SELECT {', '.join(map(_quoted, columns))} FROM {_quoted(table)}"
        if order:
            sql += f" ORDER BY {', '.join(map(_quoted, order))}"
        async with self._db.execute(sql) as cursor:
            while batch := await cursor.fetchmany(BATCH):
                yield [tuple(row) for row in batch]

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        marks = ", ".join("?" * len(columns))
        sql = f"INSERT INTO {_quoted(table)} ({', '.join(map(_quoted, columns))}) VALUES ({marks})"
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise CopyFault(f"{self.where} refused rows of {table}: {exc}") from exc

    async def restart_identities(self, tables: Iterable[Table]) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY numbers a new row past the largest."""


async def occupied(path: Path) -> dict[str, int]:
    """The tables of the file at ``path`` that hold rows (its migrations' record aside),
    with their counts; empty where there is no file yet. Only reads."""
    if not path.exists():
        return {}
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            names = [
                name
                for (name,) in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            counts = {
                name: db.execute(f"SELECT count(*) FROM {_quoted(name)}").fetchone()[0]
                for name in names
                if name != BOOKKEEPING
            }
    except sqlite3.Error as exc:
        raise open_fault(path, exc) from exc
    return {name: count for name, count in counts.items() if count}


def schema_version(path: Path) -> int:
    """The last migration the file at ``path`` records (0: none, not the bot's database).
    Only reads."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            found = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (BOOKKEEPING,)
            ).fetchone()
            if found is None:
                return 0
            return db.execute(f"SELECT COALESCE(MAX(number), 0) FROM {BOOKKEEPING}").fetchone()[0]
    except sqlite3.Error as exc:
        raise open_fault(path, exc) from exc
