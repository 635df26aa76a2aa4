"""Faults in files and disks are named truly: a newer schema, a file that cannot be opened, a
lock held elsewhere and a damaged file each get their own message and advice; a full disk
loses no half-made move; restore swaps the file atomically; one bot per database file."""

from __future__ import annotations

import asyncio
import io
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from bot.hosting import backups
from bot.service import Caller, Service, Table
from bot.store import (
    CannotOpen,
    CannotSave,
    Damaged,
    InUse,
    Locked,
    SchemaTooNew,
    SQLiteStore,
    Store,
    sole_process,
)
from bot.store.sqlite.files import open_fault
from bot.store.sqlite.migrations import migrations
from bot.terminal.commands import TABLE as CONSOLE_TABLE
from bot.terminal.session import Console
from tests.conftest import ADA, BOB, TABLE, run_bot

KNOWN = migrations()[-1].number


async def started_game(path: Path, table: Table = TABLE) -> tuple[Store, Service]:
    """A two-player Skybridge game, started, on a real file."""
    store = await SQLiteStore.open(path)
    service = Service(store, images=False, seed=lambda: 12345)
    await service.lobby.create(table, ADA, "skybridge")
    await service.lobby.join(table, BOB)
    await service.lobby.start(table, ADA)
    return store, service


async def next_move(service: Service, table: Table = TABLE) -> tuple[Caller, str]:
    """Whoever is to play, and their first legal move."""
    _game, seats = await service.store.seated_live_game(table.channel_id)
    mover = ADA if any(s.awaiting and s.user_id == ADA.user_id for s in seats) else BOB
    return mover, (await service.play.legal_moves(table, mover))[0]


# -- a newer schema ------------------------------------------------------------------------


async def test_a_schema_newer_than_this_version_is_refused_naming_both_versions(tmp_path):
    path = tmp_path / "future.db"
    store = await SQLiteStore.open(path)
    await store.close()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, 'x.sql', 'now')",
            (KNOWN + 3,),
        )
    with pytest.raises(SchemaTooNew) as refused:
        await SQLiteStore.open(path)
    message = str(refused.value)
    assert f"schema version {KNOWN + 3}" in message and f"up to {KNOWN}" in message
    assert "Run that newer version" in message


def test_the_bot_stops_at_start_up_on_a_newer_schema_and_leaves_the_file_alone(tmp_path):
    path = tmp_path / "future.db"
    asyncio.run(_migrated(path))
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, 'x.sql', 'now')",
            (KNOWN + 1,),
        )
    before = path.read_bytes()
    done = run_bot("console", "--db", str(path), cwd=tmp_path)
    assert done.returncode != 0
    assert f"has schema version {KNOWN + 1}" in done.stderr
    assert f"knows migrations only up to {KNOWN}" in done.stderr
    assert "Traceback" not in done.stderr
    assert path.read_bytes() == before


async def _migrated(path: Path) -> None:
    store = await SQLiteStore.open(path)
    await store.close()


# -- cannot open, locked, damaged ----------------------------------------------------------


def _missing_folder(tmp: Path) -> Path:
    return tmp / "no-such-folder" / "bk.db"


def _parent_is_a_file(tmp: Path) -> Path:
    (tmp / "notes.txt").write_text("hello")
    return tmp / "notes.txt" / "bk.db"


def _a_folder_in_its_place(tmp: Path) -> Path:
    (tmp / "bk.db").mkdir()
    return tmp / "bk.db"


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_missing_folder, "does not exist: create it (mkdir -p"),
        (_parent_is_a_file, "is a file, not a folder"),
        (_a_folder_in_its_place, "it is a folder, not a database file"),
    ],
)
async def test_a_path_that_cannot_be_opened_says_why_and_never_advises_a_restore(
    tmp_path, make, says
):
    path = make(tmp_path)
    with pytest.raises(CannotOpen) as refused:
        await SQLiteStore.open(path)
    message = str(refused.value)
    assert says in message and str(path) in message
    assert "BRIDGEKEEPER_DB" in message
    assert "restore" not in message.lower()


async def test_a_file_that_is_not_sqlite_is_named_so_and_left_alone(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"not": "a database"}' * 50)
    before = path.read_bytes()
    with pytest.raises(CannotOpen, match="is not a SQLite database: point BRIDGEKEEPER_DB"):
        await SQLiteStore.open(path)
    assert path.read_bytes() == before


def test_a_read_only_database_is_cannot_open_not_damaged(tmp_path):
    """A read-only mount, made real for root too by SQLite's own read-only mode."""
    path = tmp_path / "ro.db"
    asyncio.run(_migrated(path))
    read_only = closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True))
    with read_only as db, pytest.raises(sqlite3.OperationalError) as raised:
        db.execute("INSERT INTO schema_migrations VALUES (999, 'x', 'y')")
    fault = open_fault(path, raised.value)
    assert isinstance(fault, CannotOpen)
    assert "read-only" in str(fault) and "restore" not in str(fault).lower()


