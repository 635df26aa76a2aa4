"""One SQLite file, one connection, and how work reaches it: a unit of work is one plain
function run in the connection's thread, so a whole transaction is one round trip.

aiosqlite runs a connection in a thread of its own and hands it one call at a time; a
transaction made of awaited statements costs a trip there and back for each (about
60 µs of CPU apiece, ten to twenty-six a move). Here the statements of a unit are a
function of a ``sqlite3.Connection`` that aiosqlite's thread runs whole, through
``Connection._execute``: the one call aiosqlite's own ``execute`` is made of, and the
only private name of aiosqlite used anywhere (it has been there since aiosqlite 0.1).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.faults import CannotOpen, CannotSave, Damaged, SchemaTooNew
from bot.store.interface import Watchers
from bot.store.rows import iso, utcnow
from bot.store.shared.base import Base
from bot.store.sql import Work
from bot.store.sqlite.dialect import SQLITE
from bot.store.sqlite.files import cannot_save, open_fault, primary_code, unreachable
from bot.store.sqlite.migrations import migrations
from bot.store.sqlite.units import (
    T,
    Unit,
    apply_migration,
    commit,
    drive,
    execute,
    fetch_rows,
    in_transaction,
)

#: a file up to this size is checked in full before start-up goes on (about 0.2 s); a
#: larger one just after, in the background (4.6 s at 100,000 games, 380 MiB, idle machine)
CHECK_BEFORE_START = 16 * 2**20
log = logging.getLogger("bot.store")


def _seen(group: asyncio.Future[None]) -> None:
    """Mark a group's failure as seen: its members may all have failed on their own."""
    if not group.cancelled():
        group.exception()


