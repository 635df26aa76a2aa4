"""Opening a PostgreSQL store and keeping its schema: the pool and its connections'
settings, the migrations applied under an advisory lock, the integrity check at
start-up, a backup by ``pg_dump``, and what an error met while connecting means."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.dumps import dump
from bot.store.faults import CannotOpen, Damaged, SchemaTooNew, StoreFault
from bot.store.migrations import migrations
from bot.store.postgres.connection import Connection, Tx
from bot.store.rows import iso, parse_time, utcnow
from bot.store.targets import CONNECT_TIMEOUT_S, redacted

#: connections one process keeps open: a move holds one for its transaction only
POOL_SIZE = 10
#: how long a statement waits for a row another process holds before giving up (as
#: SQLite's busy timeout): the asker hears that nothing could be saved, not silence
LOCK_TIMEOUT_S = 5.0
#: held while migrating, so processes starting together apply each migration once
_MIGRATION_LOCK = 0x6272_6964_6765  # "bridge"


def _decode_timestamp(text: str) -> str:
    # '-infinity' marks a wait as due at once (the schema's triggers); it is only compared
    return text if text.endswith("infinity") else iso(parse_time(text))


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it came: the store leaves no session state
    behind (its settings are the connection's own from the start; a migration undoes its
    SET and advisory lock itself; other changes are SET LOCAL), and asyncpg rolls back any
    transaction left open before calling this. Its default reset instead sends a query
    (RESET ALL, UNLISTEN *, ...) on every release: a round trip for each read, half a
    read's cost."""


async def _timestamp_codec(conn: asyncpg.Connection) -> None:
    """``timestamptz`` crosses the interface as :func:`~bot.store.rows.iso` text: sent as
    that text (PostgreSQL parses ISO 8601), read back in exactly that format."""
    await conn.set_type_codec(
        "timestamptz",
        schema="pg_catalog",
        encoder=str,
        decoder=_decode_timestamp,
        format="text",
    )