async def test_a_database_locked_by_another_process_says_so_and_not_restore(tmp_path):
    path = tmp_path / "held.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("CREATE TABLE theirs (x)")
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(Locked) as refused:
            await SQLiteStore.open(path, busy_s=0.2)
        other.execute("ROLLBACK")
    message = str(refused.value)
    assert "locked by another process" in message and "stop the other process" in message
    assert "Restore a backup" not in message
    store = await SQLiteStore.open(path)  # once it lets go, the same file opens
    await store.close()


async def test_a_damaged_file_is_the_one_fault_that_advises_a_restore(tmp_path):
    path = tmp_path / "bk.db"
    await _migrated(path)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema page itself
    path.write_bytes(bytes(data))
    with pytest.raises(Damaged, match=r"failed SQLite's integrity check.*Restore a backup"):
        await SQLiteStore.open(path)


def test_a_backup_goes_into_a_new_folder_and_a_file_in_its_place_is_named(tmp_path):
    asyncio.run(_migrated(tmp_path / "bk.db"))
    made = run_bot("backup", "backups/2026/copy.db", "--db", "bk.db", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "backed up bk.db to backups/2026/copy.db: 0 games, integrity ok" in made.stdout
    (tmp_path / "taken").write_text("not a folder")
    done = run_bot("backup", "taken/copy.db", "--db", "bk.db", cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert (
        "Cannot write the backup taken/copy.db: taken is a file, not a folder: choose another "
        "file for the backup." in done.stderr
    )


# -- a full disk, a read-only file and a held lock during play -----------------------------


async def page_count(store: Store) -> int:
    async with store.transaction() as db:
        return (await (await db.execute("PRAGMA page_count")).fetchone())[0]


async def limit_pages(store: Store, pages: int) -> None:
    """SQLite's own size cap: past it every write fails exactly as on a full disk."""
    async with store.transaction() as db:
        await db.execute(f"PRAGMA max_page_count = {pages}")


async def fill_the_disk(store: Store) -> None:
    """Cap the file at its size now, then fill the room left in the move log's last pages
    with another game's moves, as a disk fills up with other data."""
    other = await store.create_game(
        guild_id=1,
        channel_id=99,
        game_key="skybridge",
        options={},
        seed=1,
        creator_id=1,
        creator_name="Filler",
    )
    await limit_pages(store, await page_count(store))
    with pytest.raises(CannotSave):
        for seq in range(1, 10_000):
            async with store.transaction() as db:
                await db.execute(
                    "INSERT INTO moves (game_id, seq, seat, user_id, action, created_at) "
                    "VALUES (?, ?, 0, 1, 'red tall b2', '2026-11-25T00:00:00+00:00')",
                    (other, seq),
                )


async def a_move_on_a_full_disk(store: Store, service: Service, table: Table) -> int:
    """Fill the disk, then play until a move needs a page it cannot have: the number of
    moves stored before it (the last page's last few bytes may still take one)."""
    await fill_the_disk(store)
    for played in range(200):
        mover, move = await next_move(service, table)
        try:
            await service.play.move(table, mover, move)
        except CannotSave:
            return played
    raise AssertionError("the capped file never filled up")


FULL = (
    "I can't save anything right now (the server's disk is full), so nothing you asked for "
    "was done; please try again later."
)


async def test_a_move_on_a_full_disk_is_refused_plainly_and_nothing_is_half_written(tmp_path):
    store, service = await started_game(tmp_path / "full.db")
    try:
        played = await a_move_on_a_full_disk(store, service, TABLE)
        game, seats = await store.seated_live_game(TABLE.channel_id)
        log = await store.moves(game.id)
        assert len(log) == played
        mover, move = await next_move(service)
        with pytest.raises(CannotSave) as refused:
            await service.play.move(TABLE, mover, move)
        assert str(refused.value) == FULL
        after, seats_after = await store.seated_live_game(TABLE.channel_id)
        assert (after.version, after.state) == (game.version, game.state)
        assert await store.moves(game.id) == log and seats_after == seats
        assert after.version == len(seats) + len(log), "state and log still agree"

        await limit_pages(store, 1_000_000)  # space comes back: the game plays on
        reply = await service.play.move(TABLE, mover, move)
        assert "placed" in reply.text
        assert len(await store.moves(game.id)) == len(log) + 1
    finally:
        await store.close()


async def test_a_read_only_or_held_database_mid_game_is_cannot_save(tmp_path):
    store, service = await started_game(tmp_path / "ro.db")
    try:
        mover, move = await next_move(service)
        async with store.transaction() as db:
            await db.execute("PRAGMA query_only = ON")
        with pytest.raises(CannotSave, match=r"\(the database has become read-only\)"):
            await service.play.move(TABLE, mover, move)
        await store._db.execute("PRAGMA query_only = OFF")
        await store._db.execute("PRAGMA busy_timeout = 100")
        with closing(sqlite3.connect(tmp_path / "ro.db", isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(CannotSave, match="another program is holding the database"):
                await service.play.move(TABLE, mover, move)
            other.execute("ROLLBACK")
        assert "placed" in (await service.play.move(TABLE, mover, move)).text
    finally:
        await store.close()


async def test_the_console_shows_a_full_disk_as_a_refusal(tmp_path):
    store, service = await started_game(tmp_path / "full.db", CONSOLE_TABLE)
    try:
        await a_move_on_a_full_disk(store, service, CONSOLE_TABLE)
        out = io.StringIO()
        console = Console(service, tmp_path / "img", out=out)
        console.users = {"ada": ADA, "bob": BOB}
        mover, move = await next_move(service, CONSOLE_TABLE)
        await console.handle(f"{mover.name}: /move {move}")
        assert out.getvalue().strip() == f"(only {mover.name} sees this) {FULL}"
        assert console.refused == 1
    finally:
        await store.close()


# -- one bot per database file -------------------------------------------------------------


def test_a_second_holder_of_the_database_is_refused_until_the_first_lets_go(tmp_path):
    path = tmp_path / "bk.db"
    held_twice = pytest.raises(InUse, match=rf"\(pid {os.getpid()}\) is using .*bk.db: stop it")
    with sole_process(path), held_twice, sole_process(path):
        pass
    with sole_process(path):  # released with its holder
        pass


@contextmanager
def a_bot_running_on(path: Path) -> Iterator[subprocess.Popen]:
    """A migrated database at ``path`` and a process holding its one-process lock, as a
    running bot does, until the block ends."""
    asyncio.run(_migrated(path))
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        yield holder
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_second_bot_and_a_restore_are_refused_while_a_bot_runs_but_backup_works(tmp_path):
    path = tmp_path / "bk.db"
    with a_bot_running_on(path) as holder:
        second = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", "BRIDGEKEEPER_DB": str(path)})
        assert second.returncode != 0
        assert f"Another Bridgekeeper process (pid {holder.pid}) is using" in second.stderr
        assert "Traceback" not in second.stderr

        backup = run_bot("backup", "copy.db", "--db", str(path), cwd=tmp_path)
        assert backup.returncode == 0, backup.stderr
        before = path.read_bytes()
        restore = run_bot("restore", "copy.db", "--db", str(path), "--force", cwd=tmp_path)
        assert restore.returncode != 0 and "Another Bridgekeeper process" in restore.stderr
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["bk.db", "bk.db.lock", "copy.db"]
    restore = run_bot("restore", "copy.db", "--db", str(path), "--force", cwd=tmp_path)
    assert restore.returncode == 0, restore.stderr


HOLD = """
import sys, time
from bot.store import sole_process
with sole_process(sys.argv[1]):
    print("holding", flush=True)
    time.sleep(120)
"""


# -- restore is atomic ---------------------------------------------------------------------


def games_in(path: Path) -> int:
    """The games in the file at ``path`` now, without waiting for anyone's lock."""
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=0)) as db:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


async def database_with_games(path: Path, games: int, padding: int = 0) -> None:
    store = await SQLiteStore.open(path)
    try:
        async with store.transaction() as db:
            for n in range(games):
                await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, "
                    "creator_id, created_at, updated_at) "
                    "VALUES (1, ?, 'skybridge', 'finished', ?, 1, 1, 'now', 'now')",
                    (n + 1, '{"pad": "' + "x" * padding + '"}'),
                )
    finally:
        await store.close()


def test_restore_never_leaves_a_moment_without_a_whole_database(tmp_path):
    live, backup = tmp_path / "live.db", tmp_path / "backup.db"
    asyncio.run(database_with_games(live, 3))
    asyncio.run(database_with_games(backup, 400, padding=40_000))  # ~16 MB to copy
    seen: list[object] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                seen.append(games_in(live))
            except sqlite3.Error as exc:
                if exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
                    continue  # asked to wait a moment (the old WAL being folded in): whole
                seen.append(f"{type(exc).__name__}: {exc}")

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert asyncio.run(backups.restore(backup, live, force=True)) == 0
    finally:
        stop.set()
        watcher.join()
    assert games_in(live) == 400
    assert set(seen) <= {3, 400}, sorted({str(s) for s in seen})
    assert not [p.name for p in tmp_path.iterdir() if ".restoring-" in p.name]


def test_restore_does_not_replay_the_old_files_wal_into_the_backup(tmp_path):
    live, backup = tmp_path / "live.db", tmp_path / "backup.db"
    asyncio.run(database_with_games(backup, 2))
    asyncio.run(database_with_games(live, 5))
    # the old file killed mid-life: its last commits still in a WAL beside it
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE games SET status = 'abandoned'")
    wal = Path(f"{live}-wal").read_bytes()
    writer.close()
    Path(f"{live}-wal").write_bytes(wal)
    assert asyncio.run(backups.restore(backup, live, force=True)) == 0
    with closing(sqlite3.connect(live)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*), MIN(status) FROM games").fetchone() == (2, "finished")


def test_a_restore_that_fails_part_way_leaves_the_live_database_as_it_was(tmp_path, monkeypatch):
    """The backup is copied and migrated beside the live file; only a whole, checked copy
    is renamed over it. Here the copy's migration breaks, as a bug in one would."""
    import bot.store

    live, backup = tmp_path / "live.db", tmp_path / "backup.db"
    asyncio.run(database_with_games(live, 5))
    asyncio.run(database_with_games(backup, 2))
    with closing(sqlite3.connect(backup)) as db, db:
        db.execute("DELETE FROM schema_migrations WHERE number = ?", (KNOWN,))
    broken = bot.store.sqlite.Migration(KNOWN, "broken.sql", "INSERT INTO nowhere VALUES (1);")
    monkeypatch.setattr(
        bot.store.sqlite.connection, "migrations", lambda: [*migrations()[:-1], broken]
    )
    before = live.read_bytes()
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        asyncio.run(backups.restore(backup, live, force=True))
    assert live.read_bytes() == before and games_in(live) == 5
    assert not [p.name for p in tmp_path.iterdir() if ".restoring-" in p.name]


def test_a_backup_from_a_newer_bridgekeeper_is_not_restored(tmp_path):
    live, backup = tmp_path / "live.db", tmp_path / "backup.db"
    asyncio.run(database_with_games(live, 5))
    asyncio.run(database_with_games(backup, 2))
    with closing(sqlite3.connect(backup)) as db, db:
        db.execute("INSERT INTO schema_migrations VALUES (?, 'x.sql', 'now')", (KNOWN + 2,))
    with pytest.raises(
        SystemExit, match=f"backup.db has schema version {KNOWN + 2}.*up to {KNOWN}"
    ):
        asyncio.run(backups.restore(backup, live, force=True))
    assert games_in(live) == 5


# -- durable commits, in groups ------------------------------------------------------------


def on_disk(path: Path, user_id: int) -> bool:
    """Whether another connection (another process, or the bot after a power cut) sees it."""
    with closing(sqlite3.connect(path)) as other:
        found = other.execute("SELECT 1 FROM user_settings WHERE user_id = ?", (user_id,))
        return found.fetchone() is not None


async def test_writes_at_once_are_each_on_disk_before_their_caller_goes_on(tmp_path, monkeypatch):
    """Every commit is synced (synchronous = FULL), which costs a disk flush; writes that
    arrive together share one flush, and none returns before its own is done."""
    path = tmp_path / "busy.db"
    store = await SQLiteStore.open(path)
    commits = []
    execute = store._db.execute

    def counting(sql: str, *args):
        if sql == "COMMIT":
            commits.append(sql)
        return execute(sql, *args)

    monkeypatch.setattr(store._db, "execute", counting)

    async def write(user_id: int) -> bool:
        async with store.transaction() as db:
            await db.execute("INSERT INTO user_settings (user_id) VALUES (?)", (user_id,))
        return on_disk(path, user_id)

    try:
        seen = await asyncio.gather(*(write(n) for n in range(1, 41)))
        assert all(seen), "a write returned before it was committed"
        assert len(commits) <= 4, f"{len(commits)} flushes for 40 writes"
        assert await write(41), "and a lone write commits at once"
    finally:
        await store.close()


async def test_a_failing_write_leaves_the_others_of_its_group_committed(tmp_path):
    path = tmp_path / "group.db"
    store = await SQLiteStore.open(path)

    async def write(user_id: int) -> None:
        async with store.transaction() as db:
            await db.execute("INSERT INTO user_settings (user_id) VALUES (?)", (user_id,))
            if user_id == 2:
                raise ValueError("the rules refused it")

    try:
        outcomes = await asyncio.gather(*(write(n) for n in (1, 2, 3)), return_exceptions=True)
        assert [type(o).__name__ for o in outcomes] == ["NoneType", "ValueError", "NoneType"]
    finally:
        await store.close()
    assert [on_disk(path, n) for n in (1, 2, 3)] == [True, False, True]
