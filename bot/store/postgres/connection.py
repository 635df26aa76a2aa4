"""A pool of connections to one PostgreSQL database, and how work reaches it: a write is
one coroutine run inside one transaction on one pooled connection, each statement a trip
to the server (counted in ``round_trips``).

Several bot processes may share the database: every write that depends on a game's
position checks its version in the UPDATE itself, work that is claimed (notices, due
timers) is claimed with ``FOR UPDATE SKIP LOCKED`` and a lease, and a reminder by a
conditional UPDATE, so the row lock decides who gets it.
Timestamps are ``timestamptz`` in the schema and fixed-format ISO strings at the
interface; :func:`_timestamp_codec` is the one place that converts between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.dumps import dump
from bot.store.faults import (
    CannotOpen,
    CannotSave,
    CommitUnknown,
    Damaged,
    SchemaTooNew,
    StoreFault,
)
from bot.store.interface import Watchers
from bot.store.migrations import migrations
from bot.store.postgres.dialect import POSTGRES
from bot.store.postgres.listening import hearing
from bot.store.rows import iso, parse_time, utcnow
from bot.store.shared.base import Base
from bot.store.sql import COUNT, ROW, Duplicate, Many, Statement, Work, body
from bot.store.targets import CONNECT_TIMEOUT_S, redacted

T = TypeVar("T")

#: connections one process keeps open: a move holds one for its transaction only
POOL_SIZE = 10
#: how long a statement waits for a row another process holds before giving up (as
#: SQLite's busy timeout): the asker hears that nothing could be saved, not silence
LOCK_TIMEOUT_S = 5.0
#: held while migrating, so processes starting together apply each migration once
_MIGRATION_LOCK = 0x6272_6964_6765  # "bridge"

#: what a lost or refused server looks like to a write: the transaction never committed
_UNREACHABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.TooManyConnectionsError,
)
#: how long a write whose COMMIT went unanswered waits for the server to say whether it
#: committed (a crashed server restarted by its supervisor is back within seconds)
SETTLE_WITHIN = 15.0
_WHY_NOT_SAVED: dict[type[BaseException], str] = {
    asyncpg.DiskFullError: "the database server's disk is full",
    asyncpg.ReadOnlySQLTransactionError: "the database is read-only",
    asyncpg.LockNotAvailableError: "another process is holding the database",
}


def cannot_save(exc: BaseException) -> BaseException:
    """A write's error as :class:`CannotSave` when the server or its disk is to blame, else
    as is (a bug in a statement must surface as one)."""
    if isinstance(exc, _UNREACHABLE):
        return CannotSave("the database server cannot be reached")
    for kind, reason in _WHY_NOT_SAVED.items():
        if isinstance(exc, kind):
            return CannotSave(reason)
    return exc


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


#: a connection to the server: one the pool lends (a proxy passing every call to it), or
#: one opened by itself
Conn = asyncpg.Connection | PoolConnectionProxy


class Tx:
    """One transaction's connection; each statement is a trip to the server, counted."""

    def __init__(self, conn: Conn, store: Connection) -> None:
        self._conn = conn
        self._store = store
        #: the transaction's id, once a statement has read it (a game's version bump
        #: does): a COMMIT that goes unanswered can then be settled (:meth:`Connection.write`)
        self.xid: str | None = None

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        self._store.round_trips += 1
        return await self._conn.fetch(sql, *args)

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        self._store.round_trips += 1
        return await self._conn.fetchrow(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it changed."""
        self._store.round_trips += 1
        status = await self._conn.execute(sql, *args)
        return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0

    async def run(self, statement: Statement) -> Any:
        """One neutral statement (:mod:`bot.store.sql`), as PostgreSQL renders it: one trip
        (none for a :class:`~bot.store.sql.Many` of no rows)."""
        rendered = POSTGRES.render(statement.sql)
        try:
            if isinstance(statement, Many):
                if statement.rows:
                    self._store.round_trips += 1
                    await self._conn.executemany(
                        rendered.text, [rendered.args(row) for row in statement.rows]
                    )
                return None
            args = rendered.args(statement.params)
            if statement.want == COUNT:
                return statement.result(await self.execute(rendered.text, *args))
            rows = await self.fetch(rendered.text, *args)
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate(exc.constraint_name or str(exc)) from exc
        if statement.xid and rows:
            self.xid = rows[0][-1]
        if statement.want == ROW:
            return statement.result(rows[0] if rows else None)
        return statement.result(rows)


async def drive(tx: Tx, work: Work[T]) -> T:
    """Run a body (or one statement) to its end on ``tx``, a trip a statement, sending the
    body what each brought back; its result."""
    steps, sent = body(work), None
    try:
        while True:
            sent = await tx.run(steps.send(sent))
    except StopIteration as done:
        return done.value
    except BaseException:
        steps.close()
        raise


Unit = Callable[..., Awaitable[T]]


class Connection(Base):
    """The store's pool of connections: reads, writes, schema, checks and backups."""

    dialect = POSTGRES

    def __init__(
        self, pool: asyncpg.Pool, url: str, clock: Callable[[], datetime] = utcnow
    ) -> None:
        self._pool = pool
        self._url = url
        self._clock = clock
        self.round_trips = 0

    @property
    def where(self) -> str:
        """The database's URL without its password: safe for messages and logs."""
        return redacted(self._url)

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

    async def close(self) -> None:
        await self._pool.close()

    def hearing(self, watchers: Watchers) -> AbstractAsyncContextManager[None]:
        """Every process's moves, through the server's LISTEN/NOTIFY
        (:mod:`bot.store.postgres.listening`)."""
        return hearing(self._url, watchers)

    def now(self) -> str:
        return iso(self._clock())

    def clock(self) -> datetime:
        return self._clock()

    # -- trips to the server ---------------------------------------------------------------

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[PoolConnectionProxy]:
        """A pooled connection; a server lost, refusing or out of disk raises
        :class:`CannotSave` (a transaction cut short never committed: nothing of it is
        kept), any other error as it is."""
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except Exception as exc:
            failed = cannot_save(exc)
            if failed is exc:
                raise
            raise failed from exc

    async def write(self, unit: Unit[T], *args: Any) -> T:
        """Run ``unit(tx, *args)`` as one all-or-nothing transaction (two trips of its own,
        BEGIN and COMMIT).

        The server lost before COMMIT leaves nothing: :class:`CannotSave`. Lost at COMMIT,
        it leaves the outcome unknown: the server may have committed just before it went.
        Then, if the unit read its transaction's id (every write that bumps a game's
        version does), the server is asked whether it committed (:meth:`_committed`):
        yes, the write returns as stored; no, :class:`CannotSave`; no answer,
        :class:`CommitUnknown`. Never "nothing was done" for a write that may have been.
        """
        async with self._connection() as conn:
            self.round_trips += 2
            tx, ran = Tx(conn, self), False
            try:
                async with conn.transaction():
                    result = await unit(tx, *args)
                    ran = True
            except _UNREACHABLE as exc:
                if not ran:
                    raise
                lost: BaseException = exc
            else:
                return result
        if await self._committed(tx.xid):
            return result
        raise CannotSave("the database server went away") from lost

    async def _committed(self, xid: str | None) -> bool:
        """Whether transaction ``xid``, whose COMMIT went unanswered, committed: the
        server's own record (``pg_xact_status``), asked again and again while the server
        comes back (or while the lost connection's backend finishes the COMMIT), for
        :data:`SETTLE_WITHIN` seconds at most. :class:`CommitUnknown` if it cannot be
        told: no id was read, or no answer came."""
        pause = 0.1
        try:
            async with asyncio.timeout(SETTLE_WITHIN):
                while xid is not None:
                    try:
                        row = await self.row("SELECT pg_xact_status($1::text::xid8)", (xid,))
                        assert row is not None  # a SELECT without FROM: one row
                        status = row[0]
                    except CannotSave:  # not back yet
                        status = "unreachable"
                    except asyncpg.InvalidParameterValueError:  # "in the future": the server
                        return False  # restarted without a record of it, a commit's included
                    if status in ("committed", "aborted"):
                        return status == "committed"
                    if status is None:  # too old to be told: never, seconds after
                        break
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 1.0)
        except TimeoutError:
            pass
        raise CommitUnknown()

    @asynccontextmanager
    async def transaction(self, *, snapshot: bool = False) -> AsyncIterator[PoolConnectionProxy]:
        """Raw SQL on one pooled connection, as one transaction, for tools that copy whole
        tables (``python -m bot migrate-store``); the application's own writes are units
        (:meth:`write`). ``snapshot``: a read-only transaction that sees one committed
        state of the database throughout (repeatable read)."""
        async with (
            self._connection() as conn,
            conn.transaction(
                isolation="repeatable_read" if snapshot else "read_committed", readonly=snapshot
            ),
        ):
            yield conn

    async def read(self, unit: Unit[T], *args: Any) -> T:
        """Run ``unit(tx, *args)`` on a pooled connection, outside any transaction: reads,
        and single statements (each commits by itself)."""
        async with self._connection() as conn:
            return await unit(Tx(conn, self), *args)

    async def _read(self, work: Work[T]) -> T:
        """Neutral statements outside any transaction, a trip each."""
        return await self.read(drive, work)

    async def _write(self, work: Work[T]) -> T:
        """Neutral statements as one transaction (:meth:`write`); a lone statement commits
        by itself, in its one trip."""
        if isinstance(work, Statement):
            return await self._read(work)
        return await self.write(drive, work)

    async def rows(self, sql: str, params: Sequence = ()) -> list[asyncpg.Record]:
        async def unit(tx: Tx) -> list[asyncpg.Record]:
            return await tx.fetch(sql, *params)

        return await self.read(unit)

    async def row(self, sql: str, params: Sequence = ()) -> asyncpg.Record | None:
        rows = await self.rows(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        """One statement as a transaction of its own; how many rows it changed."""

        async def unit(tx: Tx) -> int:
            return await tx.execute(sql, *params)

        return await self.read(unit)

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
