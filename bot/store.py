"""The SQLite store: games, seats, the move log and settings, behind one small class.

One aiosqlite connection per store, WAL, foreign keys on. Every write happens inside
:meth:`Store.transaction`, and a move's log row and the new cached state are written
in the *same* transaction, guarded by the game's version so two writers (two clicks,
two processes) cannot both win. A later PostgreSQL store would offer the same methods.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.clocks import Clocks, Wait, next_due
from bot.ratings import Rating, rate

_MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")
MAX_ATTEMPTS = 3  # tries per way of delivering a notice; then a DM falls back to the channel
RETRY_AFTER = timedelta(minutes=5)  # times the attempts so far
CLAIM_LEASE = timedelta(minutes=10)  # a claim older than this died with its process
#: a file up to this size is checked in full before start-up goes on (about 0.2 s); a
#: larger one just after, in the background (4.6 s at 100,000 games, 380 MiB, idle machine)
CHECK_BEFORE_START = 16 * 2**20
log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """Timestamps are stored as one fixed format, so they compare correctly as text."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The numbered SQL files shipped in ``migrations/``, in order."""
    found = []
    for entry in resources.files("migrations").iterdir():
        m = _MIGRATION_NAME.fullmatch(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found, key=lambda mig: mig.number)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    status: str
    options: dict
    seed: int
    state: str | None
    version: int
    creator_id: int
    created_at: str
    updated_at: str
    status_message_id: int | None = None  # the channel's pinned status of this game


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    awaiting: bool
    place: int | None
    score: int | None
    deadline: str | None = None


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    user_id: int
    kind: str
    action: str
    created_at: str


@dataclass(frozen=True)
class UndoRequest:
    user_id: int
    moves: int
    version: int
    agreed: frozenset[int]


@dataclass(frozen=True)
class Awaiting:
    """A game that waits for one user, for "my turns"."""

    game_id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    since: str


@dataclass(frozen=True)
class Notice:
    """A message to deliver: in the game's channel with a mention, or as a DM."""

    id: int
    game_id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    via: str
    kind: str
    text: str
    turn_since: str | None  # the wait it belongs to: a reminder's Snooze button names it
    attempts: int  # delivery attempts so far, this one included


@dataclass(frozen=True)
class Settings:
    notify: str = "channel"  # channel, dm, both, off
    timezone: str = "UTC"
    quiet_start: int | None = None  # hour of day, local time
    quiet_end: int | None = None
    vacation_days: float = 14.0
    vacation_until: str | None = None


@dataclass(frozen=True)
class LeagueRow:
    guild_id: int
    channel_id: int
    name: str
    game_key: str
    format: str
    table_size: int
    rounds: int | None
    points: tuple[int, ...]
    bye_points: int | None
    round_hours: float
    move_hours: float | None
    seed: int
    created_by: int
    id: int = 0
    status: str = "open"
    round: int = 0
    round_deadline: str | None = None
    starts_at: str | None = None


_LEAGUE_COLUMNS = (
    "guild_id, channel_id, name, game_key, format, table_size, rounds, points, bye_points, "
    "round_hours, move_hours, seed, created_by, id, status, round, round_deadline, starts_at"
)


def _league(row: aiosqlite.Row | None) -> LeagueRow | None:
    if row is None:
        return None
    values = list(row)
    values[7] = tuple(json.loads(values[7]))
    return LeagueRow(*values)


@dataclass(frozen=True)
class Member:
    user_id: int
    name: str
    dropped: bool


@dataclass(frozen=True)
class Match:
    """One table (or bye) of a league round, and once settled its outcome."""

    id: int
    round: int
    kind: str
    players: tuple[int, ...]
    game_id: int | None
    places: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    forfeiting: tuple[int, ...]
    settled: bool
    game_status: str | None
    channel_id: int | None


@dataclass(frozen=True)
class Entry:
    """One user's attempt at one day's challenge, with its game's state of play."""

    day: str
    user_id: int
    name: str
    guild_id: int | None
    game_id: int
    status: str  # playing, won, tied, lost
    total: int | None
    euler: int | None
    game_status: str
    channel_id: int
    share_pending: bool = False  # settled, its share line not posted yet

    @property
    def margin(self) -> int:
        return (self.total or 0) - (self.euler or 0)


@dataclass(frozen=True)
class Attempt:
    """How a game against the rulebook's opponent ended: won, tied or lost, and the
    totals, as the daily challenge records it."""

    status: str
    total: int
    euler: int


class StaleGame(Exception):
    """The game changed after it was read: the write was not made."""


def _unique_failed(error: aiosqlite.IntegrityError, columns: str) -> bool:
    """Whether ``error`` is the UNIQUE constraint on exactly ``columns`` failing.

    Only that one means "already exists"; any other integrity error (a NOT NULL column
    given a NaN, which SQLite stores as NULL, say) is a bug and must surface as one.
    """
    return str(error) == f"UNIQUE constraint failed: {columns}"


class CannotSave(Exception):
    """A write failed for a reason outside the game (disk full, I/O error, read-only file,
    another program holding the database): the transaction was rolled back, so nothing is
    half-written. ``str()`` is the sentence to show the asker, privately; the game plays on
    once the cause is gone."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(
            f"I can't save anything right now ({reason}), so nothing you asked for was done; "
            "please try again later."
        )


#: SQLite's primary result codes that mean "the disk or the file", not "this request"
_WHY_NOT_SAVED = {
    sqlite3.SQLITE_FULL: "the server's disk is full",
    sqlite3.SQLITE_IOERR: "the server's disk reported an error",
    sqlite3.SQLITE_READONLY: "the database has become read-only",
    sqlite3.SQLITE_BUSY: "another program is holding the database",
    sqlite3.SQLITE_LOCKED: "another program is holding the database",
}


def _primary_code(exc: BaseException | None) -> int | None:
    """SQLite's primary result code of an error (extended codes carry it in the low byte)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _cannot_save(exc: BaseException) -> BaseException:
    """A write's error as :class:`CannotSave` when the disk or file is to blame, else as is."""
    reason = _WHY_NOT_SAVED.get(_primary_code(exc) or 0)
    return exc if reason is None else CannotSave(reason)


def _seen(group: asyncio.Future[None]) -> None:
    """Mark a group's failure as seen: its members may all have failed on their own."""
    if not group.cancelled():
        group.exception()


class StoreFault(Exception):
    """The database file cannot be used; ``str()`` names the file, the fault and the advice
    that fits that fault (a locked or unreachable file must never be "restored" over)."""


class CannotOpen(StoreFault):
    """The file cannot be reached or written: a missing folder, a read-only place, a folder
    where the file should be, or a file that is not SQLite at all."""


class Locked(StoreFault):
    """Another process held the database longer than the busy timeout."""