class Connection(Base):
    """The store's connection to its file: reads, writes, schema, checks and backups."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], datetime] = utcnow) -> None:
        self._db = db
        self._clock = clock
        # one connection: units of two transactions must never interleave on it
        self._lock = asyncio.Lock()
        self._writers = 0  # writes queued or running: a lone one commits in its own trip
        self._group: asyncio.Future[None] | None = None  # the open group commit's outcome
        self._committer: asyncio.Task[None] | None = None
        self._checking: asyncio.Task[None] | None = None  # the integrity check after start
        self._checker: aiosqlite.Connection | None = None  # its own read-only connection
        self._damaged: Damaged | None = None  # what that check found: no more writes
        self.round_trips = 0

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], datetime] = utcnow,
        migrate_to: int | None = None,
        busy_s: float = 5.0,
    ) -> Any:
        """Open (creating if needed) the database and bring its schema up to date.

        Raises a :class:`StoreFault` naming what is wrong with the file: a missing folder,
        a lock held by another process and a damaged file each need different advice.
        ``synchronous = FULL`` syncs the WAL at every commit, so an acknowledged move
        survives a power cut too (``NORMAL`` can lose the last commits to one).
        """
        why = unreachable(Path(path))
        if why is not None:  # said before SQLite tries, in words that fit the cause
            raise CannotOpen(f"Cannot open the database {path}: {why}.")
        try:
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise open_fault(path, exc, busy_s) from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_s * 1000)}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA synchronous = FULL")
            store = cls(db, clock)
            await store.migrate(migrate_to, path)
        except CannotSave as exc:
            await db.close()
            raise open_fault(path, exc.__cause__ or exc, busy_s) from exc
        except sqlite3.Error as exc:
            await db.close()
            if primary_code(exc) == sqlite3.SQLITE_ERROR:  # a faulty migration: say it as is
                raise
            raise open_fault(path, exc, busy_s) from exc
        except UnicodeDecodeError as exc:  # SQLite's message quotes a schema gone to garbage
            await db.close()
            raise Damaged(path, f"its schema holds text that is not UTF-8 ({exc.reason})") from exc
        except BaseException:
            # aiosqlite's worker thread is not a daemon: a connection left open on a
            # damaged file keeps the process alive after it has said why it stops
            await db.close()
            raise
        return store

    def hearing(self, watchers: Watchers) -> AbstractAsyncContextManager[None]:
        """Nothing to hear: one process holds the file, and the service tells watchers of
        its own moves (:meth:`bot.store.interface.Store.hearing`)."""
        return nullcontext()

    async def close(self) -> None:
        if self._checking is not None:  # a check still reading a big file stops here
            self._checking.cancel()
            with suppress(asyncio.CancelledError):
                await self._checking
            assert self._checker is not None  # opened before the check began
            await self._checker.close()  # (if the check was stopped before it began)
        async with self._lock:
            await self._commit_group()
        await self._db.close()

    def now(self) -> str:
        return iso(self._clock())

    def clock(self) -> datetime:
        return self._clock()

    # -- trips to the connection's thread ------------------------------------------------

    async def _trip(self, unit: Unit[T], *args: Any) -> T:
        """Run ``unit(connection, *args)`` in the connection's thread: one round trip."""
        self.round_trips += 1
        return await self._db._execute(unit, self._db._conn, *args)

    async def read(self, unit: Unit[T], *args: Any) -> T:
        """Run a reading unit, between transactions, in one trip."""
        async with self._lock:
            return await self._trip(unit, *args)

    async def rows(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return await self.read(fetch_rows, sql, tuple(params))

    async def row(self, sql: str, params: Sequence = ()) -> tuple | None:
        rows = await self.rows(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        """One statement as a transaction of its own; returns how many rows it changed."""
        return await self.write(execute, sql, tuple(params))

    async def write(self, unit: Unit[T], *args: Any) -> T:
        """Run ``unit`` as one all-or-nothing transaction, in one trip, durable on disk
        before the caller goes on: nothing is acknowledged that a power cut could take back.

        Syncing a commit costs a disk flush (milliseconds) and one connection does one at
        a time, so a write with others queued behind it does not commit alone: it runs in
        a savepoint of a group's open ``BEGIN IMMEDIATE``, every write queued meanwhile
        joins that group, and one ``COMMIT`` makes them all durable. A unit that raises
        is rolled back to its savepoint and leaves the rest of its group alone. A full
        disk, an I/O error, a read-only file or a lock held too long raise
        :class:`CannotSave`: the asker hears why, and nothing of the unit is kept. So does
        every write once the file has been found damaged (:meth:`open_checked`).
        """
        if self._damaged is not None:
            raise CannotSave("the database file is damaged; the bot's operator has been told")
        self._writers += 1
        try:
            async with self._lock:
                group = self._group
                alone = group is None and self._writers == 1
                try:
                    result = await self._trip(in_transaction, unit, args, group is None, alone)
                except BaseException as exc:
                    self._unit_failed(exc)
                    if isinstance(exc, sqlite3.Error):
                        raise cannot_save(exc) from exc
                    raise
                if alone:
                    return result
                if group is None:
                    group = self._open_group()
        finally:
            self._writers -= 1
        await asyncio.shield(group)
        return result

    async def _read(self, work: Work[T]) -> T:
        """Neutral statements that read, in one trip (:meth:`read`)."""
        return await self.read(drive, self.dialect, work)

    async def _write(self, work: Work[T]) -> T:
        """Neutral statements as one transaction, in one trip (:meth:`write`)."""
        return await self.write(drive, self.dialect, work)

    @asynccontextmanager
    async def transaction(self, *, snapshot: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """Raw SQL on the connection, as one transaction, for tools and tests that seed or
        tamper with rows as the sqlite3 shell would. A trip per statement: the
        application's own writes are units (:meth:`write`). It always sees one state of
        the file (``snapshot``, as a server's store takes it, asks for nothing more)."""
        async with self._lock:
            await self._commit_group()
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    if self._db.in_transaction:
                        with suppress(sqlite3.Error):  # the error that brought us here says more
                            await self._db.execute("ROLLBACK")
                    raise
                await self._trip(commit)
            except sqlite3.Error as exc:
                raise cannot_save(exc) from exc

    def _open_group(self) -> asyncio.Future[None]:
        """A group begun by the write that just ran, committed once the writes queued
        behind it have joined it (the lock serves its waiters in order)."""
        loop = asyncio.get_running_loop()
        self._group = loop.create_future()
        self._group.add_done_callback(_seen)
        self._committer = loop.create_task(self._commit_when_free())
        return self._group

    async def _commit_when_free(self) -> None:
        async with self._lock:
            await self._commit_group()

    async def _commit_group(self) -> None:
        """COMMIT the open group (the lock held) and tell its members how it went."""
        group, self._group = self._group, None
        if group is None:
            return
        try:
            await self._trip(commit)
        except sqlite3.Error as exc:
            group.set_exception(cannot_save(exc))
        else:
            group.set_result(None)

    def _unit_failed(self, exc: BaseException) -> None:
        """If SQLite rolled the whole group back (it may, on a full disk), the group's
        other members failed too."""
        if self._group is None or self._db.in_transaction:
            return
        group, self._group = self._group, None
        failed = cannot_save(exc)
        group.set_exception(
            failed if isinstance(failed, CannotSave) else CannotSave("the database gave up a write")
        )

    # -- schema --------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        )
        if row is None:
            return 0
        row = await self.row("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
        assert row is not None  # an aggregate's one row
        return int(row[0])

    async def migrate(
        self, target: int | None = None, path: str | Path = "the database"
    ) -> list[int]:
        """Apply every pending migration up to ``target``, each in its own transaction.

        Raises :class:`SchemaTooNew`, changing nothing, when the file records a migration
        above every one shipped here: a newer Bridgekeeper wrote it."""
        async with self._lock:
            await self._trip(
                fetch_rows,
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
                (),
            )
        # every migration not yet recorded, in order: not only those above the highest,
        # so one that lands on main after a higher number still runs
        done = {number for (number,) in await self.rows("SELECT number FROM schema_migrations")}
        shipped = migrations()
        known = max((mig.number for mig in shipped), default=0)
        if done and max(done) > known:
            raise SchemaTooNew(path, max(done), known)
        applied = []
        for mig in shipped:
            if mig.number in done or (target is not None and mig.number > target):
                continue
            await self.write(apply_migration, mig, self.now())
            applied.append(mig.number)
        return applied

    # -- checks and copies ---------------------------------------------------------------

    @classmethod
    async def open_checked(cls, path: str | Path, *, full: bool = False) -> Any:
        """:meth:`open`, then SQLite's integrity check: a damaged file raises
        :class:`Damaged` (the one fault whose advice is to restore) and is left closed.

        The check reads every page: seconds on a big file, so beyond
        :data:`CHECK_BEFORE_START` it runs after the start instead, in the background,
        unless ``full`` asks for it first (a backup must not copy damage). Opening has
        read the header, the schema and the migrations by then. Damage found after the
        start is logged as the same :class:`Damaged` message, and from then on every
        write is refused (:class:`CannotSave`): writing into a damaged file spreads the
        damage, and players are told that nothing can be saved rather than lose moves.
        """
        store = await cls.open(path)
        if not full and Path(path).stat().st_size > CHECK_BEFORE_START:
            uri = f"{Path(path).resolve().as_uri()}?mode=ro"
            try:
                checker = await aiosqlite.connect(uri, uri=True)
            except sqlite3.Error as exc:
                await store.close()
                raise open_fault(path, exc) from exc
            store._checker = checker
            store._checking = asyncio.create_task(store._check_after_start(Path(path), checker))
            return store
        try:
            verdict = await store.integrity()
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
        if verdict != "ok":
            await store.close()
            raise Damaged(path, verdict)
        return store

    async def _check_after_start(self, path: Path, checker: aiosqlite.Connection) -> None:
        """The whole integrity check, on a read-only connection of its own (``checker``):
        it reads one committed state while the store goes on writing, and holds no lock of
        the store's."""
        started = asyncio.get_running_loop().time()
        try:
            rows = await checker.execute_fetchall("PRAGMA integrity_check")
            verdict = "; ".join(str(r[0]) for r in rows)
        except asyncio.CancelledError:
            await checker.interrupt()  # the store is closing: stop reading now
            raise
        except sqlite3.DatabaseError as exc:
            fault = open_fault(path, exc)
            if not isinstance(fault, Damaged):  # locked, unreadable: not a verdict on the file
                log.warning("The integrity check of %s could not run: %s", path, fault)
                return
            verdict = str(exc)
        finally:
            await checker.close()
        if verdict != "ok":
            self._damaged = Damaged(path, verdict)
            log.critical("%s Until then every write is refused.", self._damaged)
            return
        elapsed = asyncio.get_running_loop().time() - started
        log.info("The integrity check of %s after start-up: ok (%.1f s)", path, elapsed)

    async def integrity(self) -> str:
        """SQLite's own check of every page and index: ``ok`` or what is broken."""
        rows = await self.rows("PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database, taken while the bot keeps running.

        SQLite's online backup copies page by page and restarts if a write lands meanwhile,
        so the copy is always one committed state of the store. Raises :class:`CannotOpen`
        when ``target`` cannot be written (a missing folder, say), before copying anything.
        """
        why = unreachable(Path(target), "or choose another file for the backup")
        if why is not None:
            raise CannotOpen(f"Cannot write the backup {target}: {why}.")
        async with self._lock, aiosqlite.connect(str(target)) as copy:
            await self._commit_group()  # a copy of committed states only
            await self._db.backup(copy)
