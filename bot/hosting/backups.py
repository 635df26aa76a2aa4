"""The one-off commands on a whole database: open it checked, back it up, restore a
backup, rebuild the ratings. ``python -m bot`` calls these; the running bot only uses
:func:`checked_store` and :func:`hold`."""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
from contextlib import ExitStack, closing, suppress
from pathlib import Path

from bot.domain.ratings import replay
from bot.store import (
    SQLiteStore,
    Store,
    StoreFault,
    Target,
    dumps,
    is_file,
    open_checked,
    redacted,
    sole_process,
)
from renders.text.common import plural


async def checked_store(db_path: Target, full: bool = False) -> Store:
    """Open the store, or stop saying what is wrong with the file and what to do about it:
    a missing folder, a lock held elsewhere, a newer schema and damage each get their own.
    ``full``: check a big file in full before going on, not after (for the one-off commands:
    a backup must not copy damage, nor a ratings rebuild write into it)."""
    try:
        return await open_checked(db_path, full=full)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None


async def backup(db_path: Target, target: Path) -> int:
    """Copy the database to ``target``, making its folder if need be (``backups/`` of a
    fresh clone): a backup is never refused for want of a folder it could have."""
    if target.exists():
        print(f"{target} already exists; choose a new file for the backup.", file=sys.stderr)
        return 1
    store = await checked_store(db_path, full=True)
    try:
        games = await store.count_games()
        with suppress(OSError):  # a file in the folder's place: the store says so below
            target.parent.mkdir(parents=True, exist_ok=True)
        await store.backup(target)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    finally:
        await store.close()
    if not is_file(db_path):  # a server's database: its dump, restored by its tools
        dumped = f"(pg_dump, custom format): {plural(games, 'game')}"
        print(f"backed up {redacted(db_path)} to {target} {dumped}")
        print(f"restore it with: {dumps.restore_command(target, db_path)}")
        return 0
    copy = await SQLiteStore.open(target)
    try:
        verdict, games = await copy.integrity(), await copy.count_games()
    finally:
        await copy.close()
    print(f"backed up {db_path} to {target}: {plural(games, 'game')}, integrity {verdict}")
    return 0 if verdict == "ok" else 1


async def restore(source: Path, db_path: Target, force: bool) -> int:
    """Put a backup in place of the database with one atomic rename, so the live file is
    always either the old database or the whole restored one, never missing or half-copied.
    On PostgreSQL, ``pg_restore`` replaces the database's contents in one transaction."""
    if not source.is_file():
        print(f"no backup at {source}", file=sys.stderr)
        return 1
    if not is_file(db_path):  # a server's database: its dump, restored by its tools
        return await _restore_postgres(source, db_path, force)
    if db_path.exists() and not force:
        print(f"{db_path} exists; stop the bot and add --force to replace it.", file=sys.stderr)
        return 1
    with ExitStack() as stack:
        hold(stack, db_path)  # refused while a bot runs on the file
        fd, name = tempfile.mkstemp(dir=db_path.parent, prefix=f".{db_path.name}.restoring-")
        os.close(fd)
        staged = Path(name)
        stack.callback(remove_with_journals, staged)  # gone by then, unless it failed
        copy_checked(
            source, staged, "so it cannot be restored; nothing was changed. Choose another backup."
        )
        games = await _migrated_games(staged, source)  # migrates a backup taken by an older version
        _fsync(staged)
        _settle_old(db_path)
        os.replace(staged, db_path)
        _fsync(db_path.parent)
    print(f"restored {plural(games, 'game')} from {source} to {db_path}")
    return 0


async def _restore_postgres(source: Path, url: str, force: bool) -> int:
    if not force:
        print(
            f"restoring replaces everything {redacted(url)} holds; stop every bot using it "
            "and add --force.",
            file=sys.stderr,
        )
        return 1
    try:
        dumps.restore(source, url)
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None
    store = await checked_store(url)  # migrates a dump taken by an older version
    try:
        games = await store.count_games()
    finally:
        await store.close()
    print(f"restored {plural(games, 'game')} from {source} to {redacted(url)}")
    return 0


def hold(stack: ExitStack, db_path: Path) -> None:
    """Hold the database's one-process lock until ``stack`` closes, or stop, saying who has it."""
    try:
        stack.enter_context(sole_process(db_path))
    except StoreFault as exc:
        raise SystemExit(str(exc)) from None


def copy_checked(source: Path, staged: Path, refusal: str) -> None:
    """Check a SQLite file, then copy it into ``staged`` (one consistent state, by SQLite's
    online backup); a file that fails the check stops the command with ``refusal`` after
    what was found. ``source`` is only read (a check that opened it as a store would
    migrate it and turn it to WAL): a backup stays as taken, to restore again, and a
    database being moved elsewhere stays as it was."""
    with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as backup:
        try:
            verdict = backup.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
        if verdict != "ok":
            detail = " ".join(verdict.split())[:200]
            raise SystemExit(f"{source} failed SQLite's integrity check ({detail}), {refusal}")
        with closing(sqlite3.connect(staged)) as copy:
            backup.backup(copy)


async def _migrated_games(staged: Path, source: Path) -> int:
    """Bring the staged copy's schema up to date; its game count. Closing the last
    connection checkpoints its WAL into the file, which is all that is renamed."""
    try:
        store = await checked_store(staged)
    except SystemExit as exc:  # a fault of the backup's contents: name the backup
        raise SystemExit(str(exc).replace(str(staged), str(source))) from None
    try:
        return await store.count_games()
    finally:
        await store.close()


def _settle_old(db_path: Path) -> None:
    """Fold the old database's WAL into it if SQLite can, then delete its -wal and -shm:
    left beside the restored file, SQLite would replay the old frames into it."""
    if db_path.is_file():
        with suppress(sqlite3.Error), closing(sqlite3.connect(db_path)) as old:
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _remove_journals(db_path)


def _remove_journals(path: Path) -> None:
    for journal in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        journal.unlink(missing_ok=True)


def remove_with_journals(path: Path) -> None:
    path.unlink(missing_ok=True)
    _remove_journals(path)


def _fsync(path: Path) -> None:
    """Make a file's data, or a folder's entries (a rename), durable before going on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


async def rebuild_ratings(db_path: Target) -> int:
    store = await checked_store(db_path, full=True)
    try:
        games, same = await store.rebuild_ratings(replay)
    finally:
        await store.close()
    verdict = "identical to the stored ratings" if same else "DIFFERENT from the stored ratings"
    print(f"replayed {games} rated games: {verdict}; the recomputed ratings are now stored")
    return 0 if same else 1