class OpeningPG(Connection):
    """A store's pool opened with its settings, and its schema brought and kept whole."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], datetime] = utcnow,
        migrate_to: int | None = None,
        pool_size: int = POOL_SIZE,
        read_only: bool = False,
    ) -> Any:
        """Connect a pool to the database at ``url`` and bring its schema up to date.

        ``read_only``: every transaction is read-only, the server's guarantee that nothing
        is written, and the schema is left as it is (``python -m bot migrate-store``
        reads its source so). Raises :class:`CannotOpen` naming the URL (never its
        password) and what to do: a server that cannot be reached, a refused password or
        user, a missing database.
        """
        settings = {
            "timezone": "UTC",
            "application_name": "bridgekeeper",
            "lock_timeout": f"{int(LOCK_TIMEOUT_S * 1000)}ms",
        }
        if read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                init=_timestamp_codec,
                reset=_nothing_to_reset,
                timeout=CONNECT_TIMEOUT_S,
                server_settings=settings,
            )
        except Exception as exc:
            raise open_fault(url, exc) from None
        store = cls(pool, url, clock)
        if read_only:
            return store
        try:
            await store.migrate(migrate_to)
        except BaseException:
            await pool.close()
            raise
        return store

    @classmethod
    async def open_checked(cls, url: str, *, full: bool = False) -> Any:
        """:meth:`open`, then :meth:`integrity`: a database that fails it raises
        :class:`Damaged` and is left closed. ``full`` is accepted for the SQLite store's
        signature: the check here is always made before going on."""
        store = await cls.open(url)
        try:
            verdict = await store.integrity()
        except BaseException:
            await store.close()
            raise
        if verdict != "ok":
            await store.close()
            raise Damaged(store.where, verdict, "PostgreSQL")
        return store

    # -- schema ----------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.row(
            "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0 "
            "ELSE (SELECT COALESCE(MAX(number), 0) FROM schema_migrations) END"
        )
        assert row is not None  # a SELECT without FROM: one row
        return int(row[0])

    async def migrate(self, target: int | None = None) -> list[int]:
        """Apply every pending migration of ``migrations/postgres/`` up to ``target``, each
        in its own transaction, under an advisory lock: processes starting together wait
        for each other instead of applying one twice.

        Raises :class:`SchemaTooNew`, changing nothing, when the database records a
        migration above every one shipped here: a newer Bridgekeeper wrote it."""
        shipped = migrations("postgres")
        known = max((mig.number for mig in shipped), default=0)
        applied = []
        async with self._pool.acquire() as conn:
            await conn.execute("SET lock_timeout = 0")  # another process may be migrating
            await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (number INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
                )
                done = {r[0] for r in await conn.fetch("SELECT number FROM schema_migrations")}
                if done and max(done) > known:
                    raise SchemaTooNew(self.where, max(done), known)
                for mig in shipped:
                    if mig.number in done or (target is not None and mig.number > target):
                        continue
                    async with conn.transaction():
                        await conn.execute(mig.sql)  # a whole file: the simple protocol
                        await conn.execute(
                            "INSERT INTO schema_migrations (number, name, applied_at) "
                            "VALUES ($1, $2, $3)",
                            mig.number,
                            mig.name,
                            self.now(),
                        )
                    applied.append(mig.number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
                await conn.execute("RESET lock_timeout")
        return applied

    # -- checks and copies -----------------------------------------------------------------

    async def integrity(self) -> str:
        """What PostgreSQL can check cheaply, while the bot runs: every table of the schema
        is read through (``count(*)`` with index scans turned off for the check, so it
        visits every heap page, and a damaged page or a missing file raises), and where
        the ``amcheck`` extension is installed every B-tree index is checked against its
        own invariants (``bt_index_check``). ``ok``, or the corruption PostgreSQL
        reported (SQLSTATE class XX); any other error is raised as it is, since it says
        nothing about the data. It does not verify checksums page by page:
        ``pg_checksums`` (with the server stopped) or ``pg_amcheck`` do that."""

        async def unit(tx: Tx) -> str:
            tables = [
                r[0]
                for r in await tx.fetch(
                    "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n "
                    "ON n.oid = c.relnamespace WHERE c.relkind = 'r' "
                    "AND n.nspname = current_schema() ORDER BY 1"
                )
            ]
            if not tables:
                return "no tables: the schema is missing"
            await tx.execute(
                "SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; "
                "SET LOCAL enable_bitmapscan = off"
            )
            await tx.fetch(" UNION ALL ".join(f"SELECT count(*) FROM {t}" for t in tables))
            amcheck = await tx.fetchrow("SELECT 1 FROM pg_extension WHERE extname = 'amcheck'")
            if amcheck is not None:
                await tx.fetch(
                    "SELECT bt_index_check(c.oid) FROM pg_index i "
                    "JOIN pg_class c ON c.oid = i.indexrelid "
                    "JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE a.amname = 'btree' AND n.nspname = current_schema()"
                )
            return "ok"

        try:
            return await self.write(unit)  # a transaction of its own: SET LOCAL ends with it
        except asyncpg.PostgresError as exc:
            if not (exc.sqlstate or "").startswith("XX"):  # not damage: a permission, say
                raise
            return f"{type(exc).__name__}: {exc}"  # data_corrupted, index_corrupted, ...

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database by ``pg_dump`` in its custom format (one
        snapshot, taken while the bot keeps running; ``pg_restore`` puts it back). Raises
        :class:`StoreFault` saying exactly what to run where ``pg_dump`` is not installed,
        or what it said when it failed."""
        await asyncio.to_thread(dump, self._url, Path(target))


def open_fault(url: str, exc: BaseException) -> StoreFault:
    """What an error met while connecting to ``url`` means, naming the URL without its
    password and the setting to fix."""
    where = redacted(url)
    fix = "fix BRIDGEKEEPER_DB (or --db)"
    if isinstance(exc, asyncpg.InvalidPasswordError):
        why = f"the server refused the password ({exc}): {fix}"
    elif isinstance(exc, asyncpg.InvalidCatalogNameError):
        why = (
            f"the database does not exist ({exc}): create it (createdb, or CREATE DATABASE) "
            f"or {fix}"
        )
    elif isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        why = f"the server refused the connection ({exc}): check the user, or {fix}"
    elif isinstance(exc, OSError | asyncio.TimeoutError | asyncpg.CannotConnectNowError):
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        why = (
            f"the PostgreSQL server cannot be reached ({detail or 'no answer'}): start it, "
            f"or check the host and port, or {fix}"
        )
    else:
        why = f"PostgreSQL says: {type(exc).__name__}: {exc}. Check the server, or {fix}"
    return CannotOpen(f"Cannot open the database {where}: {why}.")
