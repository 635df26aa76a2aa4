"""What the file system and SQLite say, as the faults that name their cause and advice,
and the lock that keeps a second process off one database file."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.store.faults import CannotOpen, CannotSave, Damaged, InUse, Locked, StoreFault

#: SQLite's primary result codes that mean "the disk or the file", not "this request"
_WHY_NOT_SAVED = {
    sqlite3.SQLITE_FULL: "the server's disk is full",
    sqlite3.SQLITE_IOERR: "the server's disk reported an error",
    sqlite3.SQLITE_READONLY: "the database has become read-only",
    sqlite3.SQLITE_BUSY: "another program is holding the database",
    sqlite3.SQLITE_LOCKED: "another program is holding the database",
}


def primary_code(exc: BaseException | None) -> int | None:
    """SQLite's primary result code of an error (extended codes carry it in the low byte)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def cannot_save(exc: BaseException) -> BaseException:
    """A write's error as :class:`CannotSave` when the disk or file is to blame, else as is."""
    reason = _WHY_NOT_SAVED.get(primary_code(exc) or 0)
    return exc if reason is None else CannotSave(reason)


def unique_failed(error: sqlite3.IntegrityError, columns: str) -> bool:
    """Whether ``error`` is the UNIQUE constraint on exactly ``columns`` failing.

    Only that one means "already exists"; any other integrity error (a NOT NULL column
    given a NaN, which SQLite stores as NULL, say) is a bug and must surface as one.
    """
    return str(error) == f"UNIQUE constraint failed: {columns}"


_SQLITE_MAGIC = b"SQLite format 3\x00"
_ELSEWHERE = "or point BRIDGEKEEPER_DB (or --db) at another file"


def unreachable(path: Path, elsewhere: str = _ELSEWHERE) -> str | None:
    """Why the file or its folder cannot be used, from what the file system says;
    ``elsewhere`` is the other way out (another database file, by default)."""
    parent = path.parent
    if not parent.exists():
        return f"its folder {parent} does not exist: create it (mkdir -p {parent}) {elsewhere}"
    if not parent.is_dir():
        return f"{parent} is a file, not a folder: {elsewhere.removeprefix('or ')}"
    if path.is_dir():
        return f"it is a folder, not a database file: {elsewhere.removeprefix('or ')}"
    if not os.access(path if path.exists() else parent, os.R_OK | os.W_OK):
        return (
            "it cannot be written here (no permission, or a read-only mount): fix the "
            f"permissions or the mount, {elsewhere}"
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
    code = primary_code(exc)
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
    why = unreachable(path)
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
            f"{unreachable(Path(db_path)) or exc.strerror}."
        ) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise InUse(
                f"Another Bridgekeeper process (pid {holder}) is using {db_path}: stop it "
                "first. A SQLite file serves one bot process (which may run every shard); "
                "several processes share a PostgreSQL database instead (docs/deploy.md)."
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