class Damaged(StoreFault):
    """SQLite reads the file but finds it corrupt: only here is restoring a backup right."""

    def __init__(self, path: str | Path, detail: str) -> None:
        detail = " ".join(detail.split())[:200]  # SQLite reports one problem a line
        super().__init__(
            f"{path} failed SQLite's integrity check ({detail}). Restore a backup: "
            f"python -m bot restore BACKUP --db {path} --force"
        )


class SchemaTooNew(StoreFault):
    """The file was migrated by a newer Bridgekeeper: writing to it with this one would put
    rows the newer schema does not expect."""

    def __init__(self, path: str | Path, found: int, known: int) -> None:
        super().__init__(
            f"{path} has schema version {found}, but this Bridgekeeper knows migrations only "
            f"up to {known}: a newer Bridgekeeper wrote it. Run that newer version, or restore "
            f"a backup made by this one (python -m bot restore BACKUP --db {path} --force). "
            "Nothing was changed."
        )


class InUse(StoreFault):
    """Another Bridgekeeper process already runs on this database file."""


_SQLITE_MAGIC = b"SQLite format 3\x00"
_ELSEWHERE = "or point BRIDGEKEEPER_DB (or --db) at another file"


def _unreachable(path: Path) -> str | None:
    """Why the file or its folder cannot be used, from what the file system says."""
    parent = path.parent
    if not parent.exists():
        return f"its folder {parent} does not exist: create it (mkdir -p {parent}) {_ELSEWHERE}"
    if not parent.is_dir():
        return f"{parent} is a file, not a folder: {_ELSEWHERE.removeprefix('or ')}"
    if path.is_dir():
        return f"it is a folder, not a database file: {_ELSEWHERE.removeprefix('or ')}"
    if not os.access(path if path.exists() else parent, os.R_OK | os.W_OK):
        return (
            "it cannot be written here (no permission, or a read-only mount): fix the "
            f"permissions or the mount, {_ELSEWHERE}"
        )
    return None


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    except OSError:
        return False


def open_fault(path: str | Path, exc: BaseException, busy_s: float = 5.0) -> StoreFault:
    """What an error met while opening ``path`` means, as the fault with the right advice."""
    path = Path(path)
    code = _primary_code(exc)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return Locked(
            f"{path} is locked by another process (it held the database for more than "
            f"{busy_s:g} s): stop the other process using it (another bot, a sqlite3 shell, "
            "a restore) and start again. The file itself is fine; do not restore over it."
        )
    if code == sqlite3.SQLITE_CORRUPT or (code == sqlite3.SQLITE_NOTADB and _is_sqlite(path)):
        return Damaged(path, str(exc))
    if code == sqlite3.SQLITE_NOTADB:
        return CannotOpen(
            f"{path} is not a SQLite database: point BRIDGEKEEPER_DB (or --db) at the bot's "
            "database file. Only if this file was it (and has been overwritten) restore a "
            "backup over it: python -m bot restore BACKUP --force"
        )
    why = _unreachable(path)
    if why is None and code == sqlite3.SQLITE_READONLY:
        why = f"it is read-only: fix its permissions or mount, {_ELSEWHERE}"
    if why is None and code in _WHY_NOT_SAVED:
        why = f"{_WHY_NOT_SAVED[code]}: free space or fix the disk, then start again"
    if why is None:
        why = f"SQLite says: {exc}. Check the path and its permissions, {_ELSEWHERE}"
    return CannotOpen(f"Cannot open the database {path}: {why}.")


@contextmanager
def sole_process(db_path: str | Path) -> Iterator[None]:
    """Hold ``<db>.lock`` exclusively while the block runs, or raise :class:`InUse`.

    Two bots on one file would both run the timers (every reminder twice, a deadline
    forfeited twice over) and a restore under a running bot would swap the file beneath it.
    ``flock`` is released by the kernel when the process dies, so a killed bot leaves no
    stale lock; the file itself stays (removing it would let a third process lock a new one).
    """
    lock_path = Path(f"{db_path}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise CannotOpen(
            f"Cannot create the lock file {lock_path}: "
            f"{_unreachable(Path(db_path)) or exc.strerror}."
        ) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise InUse(
                f"Another Bridgekeeper process (pid {holder}) is using {db_path}: stop it "
                "first. Only one bot may run on a database file unless the deployment is "
                "sharded (BRIDGEKEEPER_SHARDED=1)."
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


_GAME_COLUMNS = (
    "id, guild_id, channel_id, game_key, status, options, seed, state, version, "
    "creator_id, created_at, updated_at, status_message_id"
)

_SEAT_COLUMNS = "seat, user_id, name, awaiting, place, score, deadline"

#: a game and its seats, one row per seat (one with no seat columns for a seatless game)
_SEATED = "SELECT {}, {} FROM games g LEFT JOIN seats s ON s.game_id = g.id".format(
    ", ".join(f"g.{c}" for c in _GAME_COLUMNS.split(", ")),
    ", ".join(f"s.{c}" for c in _SEAT_COLUMNS.split(", ")),
)
_GAME_WIDTH = len(_GAME_COLUMNS.split(", "))

#: the statuses of the game a channel is playing: at most one, by a unique index
_LIVE = "('lobby', 'active')"


def _seat(row: Sequence) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6])


#: every column a :class:`Wait` is made of, for one seat and its game, and their tables
_WAIT_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.game_key, g.version, s.seat, s.user_id, "
    "s.name, s.turn_since, s.deadline, s.reminders, s.snoozed, s.warned, "
    "g.move_hours, g.deadline_policy, g.remind_hours, g.reminder_limit, "
    "g.reaction_hours, u.vacation_until, s.reacting"
)
_WAIT_TABLES = (
    "seats s JOIN games g ON g.id = s.game_id LEFT JOIN user_settings u ON u.user_id = s.user_id"
)


def _wait(row: Sequence) -> Wait:
    return Wait(
        *row[:11], bool(row[11]), bool(row[12]), Clocks(*row[13:18]), row[18], bool(row[19])
    )


def _due_at(wait: Wait) -> str | None:
    moment = next_due(wait)
    return None if moment is None else iso(moment)


async def _first(db: aiosqlite.Connection, sql: str, params: Iterable = ()) -> aiosqlite.Row | None:
    """The first row ``sql`` gives, in one trip to aiosqlite's thread: a cursor's execute,
    fetch and close would be three, and each trip costs about 60 µs of CPU."""
    rows = await db.execute_fetchall(sql, tuple(params))
    return rows[0] if rows else None


def _game(row: Sequence | None) -> GameRow | None:
    if row is None:
        return None
    values = list(row)
    values[5] = json.loads(values[5])
    return GameRow(*values)


