"""PostgreSQL's side of a whole-database copy (:mod:`bot.store.copying`): its catalogue,
its rows in batches through a cursor, its writes and identity numbers; and what a
database holds, read without changing it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence

import asyncpg

from bot.store.copying import (
    BOOKKEEPING,
    BOOL,
    BYTES,
    FLOAT,
    INT,
    TEXT,
    TIME,
    Column,
    CopyFault,
    Table,
)
from bot.store.postgres.connection import Conn
from bot.store.postgres.opening import open_fault
from bot.store.targets import CONNECT_TIMEOUT_S, redacted

_KINDS = {
    "bigint": INT,
    "integer": INT,
    "smallint": INT,
    "double precision": FLOAT,
    "real": FLOAT,
    "text": TEXT,
    "bytea": BYTES,
    "boolean": BOOL,
    "timestamp with time zone": TIME,
}
BATCH = 5000
_IN_SCHEMA = "c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class PostgresSide:
    """One pooled connection inside its open transaction (the store's ``transaction()``)."""

    at_once = "-infinity"  # the schema's triggers mark a wait due at once so
    yes_no = bool

    def __init__(self, conn: Conn, url: str) -> None:
        self._conn = conn
        self.where = redacted(url)

    async def catalogue(self) -> dict[str, Table]:
        columns: dict[str, list[Column]] = {}
        identity: dict[str, str] = {}
        for table, column, declared, numbered in await self._conn.fetch(
            "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), "
            "a.attidentity <> '' FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
            f"WHERE {_IN_SCHEMA} AND a.attnum > 0 AND NOT a.attisdropped "
            "ORDER BY c.relname, a.attnum"
        ):
            kind = _KINDS.get(declared)
            if kind is None:
                raise CopyFault(f"{self.where}: {table}.{column} is of the unknown type {declared}")
            columns.setdefault(table, []).append(Column(column, kind))
            if numbered:
                identity[table] = column
        parents: dict[str, set[str]] = {}
        for table, parent in await self._conn.fetch(
            "SELECT c.relname, p.relname FROM pg_constraint k "
            "JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid "
            f"WHERE k.contype = 'f' AND {_IN_SCHEMA}"
        ):
            parents.setdefault(table, set()).add(parent)
        return {
            name: Table(
                name,
                tuple(cols),
                frozenset(parents.get(name, set()) - {name}),
                identity.get(name),
            )
            for name, cols in columns.items()
        }

    async def rows(
        self, table: str, columns: Sequence[str], order: Sequence[str] = ()
    ) -> AsyncIterator[list[tuple]]:
        sql = f"SELECT {', '.join(map(_quoted, columns))} FROM {_quoted(table)}"
        if order:
            sql += f" ORDER BY {', '.join(map(_quoted, order))}"
        cursor = await self._conn.cursor(sql)
        while batch := await cursor.fetch(BATCH):
            yield [tuple(row) for row in batch]

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
        sql = f"INSERT INTO {_quoted(table)} ({', '.join(map(_quoted, columns))}) VALUES ({marks})"
        try:
            await self._conn.executemany(sql, rows)
        except (asyncpg.DataError, asyncpg.IntegrityConstraintViolationError) as exc:
            raise CopyFault(f"{self.where} refused rows of {table}: {exc}") from exc

    async def restart_identities(self, tables: Iterable[Table]) -> None:
        """Each identity column's next number past the largest copied (the copy gave every
        row its id): without this the first new game would be given id 1 again."""
        for table in tables:
            if table.identity is None:
                continue
            name, column = _quoted(table.name), _quoted(table.identity)
            await self._conn.execute(
                f"SELECT setval(pg_get_serial_sequence($1, $2), "
                f"COALESCE((SELECT MAX({column}) FROM {name}), 0) + 1, false)",
                name,
                table.identity,
            )


async def occupied(url: str) -> dict[str, int]:
    """The tables of the database at ``url`` that hold rows (its migrations' record
    aside), with their counts. Only reads, in a read-only session."""
    try:
        conn = await asyncpg.connect(
            url,
            timeout=CONNECT_TIMEOUT_S,
            server_settings={"default_transaction_read_only": "on"},
        )
    except Exception as exc:
        raise open_fault(url, exc) from None
    try:
        names = [
            name
            for (name,) in await conn.fetch(
                f"SELECT c.relname FROM pg_class c WHERE {_IN_SCHEMA} ORDER BY 1"
            )
            if name != BOOKKEEPING
        ]
        counts = {
            name: await conn.fetchval(f"SELECT count(*) FROM {_quoted(name)}") for name in names
        }
    finally:
        await conn.close()
    return {name: count for name, count in counts.items() if count}
