"""Backups are taken live and restore to the same games; a damaged database is refused."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.hosting.backups import checked_store
from bot.service import Service, Table
from bot.store import SQLiteStore
from bot.tools.selfplay import play_random
from tests.conftest import run_bot


async def fill(path: Path, games: int) -> list[tuple]:
    """A database with finished games; returns every move row, to compare copies with."""
    import random

    store = await SQLiteStore.open(path)
    try:
        service = Service(store, images=False, seed=lambda: 9)
        for n in range(games):
            await play_random(
                service, Table(100 + n, guild_id=1), "skybridge", 2 + n % 3, random.Random(n)
            )
        async with store.transaction() as db:
            return [
                tuple(r) for r in await db.execute_fetchall("SELECT * FROM moves ORDER BY 1, 2")
            ]
    finally:
        await store.close()


async def rows_of(path: Path) -> list[tuple]:
    store = await SQLiteStore.open(path)
    try:
        async with store.transaction() as db:
            return [
                tuple(r) for r in await db.execute_fetchall("SELECT * FROM moves ORDER BY 1, 2")
            ]
    finally:
        await store.close()


def test_backup_then_restore_gives_back_every_game(tmp_path):
    live = tmp_path / "live.db"
    moves = asyncio.run(fill(live, 3))
    done = run_bot("backup", "copy.db", "--db", "live.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 games, integrity ok" in done.stdout
    assert asyncio.run(rows_of(tmp_path / "copy.db")) == moves

    again = run_bot("backup", "copy.db", "--db", "live.db", cwd=tmp_path)
    assert again.returncode == 1 and "already exists" in again.stderr

    refused = run_bot("restore", "copy.db", "--db", "live.db", cwd=tmp_path)
    assert refused.returncode == 1 and "--force" in refused.stderr
    live.write_bytes(b"not a database at all" * 100)
    taken = (tmp_path / "copy.db").read_bytes()
    restored = run_bot("restore", "copy.db", "--db", "live.db", "--force", cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert "restored 3 games" in restored.stdout
    assert asyncio.run(rows_of(live)) == moves
    assert (tmp_path / "copy.db").read_bytes() == taken, "the backup is only read"


def test_a_damaged_backup_is_not_restored_over_the_live_database(tmp_path):
    live = tmp_path / "live.db"
    moves = asyncio.run(fill(live, 1))
    (tmp_path / "bad.db").write_bytes(b"SQLite format 3\x00" + b"rubbish" * 500)
    done = run_bot("restore", "bad.db", "--db", "live.db", "--force", cwd=tmp_path)
    assert done.returncode != 0
    assert "bad.db failed SQLite's integrity check" in done.stderr
    assert asyncio.run(rows_of(live)) == moves, "the live games are untouched"


async def test_a_backup_taken_while_games_are_played_is_one_consistent_state(tmp_path):
    import random

    store = await SQLiteStore.open(tmp_path / "busy.db")
    try:
        service = Service(store, images=False, seed=lambda: 9)
        playing = asyncio.gather(
            *(
                play_random(service, Table(200 + n, guild_id=1), "skybridge", 4, random.Random(n))
                for n in range(4)
            )
        )
        await asyncio.sleep(0.05)
        await store.backup(tmp_path / "mid.db")
        await playing
    finally:
        await store.close()
    copy = await SQLiteStore.open(tmp_path / "mid.db")
    try:
        assert await copy.integrity() == "ok"
        for game in [await copy.game(i) for i in range(1, 5)]:
            if game is None or game.state is None:
                continue
            log = await copy.moves(game.id)
            seats = await copy.seats(game.id)
            assert game.version == len(seats) + len(log), "state and log from one moment"
    finally:
        await copy.close()


async def test_a_damaged_database_is_refused_at_start_up_with_what_to_do(tmp_path):
    path = tmp_path / "damaged.db"
    await fill(path, 2)
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(page * 2, len(data), page):  # keep the header page, scramble the rest
        data[start + 100 : start + 400] = os.urandom(300)
    path.write_bytes(bytes(data))
    with pytest.raises(SystemExit, match="failed SQLite's integrity check.*restore BACKUP"):
        store = await checked_store(path)
        await store.close()

    # the process itself must stop, not hang on a connection left open to the bad file
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(path)],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "failed SQLite's integrity check" in done.stderr