class Store:
    """All the project's SQL lives here."""

    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], datetime] = utcnow) -> None:
        self._db = db
        self._clock = clock
        # one connection: statements of two transactions must never interleave on it
        self._lock = asyncio.Lock()
        self._group: asyncio.Future[None] | None = None  # the open group commit's outcome
        self._committer: asyncio.Task[None] | None = None
        self._checking: asyncio.Task[None] | None = None  # the integrity check after start
        self._checker: aiosqlite.Connection | None = None  # its own read-only connection
        self._damaged: Damaged | None = None  # what that check found: no more writes

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], datetime] = utcnow,
        migrate_to: int | None = None,
        busy_s: float = 5.0,
    ) -> Store:
        """Open (creating if needed) the database and bring its schema up to date.

        Raises a :class:`StoreFault` naming what is wrong with the file: a missing folder,
        a lock held by another process and a damaged file each need different advice.
        ``synchronous = FULL`` syncs the WAL at every commit, so an acknowledged move
        survives a power cut too (``NORMAL`` can lose the last commits to one).
        """
        why = _unreachable(Path(path))
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
            if _primary_code(exc) == sqlite3.SQLITE_ERROR:  # a faulty migration: say it as is
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

    async def close(self) -> None:
        if self._checking is not None:  # a check still reading a big file stops here
            self._checking.cancel()
            with suppress(asyncio.CancelledError):
                await self._checking
            await self._checker.close()  # (if the check was stopped before it began)
        async with self._lock:
            await self._commit_group()
        await self._db.close()

    def now(self) -> str:
        return iso(self._clock())

    def clock(self) -> datetime:
        return self._clock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One all-or-nothing unit of writes, durable on disk before the block's caller
        goes on: nothing is acknowledged that a power cut could take back.

        Syncing every commit costs a disk flush (milliseconds), and one connection does
        one at a time, so transactions are committed in groups: each runs in a savepoint
        of the group's open ``BEGIN IMMEDIATE``, and every one queued while a flush runs
        joins the next group, which one ``COMMIT`` makes durable. A block that raises is
        rolled back to its savepoint and leaves the rest of its group alone. A full
        disk, an I/O error, a read-only file or a lock held too long raise
        :class:`CannotSave`: the asker hears why, and nothing of the block is kept. So
        does every write once the file has been found damaged (:meth:`open_checked`).
        """
        if self._damaged is not None:
            raise CannotSave("the database file is damaged; the bot's operator has been told")
        async with self._lock:
            group = await self._join_group()
            await self._db.execute("SAVEPOINT unit")
            try:
                yield self._db
                await self._db.execute("RELEASE unit")
            except BaseException as exc:
                await self._undo_unit(exc)
                if isinstance(exc, sqlite3.Error):
                    raise _cannot_save(exc) from exc
                raise
        await asyncio.shield(group)

    async def _join_group(self) -> asyncio.Future[None]:
        """The open group, or a new one whose commit waits for the lock behind the
        transactions queued so far (the lock serves its waiters in order)."""
        if self._group is None:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _cannot_save(exc) from exc
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
            await self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            await self._rollback()
            group.set_exception(_cannot_save(exc))
        else:
            group.set_result(None)

    async def _undo_unit(self, exc: BaseException) -> None:
        """Roll one failed block back to its savepoint. If SQLite has rolled the whole
        group back (it may, on a full disk), the group's other members failed too."""
        if self._db.in_transaction:
            with suppress(sqlite3.Error):  # the error that brought us here says more
                await self._db.execute("ROLLBACK TO unit")
                await self._db.execute("RELEASE unit")
            return
        group, self._group = self._group, None
        if group is not None:
            failed = _cannot_save(exc)
            group.set_exception(
                failed
                if isinstance(failed, CannotSave)
                else CannotSave("the database gave up a write")
            )

    async def _rollback(self) -> None:
        """Undo the open transaction, if SQLite has not already (it may, on a full disk)."""
        if self._db.in_transaction:
            with suppress(sqlite3.Error):  # the error that brought us here says more
                await self._db.execute("ROLLBACK")

    async def _fetchall(self, sql: str, params: Iterable = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def _fetchone(self, sql: str, params: Iterable = ()) -> aiosqlite.Row | None:
        async with self._lock:
            return await _first(self._db, sql, params)

    # -- schema -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self._fetchone(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        )
        if row is None:
            return 0
        row = await self._fetchone("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
        return int(row[0])

    async def migrate(
        self, target: int | None = None, path: str | Path = "the database"
    ) -> list[int]:
        """Apply every pending migration up to ``target``, each in its own transaction.

        Raises :class:`SchemaTooNew`, changing nothing, when the file records a migration
        above every one shipped here: a newer Bridgekeeper wrote it."""
        async with self._lock:
            await self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        # every migration not yet recorded, in order: not only those above the highest,
        # so one that lands on main after a higher number still runs
        done = {
            number for (number,) in await self._fetchall("SELECT number FROM schema_migrations")
        }
        shipped = migrations()
        known = max((mig.number for mig in shipped), default=0)
        if done and max(done) > known:
            raise SchemaTooNew(path, max(done), known)
        applied = []
        for mig in shipped:
            if mig.number in done or (target is not None and mig.number > target):
                continue
            async with self.transaction() as db:
                for statement in _statements(mig.sql):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                    (mig.number, mig.name, self.now()),
                )
            applied.append(mig.number)
        return applied

    @classmethod
    async def open_checked(cls, path: str | Path, *, full: bool = False) -> Store:
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
                store._checker = await aiosqlite.connect(uri, uri=True)
            except sqlite3.Error as exc:
                await store.close()
                raise open_fault(path, exc) from exc
            store._checking = asyncio.create_task(store._check_after_start(Path(path)))
            return store
        try:
            verdict = await store.integrity()
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
        if verdict != "ok":
            await store.close()
            raise Damaged(path, verdict)
        return store

    async def _check_after_start(self, path: Path) -> None:
        """The whole integrity check, on a read-only connection of its own: it reads one
        committed state while the store goes on writing, and holds no lock of the store's."""
        started = asyncio.get_running_loop().time()
        checker = self._checker
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
        rows = await self._fetchall("PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the live database, taken while the bot keeps running.

        SQLite's online backup copies page by page and restarts if a write lands meanwhile,
        so the copy is always one committed state of the store. Raises :class:`CannotOpen`
        when ``target`` cannot be written (a missing folder, say), before copying anything.
        """
        why = _unreachable(Path(target))
        if why is not None:
            raise CannotOpen(f"Cannot write the backup {target}: {why}.")
        async with self._lock, aiosqlite.connect(str(target)) as copy:
            await self._commit_group()  # a copy of committed states only
            await self._db.backup(copy)

    # -- games --------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        creator_id: int,
        creator_name: str,
        clocks: Clocks | None = None,
        rated: bool = True,
    ) -> int:
        """A new game in the lobby, its creator in seat 0.

        Raises :class:`StaleGame` if the channel already has a live game.
        """
        now = self.now()
        try:
            async with self.transaction() as db:
                clocks = clocks or Clocks()
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, "
                    "creator_id, created_at, updated_at, move_hours, deadline_policy, "
                    "remind_hours, reminder_limit, reaction_hours, rated) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_key, json.dumps(options), seed, creator_id)
                    + (now, now, clocks.move_hours, clocks.policy, clocks.remind_hours)
                    + (clocks.reminder_limit, clocks.reaction_hours, int(rated)),
                )
                game_id = cur.lastrowid
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, creator_id, creator_name),
                )
        except aiosqlite.IntegrityError as exc:
            if not _unique_failed(exc, "games.channel_id"):
                raise
            raise StaleGame("this channel already has a live game") from exc
        return int(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        return _game(
            await self._fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        )

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in a channel, if any."""
        return _game(
            await self._fetchone(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN {_LIVE}",
                (channel_id,),
            )
        )

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game in a channel, finished or not (for boards and history)."""
        return _game(
            await self._fetchone(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
        )

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetchall(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def seated_game(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one query: every click loads one, and a trip to the
        database's thread costs more CPU than the query."""
        return await self._seated("g.id = ?", game_id)

    async def seated_live_game(self, channel_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """:meth:`live_game` and its seats, in one query."""
        return await self._seated(f"g.channel_id = ? AND g.status IN {_LIVE}", channel_id)

    async def _seated(self, where: str, key: int) -> tuple[GameRow, list[SeatRow]] | None:
        rows = await self._fetchall(f"{_SEATED} WHERE {where} ORDER BY s.seat", (key,))
        if not rows:
            return None
        game = _game(rows[0][:_GAME_WIDTH])
        assert game is not None
        return game, [_seat(r[_GAME_WIDTH:]) for r in rows if r[_GAME_WIDTH] is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._fetchall(
            "SELECT seq, seat, user_id, kind, action, created_at FROM moves "
            "WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [MoveRow(*r) for r in rows]

    async def count_games(self) -> int:
        row = await self._fetchone("SELECT COUNT(*) FROM games")
        return int(row[0])

    async def _bump(
        self, db: aiosqlite.Connection, game_id: int, version: int, **columns
    ) -> tuple[float | None, float | None]:
        """Set columns and bump the version, only if nobody else did first. Returns the
        game's time per move and per reaction, which a new turn's deadline needs."""
        sets = "".join(f", {name} = ?" for name in columns)
        hours = await _first(
            db,
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} "
            "WHERE id = ? AND version = ? RETURNING move_hours, reaction_hours",
            (self.now(), *columns.values(), game_id, version),
        )
        if hours is None:
            raise StaleGame(f"game {game_id} moved on from version {version}")
        return hours[0], hours[1]

    async def join(self, game_id: int, version: int, user_id: int, name: str) -> None:
        async with self.transaction() as db:
            await self._bump(db, game_id, version)
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES "
                "(?, (SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?), ?, ?)",
                (game_id, game_id, user_id, name),
            )

    async def leave(self, game_id: int, version: int, user_id: int) -> None:
        """Remove a lobby seat; later seats move up so seat numbers stay 0..n-1."""
        async with self.transaction() as db:
            await self._bump(db, game_id, version)
            (seat,) = await _first(
                db,
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? RETURNING seat",
                (game_id, user_id),
            )
            # shift one by one, upwards, so (game, seat) stays unique at every step
            later = await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                (game_id, seat),
            )
            for (s,) in later:
                await db.execute(
                    "UPDATE seats SET seat = seat - 1 WHERE game_id = ? AND seat = ?", (game_id, s)
                )

    async def start(self, game_id: int, version: int, state: str, awaiting: Iterable[int]) -> None:
        async with self.transaction() as db:
            hours = await self._bump(db, game_id, version, status="active", state=state)
            await self._set_awaiting(db, game_id, hours, awaiting)

    async def record(
        self,
        game_id: int,
        version: int,
        *,
        seat: int,
        user_id: int,
        action: str,
        state: str,
        awaiting: Iterable[int],
        kind: str = "move",
        results: list[tuple[int, int]] | None = None,
        reacting: bool = False,
        attempt: Attempt | None = None,
    ) -> int:
        """Append one log entry and store the state it leads to, atomically.

        ``results`` (place, score per seat) finishes the game, and ``attempt`` settles the
        daily attempt played in it, if there is one: with the move, never a tick later.
        Returns the entry's seq. Raises :class:`StaleGame` if the game is no longer at
        ``version``.
        """
        async with self.transaction() as db:
            hours = await self._bump(
                db, game_id, version, state=state, status="finished" if results else "active"
            )
            (seq,) = await _first(
                db,
                "INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
                "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), "
                "?, ?, ?, ?, ?) RETURNING seq",
                (game_id, game_id, seat, user_id, kind, action, self.now()),
            )
            await self._set_awaiting(db, game_id, hours, awaiting, mover=seat, reacting=reacting)
            await db.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            for s, (place, score) in enumerate(results or ()):
                await db.execute(
                    "UPDATE seats SET place = ?, score = ? WHERE game_id = ? AND seat = ?",
                    (place, score, game_id, s),
                )
            if results:
                await db.execute(
                    "UPDATE games SET finished_at = ? WHERE id = ?", (self.now(), game_id)
                )
                await self._rate(db, game_id)
            if attempt is not None:
                await self._settle_attempt(db, game_id, attempt)
        return int(seq)

    async def _settle_attempt(
        self, db: aiosqlite.Connection, game_id: int, attempt: Attempt
    ) -> None:
        """Record how the daily attempt played in ``game_id`` ended (if it is one), its
        share line still to post."""
        await db.execute(
            "UPDATE daily_entries SET status = ?, total = ?, euler = ?, finished_at = ?, "
            "share_pending = 1 WHERE game_id = ? AND status = 'playing'",
            (attempt.status, attempt.total, attempt.euler, self.now(), game_id),
        )

    async def _rate(self, db: aiosqlite.Connection, game_id: int) -> None:
        """Update the players' ratings from a rated game's places, in its last transaction."""
        game = await _first(
            db, "SELECT guild_id, game_key, rated FROM games WHERE id = ?", (game_id,)
        )
        guild, key, rated = game[0] or 0, game[1], game[2]
        seats = await db.execute_fetchall(
            "SELECT user_id, name, place FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        if not rated or len(seats) < 2:  # casual games, and solo games against Euler
            return
        await db.execute(  # the rebuild replays games in exactly this order
            "UPDATE games SET rating_seq = "
            "(SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games) WHERE id = ?",
            (game_id,),
        )
        before = []
        for user_id, _name, _place in seats:
            row = await _first(
                db,
                "SELECT mu, sigma, games FROM ratings "
                "WHERE guild_id = ? AND game_key = ? AND user_id = ?",
                (guild, key, user_id),
            )
            before.append(Rating(*row) if row else Rating())
        after = rate(before, [place for _u, _n, place in seats])
        await db.executemany(
            "INSERT OR REPLACE INTO ratings "
            "(guild_id, game_key, user_id, name, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (guild, key, user_id, name, r.mu, r.sigma, r.games, self.now())
                for (user_id, name, _place), r in zip(seats, after, strict=True)
            ],
        )

    async def ratings(self, guild_id: int | None, game_key: str) -> list[tuple[int, str, Rating]]:
        """A server's ratings for one game, best shown rating first."""
        rows = await self._fetchall(
            "SELECT user_id, name, mu, sigma, games FROM ratings "
            "WHERE guild_id = ? AND game_key = ? ORDER BY mu - 3 * sigma DESC, user_id",
            (guild_id or 0, game_key),
        )
        return [(r[0], r[1], Rating(r[2], r[3], r[4])) for r in rows]

    async def rebuild_ratings(self) -> tuple[int, bool]:
        """Recompute every rating from the stored results, in the order they were rated.

        Returns the number of games replayed and whether the result equals what was
        stored, to the last bit; the recomputed ratings replace the stored ones.
        """
        async with self.transaction() as db:
            games = await db.execute_fetchall(
                "SELECT id, guild_id, game_key FROM games WHERE status = 'finished' AND rated = 1 "
                "AND rating_seq IS NOT NULL ORDER BY rating_seq"
            )
            table: dict[tuple[int, str, int], tuple[str, Rating]] = {}
            replayed = 0
            for game_id, guild, key in games:
                seats = await db.execute_fetchall(
                    "SELECT user_id, name, place FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
                if len(seats) < 2:
                    continue
                keys = [(guild or 0, key, user_id) for user_id, _n, _p in seats]
                before = [table.get(k, ("", Rating()))[1] for k in keys]
                after = rate(before, [place for _u, _n, place in seats])
                for k, (_u, name, _p), r in zip(keys, seats, after, strict=True):
                    table[k] = (name, r)
                replayed += 1
            stored = {
                (g, k, u): Rating(mu, sigma, n)
                for g, k, u, mu, sigma, n in await db.execute_fetchall(
                    "SELECT guild_id, game_key, user_id, mu, sigma, games FROM ratings"
                )
            }
            same = stored == {k: r for k, (_name, r) in table.items()}
            await db.execute("DELETE FROM ratings")
            await db.executemany(
                "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(*k, name, r.mu, r.sigma, r.games, self.now()) for k, (name, r) in table.items()],
            )
        return replayed, same

    async def _set_awaiting(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        hours: tuple[float | None, float | None],
        seats: Iterable[int],
        mover: int | None = None,
        reacting: bool = False,
    ) -> None:
        """Mark who the game waits for, and start their turn timers.

        A seat that starts waiting gets a fresh wait (since now, deadline from the game's
        time per move, no reminders sent); a seat that keeps waiting keeps its deadline,
        but acting (``mover``) restarts its reminder clock. Same transaction as the move.
        A player on vacation gets the whole time per move from their return, and the seat
        remembers that part as vacation, so coming back early takes back only that. Every
        seat's next due time follows, as the game's status (finished, abandoned) has it.
        ``hours`` is the game's (per move, per reaction), as :meth:`_bump` returns them.
        """
        now = self._clock()
        awaited = sorted(set(seats))
        marks = ",".join("?" * len(awaited))
        await db.execute(
            "UPDATE seats SET awaiting = 0, turn_since = NULL, deadline = NULL, reacting = 0, "
            f"paused_hours = 0, extended_hours = 0 WHERE game_id = ? AND seat NOT IN ({marks})",
            (game_id, *awaited),
        )
        per_move, per_reaction = hours
        hours = per_reaction if reacting else per_move
        away = dict(
            await db.execute_fetchall(
                "SELECT s.seat, u.vacation_until FROM seats s "
                "JOIN user_settings u ON u.user_id = s.user_id "
                f"WHERE s.game_id = ? AND s.seat IN ({marks}) AND u.vacation_until > ?",
                (game_id, *awaited, iso(now)),
            )
        )
        fresh = []
        for seat in awaited:
            start = parse_time(away[seat]) if seat in away else now
            deadline = None if hours is None else iso(start + timedelta(hours=hours))
            paused = 0.0 if hours is None else (start - now) / timedelta(hours=1)
            fresh.append((iso(now), deadline, paused, int(reacting), game_id, seat))
        await db.executemany(
            "UPDATE seats SET awaiting = 1, turn_since = ?, deadline = ?, paused_hours = ?, "
            "reminders = 0, snoozed = 0, warned = 0, reacting = ?, extended_hours = 0 "
            "WHERE game_id = ? AND seat = ? AND awaiting = 0",
            fresh,
        )
        if mover in awaited:
            await db.execute(
                "UPDATE seats SET turn_since = ?, reminders = 0 WHERE game_id = ? AND seat = ?",
                (iso(now), game_id, mover),
            )
        await self._reschedule(db, "s.game_id = ?", game_id)

    async def clocks(self, game_id: int) -> Clocks:
        row = await self._fetchone(
            "SELECT move_hours, deadline_policy, remind_hours, reminder_limit, reaction_hours "
            "FROM games "
            "WHERE id = ?",
            (game_id,),
        )
        return Clocks(*row)

    async def due_waits(self, now: datetime) -> list[Wait]:
        """The waits of active games due by ``now``: the scheduler's input each minute.

        Read through the ``seats_due`` index, so a tick costs what is due, however many
        games are stored; every write that changes what decides a due time stores the new
        one in the same transaction (:meth:`_reschedule`)."""
        rows = await self._fetchall(
            f"SELECT {_WAIT_COLUMNS} FROM {_WAIT_TABLES} WHERE s.due_at <= ? "
            "AND s.awaiting = 1 AND g.status = 'active' ORDER BY g.id, s.seat",
            (iso(now),),
        )
        return [_wait(r) for r in rows]

    async def reschedule(self, waits: Iterable[Wait]) -> None:
        """Store afresh when these waits are next due: the tick found nothing due in them
        (a wait running when migration 12 came, which it marks as due at once, or one a
        write left due too early, which costs this read and nothing else)."""
        async with self.transaction() as db:
            for wait in waits:
                await self._reschedule(db, "s.game_id = ? AND s.seat = ?", wait.game_id, wait.seat)

    async def _reschedule(self, db: aiosqlite.Connection, where: str, *params: object) -> None:
        """Store when each seat matching ``where`` is next due (NULL: a seat no active game
        waits for), inside the caller's transaction. Every write that changes a wait or a
        player's vacation calls this: a due time left too late would never be read, and
        its reminder, warning or deadline would come late or not at all."""
        rows = await db.execute_fetchall(
            f"SELECT {_WAIT_COLUMNS}, s.awaiting = 1 AND g.status = 'active' "
            f"FROM {_WAIT_TABLES} WHERE {where}",
            params,
        )
        await db.executemany(
            "UPDATE seats SET due_at = ? WHERE game_id = ? AND seat = ?",
            [(_due_at(_wait(r)) if r[-1] else None, r[0], r[5]) for r in rows],
        )

    async def claim(
        self,
        wait: Wait,
        kind: str,
        notices: Iterable[tuple[str, str, str]],
        reminders: int | None = None,
        deadline: str | None = None,
    ) -> bool:
        """Mark a reminder or warning as sent for this wait and queue its notices, once.

        ``notices`` are (via, text, due_at); ``reminders`` is the reminder count this one
        brings the wait to; ``deadline`` moves a late warning's deadline to give it time.
        Two schedulers (or one restarted at that moment) race on the same conditional
        UPDATE: only one of them queues anything.
        """
        change, condition, expected = {
            "reminder": ("reminders = ?", "reminders = ?", wait.reminders),
            "warning": ("warned = ?, deadline = COALESCE(?, deadline)", "warned = ?", 0),
        }[kind]
        values = (reminders,) if kind == "reminder" else (1, deadline)
        async with self.transaction() as db:
            cur = await db.execute(
                f"UPDATE seats SET {change} WHERE game_id = ? AND seat = ? "
                f"AND awaiting = 1 AND turn_since IS ? AND {condition}",
                (*values, wait.game_id, wait.seat, wait.turn_since, expected),
            )
            if cur.rowcount != 1:
                return False
            await self._reschedule(db, "s.game_id = ? AND s.seat = ?", wait.game_id, wait.seat)
            await db.executemany(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
                "turn_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (wait.game_id, wait.user_id, kind, via, text, due, self.now(), wait.turn_since)
                    for via, text, due in notices
                ],
            )
        return True

    async def queue_turn_notice(self, game_id: int, user_id: int, text: str, due_at: str) -> None:
        """Queue a "your turn" DM for the wait the user has now in this game (none: nothing)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at, "
                "turn_since) SELECT game_id, user_id, 'turn', 'dm', ?, ?, ?, turn_since "
                "FROM seats WHERE game_id = ? AND user_id = ? AND awaiting = 1",
                (text, due_at, self.now(), game_id, user_id),
            )

    async def claim_notices(self) -> list[Notice]:
        """Take the notices due now for delivery; two deliverers never get the same one.

        A notice whose wait is over (the player moved, was replaced, the game ended) is
        dropped rather than sent: a DM held through quiet hours must not arrive after the
        move. Notices queued before migration 7 name no wait and are delivered as before.
        """
        now = self._clock()
        async with self.transaction() as db:
            await db.execute(
                "UPDATE outbox SET dropped = 'moved' WHERE sent_at IS NULL AND dropped IS NULL "
                "AND turn_since IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = outbox.game_id "
                "AND s.user_id = outbox.user_id AND s.awaiting = 1 "
                "AND s.turn_since = outbox.turn_since AND g.status = 'active')"
            )
            claimed = await db.execute_fetchall(
                "UPDATE outbox SET claimed_at = ?, attempts = attempts + 1 "
                "WHERE sent_at IS NULL AND dropped IS NULL AND due_at <= ? "
                "AND (claimed_at IS NULL OR claimed_at <= ?) RETURNING id",
                (iso(now), iso(now), iso(now - CLAIM_LEASE)),
            )
            ids = [r[0] for r in claimed]
            rows = await db.execute_fetchall(
                "SELECT o.id, o.game_id, g.guild_id, g.channel_id, o.user_id, o.via, o.kind, "
                "o.text, o.turn_since, o.attempts FROM outbox o JOIN games g ON g.id = o.game_id "
                f"WHERE o.id IN ({','.join('?' * len(ids))}) ORDER BY o.due_at, o.id",
                ids,
            )
        return [Notice(*r) for r in rows]

    async def delivery_failed(self, notice: Notice) -> str:
        """Put back a notice Discord refused, for a later try: ``retry``; after the last
        try a DM becomes a channel mention (``channel``), a mention is given up (``dropped``)."""
        now = self._clock()
        if notice.attempts < MAX_ATTEMPTS:
            outcome, sets = "retry", "claimed_at = NULL, due_at = ?"
            params: tuple = (iso(now + RETRY_AFTER * notice.attempts),)
        elif notice.via == "dm":
            outcome = "channel"
            sets = "via = 'channel', attempts = 0, claimed_at = NULL, due_at = ?"
            params = (iso(now),)
        else:
            outcome, sets, params = "dropped", "dropped = 'failed'", ()
        async with self.transaction() as db:
            await db.execute(f"UPDATE outbox SET {sets} WHERE id = ?", (*params, notice.id))
        return outcome

    async def mark_sent(self, notice_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET sent_at = ? WHERE id = ?", (self.now(), notice_id))

    async def snooze(self, game_id: int, user_id: int, turn_since: str | None = None) -> bool:
        """No more reminders for the user's wait in this game (the one since ``turn_since``,
        if given); False if there is no such wait."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE seats SET snoozed = 1 WHERE game_id = ? AND user_id = ? AND awaiting = 1 "
                "AND turn_since = COALESCE(?, turn_since)",
                (game_id, user_id, turn_since),
            )
            await self._reschedule(db, "s.game_id = ? AND s.user_id = ?", game_id, user_id)
        return cur.rowcount == 1

    async def waiting_since(self, game_id: int, turn_since: str) -> list[str]:
        """The names of the seats whose wait began at ``turn_since``: whom a reminder was for."""
        rows = await self._fetchall(
            "SELECT name FROM seats WHERE game_id = ? AND awaiting = 1 AND turn_since = ? "
            "ORDER BY seat",
            (game_id, turn_since),
        )
        return [name for (name,) in rows]

    async def push_deadlines(self, hours: float, *, user_id: int) -> list[int]:
        """Move the running deadlines of one user's waits ``hours`` later (a vacation).

        Each seat remembers the time as vacation, and a negative ``hours`` (back early)
        takes back at most what the seat holds as vacation: a turn that began after the
        return was never pushed. Returns the games whose deadline moved.
        """
        async with self.transaction() as db:
            waits = await db.execute_fetchall(
                "SELECT s.game_id, s.seat, s.deadline, s.paused_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND s.awaiting = 1 "
                "AND s.deadline IS NOT NULL AND g.status = 'active'",
                (user_id,),
            )
            moved = []
            for game, seat, deadline, paused in waits:
                by = max(hours, -paused)
                if by == 0:
                    continue
                await db.execute(
                    "UPDATE seats SET deadline = ?, warned = 0, paused_hours = paused_hours + ? "
                    "WHERE game_id = ? AND seat = ?",
                    (iso(parse_time(deadline) + timedelta(hours=by)), by, game, seat),
                )
                moved.append(game)
            await self._reschedule(db, "s.user_id = ? AND s.awaiting = 1", user_id)
        return moved

    async def extend_turn(
        self, game_id: int, version: int, hours: float, most: float
    ) -> tuple[float, bool] | None:
        """Give the seats a game waits for ``hours`` more, if this turn's extensions stay
        within ``most`` hours: ``/game extend`` is capped per turn, and a new wait starts
        again from none. Returns the hours the turn had already been given and whether
        these were added (None: no deadline runs). The check and the change are one
        transaction, so two extensions at once cannot both slip under the cap.
        """
        async with self.transaction() as db:
            if not await _first(
                db, "SELECT 1 FROM games WHERE id = ? AND version = ?", (game_id, version)
            ):
                raise StaleGame(f"game {game_id} moved on from version {version}")
            waits = await db.execute_fetchall(
                "SELECT s.seat, s.deadline, s.extended_hours FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.game_id = ? AND s.awaiting = 1 "
                "AND s.deadline IS NOT NULL AND g.status = 'active'",
                (game_id,),
            )
            if not waits:
                return None
            given = max(extended for _seat, _deadline, extended in waits)
            if given + hours > most:
                return given, False
            await db.executemany(
                "UPDATE seats SET deadline = ?, warned = 0, extended_hours = extended_hours + ? "
                "WHERE game_id = ? AND seat = ?",
                [
                    (iso(parse_time(deadline) + timedelta(hours=hours)), hours, game_id, seat)
                    for seat, deadline, _extended in waits
                ],
            )
            await self._reschedule(db, "s.game_id = ?", game_id)
        return given, True

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's result moves ratings: opened rated, with two seats or more."""
        row = await self._fetchone(
            "SELECT g.rated AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id) >= 2 "
            "FROM games g WHERE g.id = ?",
            (game_id,),
        )
        return bool(row and row[0])

    async def replace_player(
        self, game_id: int, version: int, seat: int, user_id: int, name: str
    ) -> None:
        """Hand a seat to another user, if the game is still at ``version``.

        The position does not change, so neither does the version: the Play button under
        the newest board stays good, for the newcomer. Their wait (reminders) starts now.
        """
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET updated_at = ? WHERE id = ? AND version = ?",
                (self.now(), game_id, version),
            )
            if cur.rowcount != 1:
                raise StaleGame(f"game {game_id} moved on from version {version}")
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, reminders = 0, snoozed = 0, "
                "turn_since = CASE WHEN awaiting = 1 THEN ? END WHERE game_id = ? AND seat = ?",
                (user_id, name, self.now(), game_id, seat),
            )
            await self._reschedule(db, "s.game_id = ? AND s.seat = ?", game_id, seat)

    async def settings(self, user_id: int) -> Settings:
        row = await self._fetchone(
            "SELECT notify, timezone, quiet_start, quiet_end, vacation_days, vacation_until "
            "FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        return Settings() if row is None else Settings(*row)

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO user_settings (user_id, notify, timezone, quiet_start, "
                "quiet_end, vacation_days, vacation_until) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (user_id, settings.notify, settings.timezone, settings.quiet_start)
                + (settings.quiet_end, settings.vacation_days, settings.vacation_until),
            )
            # nothing is due during a vacation: its start and end move the user's waits
            await self._reschedule(db, "s.user_id = ? AND s.awaiting = 1", user_id)

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id)
            )

    # -- leagues ------------------------------------------------------------------------

    async def create_league(self, league: LeagueRow) -> int:
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO leagues (guild_id, channel_id, name, game_key, format, "
                    "table_size, rounds, points, bye_points, round_hours, move_hours, seed, "
                    "created_by, created_at, starts_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (league.guild_id, league.channel_id, league.name, league.game_key)
                    + (league.format, league.table_size, league.rounds, json.dumps(league.points))
                    + (league.bye_points, league.round_hours, league.move_hours, league.seed)
                    + (league.created_by, self.now(), league.starts_at),
                )
        except aiosqlite.IntegrityError as exc:
            if not _unique_failed(exc, "leagues.guild_id, leagues.name"):
                raise
            raise StaleGame(f"a league called {league.name!r} exists") from exc
        return int(cur.lastrowid)

    async def league(self, guild_id: int, name: str) -> LeagueRow | None:
        row = await self._fetchone(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND name = ? COLLATE NOCASE",
            (guild_id, name),
        )
        return _league(row)

    async def leagues_due_to_start(self) -> list[LeagueRow]:
        rows = await self._fetchall(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE status = 'open' "
            "AND starts_at IS NOT NULL AND starts_at <= ? ORDER BY id",
            (self.now(),),
        )
        return [_league(r) for r in rows]

    async def organiser_role(self, guild_id: int) -> int | None:
        row = await self._fetchone(
            "SELECT organiser_role FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO guild_settings (guild_id, organiser_role) VALUES (?, ?)",
                (guild_id, role_id),
            )

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """A server's leagues, by name (for ``/league list`` and name autocomplete)."""
        rows = await self._fetchall(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY name",
            (guild_id,),
        )
        return [_league(r) for r in rows]

    async def league_match_of(self, game_id: int) -> int | None:
        """The league match a game is played for, if any: players may not call those off."""
        row = await self._fetchone("SELECT league_match FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    async def running_leagues(self) -> list[LeagueRow]:
        rows = await self._fetchall(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' ORDER BY id"
        )
        return [_league(r) for r in rows]

    async def update_league(self, league_id: int, **columns: object) -> None:
        sets = ", ".join(f"{name} = ?" for name in columns)
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE leagues SET {sets} WHERE id = ?", (*columns.values(), league_id)
            )

    async def members(self, league_id: int) -> list[Member]:
        rows = await self._fetchall(
            "SELECT user_id, name, dropped FROM league_members WHERE league_id = ? ORDER BY joined",
            (league_id,),
        )
        return [Member(r[0], r[1], bool(r[2])) for r in rows]

    async def add_member(self, league_id: int, user_id: int, name: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO league_members (league_id, user_id, name, joined) VALUES (?, ?, ?, "
                "(SELECT COALESCE(MAX(joined), 0) + 1 FROM league_members WHERE league_id = ?)) "
                "ON CONFLICT (league_id, user_id) DO UPDATE SET dropped = 0",
                (league_id, user_id, name, league_id),
            )

    async def drop_member(self, league_id: int, user_id: int, *, remove: bool) -> None:
        """Before the start a leaver is simply removed; after it, marked as dropped."""
        async with self.transaction() as db:
            if remove:
                await db.execute(
                    "DELETE FROM league_members WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
            else:
                await db.execute(
                    "UPDATE league_members SET dropped = 1 WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )

    async def add_match(self, league_id: int, round: int, kind: str, players: list[int]) -> int:
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO league_matches (league_id, round, kind, players) VALUES (?, ?, ?, ?)",
                (league_id, round, kind, json.dumps(players)),
            )
        return int(cur.lastrowid)

    async def link_match(self, match_id: int, game_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE league_matches SET game_id = ? WHERE id = ?", (game_id, match_id)
            )
            await db.execute("UPDATE games SET league_match = ? WHERE id = ?", (match_id, game_id))

    async def settle_match(
        self,
        match_id: int,
        kind: str,
        places: list[int],
        scores: list[int],
        forfeiting: list[int] = (),
    ) -> bool:
        """Record a match's outcome once; False if it was already settled."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE league_matches SET kind = ?, places = ?, scores = ?, forfeiting = ?, "
                "settled = 1 WHERE id = ? AND settled = 0",
                (kind, json.dumps(places), json.dumps(scores), json.dumps(list(forfeiting)))
                + (match_id,),
            )
        return cur.rowcount == 1

    async def matches(self, league_id: int) -> list[Match]:
        rows = await self._fetchall(
            "SELECT m.id, m.round, m.kind, m.players, m.game_id, m.places, m.scores, "
            "m.forfeiting, m.settled, g.status, g.channel_id FROM league_matches m "
            "LEFT JOIN games g ON g.id = m.game_id WHERE m.league_id = ? ORDER BY m.round, m.id",
            (league_id,),
        )
        return [
            Match(
                r[0],
                r[1],
                r[2],
                tuple(json.loads(r[3])),
                r[4],
                tuple(json.loads(r[5])) if r[5] else None,
                tuple(json.loads(r[6])) if r[6] else None,
                tuple(json.loads(r[7])) if r[7] else (),
                bool(r[8]),
                r[9],
                r[10],
            )
            for r in rows
        ]

    # -- the daily challenge ------------------------------------------------------------

    async def secret(self, name: str) -> bytes:
        """A random server-side secret, made once and kept in the database."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO secrets (name, value) VALUES (?, randomblob(32))", (name,)
            )
            (value,) = await _first(db, "SELECT value FROM secrets WHERE name = ?", (name,))
        return bytes(value)

    async def add_entry(
        self, day: str, user_id: int, name: str, guild_id: int | None, game_id: int
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO daily_entries (day, user_id, name, guild_id, game_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (day, user_id, name, guild_id, game_id),
            )

    async def entries(self, *, day: str | None = None, user_id: int | None = None) -> list[Entry]:
        """Daily attempts of one day, or of one user, oldest first."""
        column, value = ("day", day) if day is not None else ("user_id", user_id)
        rows = await self._fetchall(
            "SELECT e.day, e.user_id, e.name, e.guild_id, e.game_id, e.status, e.total, "
            "e.euler, g.status, g.channel_id, e.share_pending "
            "FROM daily_entries e JOIN games g ON g.id = e.game_id "
            f"WHERE e.{column} = ? ORDER BY e.day, e.user_id",
            (value,),
        )
        return [Entry(*r[:10], bool(r[10])) for r in rows]

    async def all_entries(self) -> list[Entry]:
        return await self._entries_where("1")

    async def unsettled_entries(self) -> list[Entry]:
        """Attempts still marked as playing whose game has ended: read through the index
        of attempts in play, not every result ever played."""
        return await self._entries_where(
            "e.status = 'playing' AND g.status IN ('finished', 'abandoned')"
        )

    async def _entries_where(self, condition: str) -> list[Entry]:
        rows = await self._fetchall(
            "SELECT e.day, e.user_id, e.name, e.guild_id, e.game_id, e.status, e.total, "
            "e.euler, g.status, g.channel_id, e.share_pending "
            f"FROM daily_entries e JOIN games g ON g.id = e.game_id WHERE {condition} "
            "ORDER BY e.day, e.user_id"
        )
        return [Entry(*r[:10], bool(r[10])) for r in rows]

    async def finish_entry(self, entry: Entry, attempt: Attempt) -> None:
        """Settle an attempt whose game ended without settling it (a row from before the
        move settled it), its share line still to post."""
        async with self.transaction() as db:
            await self._settle_attempt(db, entry.game_id, attempt)

    async def entries_to_share(self) -> list[Entry]:
        """Settled attempts whose share line has not been claimed yet: asked every minute,
        so read through their own index, not from every attempt ever played."""
        return await self._entries_where("e.share_pending = 1")

    async def claim_share(self, entry: Entry) -> bool:
        """True once per attempt: its share line is posted by one tick only."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE daily_entries SET share_pending = 0 "
                "WHERE day = ? AND user_id = ? AND share_pending = 1",
                (entry.day, entry.user_id),
            )
        return cur.rowcount == 1

    async def attempt_day(self, game_id: int) -> str | None:
        """The day of the daily challenge still being played in ``game_id``, if it is one."""
        row = await self._fetchone(
            "SELECT day FROM daily_entries WHERE game_id = ? AND status = 'playing'", (game_id,)
        )
        return row[0] if row else None

    async def set_daily_channel(self, guild_id: int, channel_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO daily_channels (guild_id, channel_id) VALUES (?, ?)",
                (guild_id, channel_id),
            )

    async def daily_channels(self) -> dict[int, int]:
        rows = await self._fetchall("SELECT guild_id, channel_id FROM daily_channels")
        return {guild: channel for guild, channel in rows}

    async def claim_daily_post(self, day: str, guild_id: int) -> bool:
        """True once per day and server: the rollover post is made exactly once."""
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO daily_posts (day, guild_id) VALUES (?, ?)", (day, guild_id)
            )
        return cur.rowcount == 1

    async def abandon(self, game_id: int, version: int, attempt: Attempt | None = None) -> None:
        """Call a game off; ``attempt`` settles the daily attempt played in it, with it."""
        async with self.transaction() as db:
            await self._bump(db, game_id, version, status="abandoned")
            await self._set_awaiting(db, game_id, (None, None), ())
            if attempt is not None:
                await self._settle_attempt(db, game_id, attempt)

    async def awaiting(self, user_id: int) -> list[Awaiting]:
        """Every active game waiting for ``user_id``, the longest-waiting first."""
        rows = await self._fetchall(
            "SELECT g.id, g.guild_id, g.channel_id, g.game_key, s.turn_since FROM seats s "
            "JOIN games g ON g.id = s.game_id "
            "WHERE s.user_id = ? AND s.awaiting = 1 AND g.status = 'active' "
            "ORDER BY s.turn_since, g.id",
            (user_id,),
        )
        return [Awaiting(*r) for r in rows]

    # -- take-backs ---------------------------------------------------------------------

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self._fetchone(
            "SELECT user_id, moves, version, agreed FROM undo_requests WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return UndoRequest(row[0], row[1], row[2], frozenset(json.loads(row[3])))

    async def put_undo_request(self, game_id: int, request: UndoRequest) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO undo_requests "
                "(game_id, user_id, moves, version, agreed, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    request.user_id,
                    request.moves,
                    request.version,
                    json.dumps(sorted(request.agreed)),
                    self.now(),
                ),
            )


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of strings). A
    trigger's body holds ';' of its own: pieces are joined until SQLite calls the
    statement complete."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    statements, pending = [], ""
    for piece in "\n".join(lines).split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip().removesuffix(";"))
            pending = ""
    return [s for s in statements if s]
