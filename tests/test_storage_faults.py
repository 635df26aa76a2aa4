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
from contextlib import closing
from pathlib import Path

import pytest

from bot.console import TABLE as CONSOLE_TABLE
from bot.console import Console
from bot.service import Caller, Service, Table
from bot.store import (
    CannotOpen,
    CannotSave,
    Damaged,
    Locked,
    SchemaTooNew,
    Store,
    migrations,
    open_fault,
)
from tests.conftest import ADA, BOB, TABLE

KNOWN = migrations()[-1].number


def run_bot(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("BRIDGEKEEPER_DB", "DISCORD_TOKEN")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, **env},
        input="",
    )


async def started_game(path: Path, table: Table = TABLE) -> tuple[Store, Service]:
    """A two-player Skybridge game, started, on a real file."""
    store = await Store.open(path)
    service = Service(store, images=False, seed=lambda: 12345)
    await service.create(table, ADA, "skybridge")
    await service.join(table, BOB)
    await service.start(table, ADA)
    return store, service


async def next_move(service: Service, table: Table = TABLE) -> tuple[Caller, str]:
    """Whoever is to play, and their first legal move."""
    _game, seats = await service.store.seated_live_game(table.channel_id)
    mover = ADA if any(s.awaiting and s.user_id == ADA.user_id for s in seats) else BOB
    return mover, (await service.legal_moves(table, mover))[0]


# -- a newer schema ------------------------------------------------------------------------


async def test_a_schema_newer_than_this_version_is_refused_naming_both_versions(tmp_path):
    path = tmp_path / "future.db"
    store = await Store.open(path)
    await store.close()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, 'x.sql', 'now')",
            (KNOWN + 3,),
        )
    with pytest.raises(SchemaTooNew) as refused:
        await Store.open(path)
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
    store = await Store.open(path)
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
        await Store.open(path)
    message = str(refused.value)
    assert says in message and str(path) in message
    assert "BRIDGEKEEPER_DB" in message
    assert "restore" not in message.lower()


async def test_a_file_that_is_not_sqlite_is_named_so_and_left_alone(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"not": "a database"}' * 50)
    before = path.read_bytes()
    with pytest.raises(CannotOpen, match="is not a SQLite database: point BRIDGEKEEPER_DB"):
        await Store.open(path)
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
            await Store.open(path, busy_s=0.2)
        other.execute("ROLLBACK")
    message = str(refused.value)
    assert "locked by another process" in message and "stop the other process" in message
    assert "Restore a backup" not in message
    store = await Store.open(path)  # once it lets go, the same file opens
    await store.close()


async def test_a_damaged_file_is_the_one_fault_that_advises_a_restore(tmp_path):
    path = tmp_path / "bk.db"
    await _migrated(path)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema page itself
    path.write_bytes(bytes(data))
    with pytest.raises(Damaged, match=r"failed SQLite's integrity check.*Restore a backup"):
        await Store.open(path)


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
            await service.move(table, mover, move)
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
            await service.move(TABLE, mover, move)
        assert str(refused.value) == FULL
        after, seats_after = await store.seated_live_game(TABLE.channel_id)
        assert (after.version, after.state) == (game.version, game.state)
        assert await store.moves(game.id) == log and seats_after == seats
        assert after.version == len(seats) + len(log), "state and log still agree"

        await limit_pages(store, 1_000_000)  # space comes back: the game plays on
        reply = await service.move(TABLE, mover, move)
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
            await service.move(TABLE, mover, move)
        await store._db.execute("PRAGMA query_only = OFF")
        await store._db.execute("PRAGMA busy_timeout = 100")
        with closing(sqlite3.connect(tmp_path / "ro.db", isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(CannotSave, match="another program is holding the database"):
                await service.move(TABLE, mover, move)
            other.execute("ROLLBACK")
        assert "placed" in (await service.move(TABLE, mover, move)).text
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
