"""A pool of connections to one PostgreSQL database, and how work reaches it: a write is
one coroutine run inside one transaction on one pooled connection, each statement a trip
to the server (counted in ``round_trips``).

Several bot processes may share the database: every write that depends on a game's
position checks its version in the UPDATE itself, work that is claimed (notices, due
timers) is claimed with ``FOR UPDATE SKIP LOCKED`` and a lease, and a reminder by a
conditional UPDATE, so the row lock decides who gets it.
Timestamps are ``timestamptz`` in the schema and fixed-format ISO strings at the
interface; the pool's codec (:mod:`bot.store.postgres.opening`) is the one place that
converts between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.faults import (
    CannotSave,
    CommitUnknown,
)
from bot.store.interface import Watchers
from bot.store.postgres.dialect import POSTGRES
from bot.store.postgres.listening import hearing
from bot.store.rows import iso, utcnow
from bot.store.shared.base import Base
from bot.store.sql import COUNT, ROW, Duplicate, Many, Statement, Work, body
from bot.store.targets import redacted

T = TypeVar("T")

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
