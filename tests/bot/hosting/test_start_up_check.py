"""SQLite's integrity check at start-up: a file small enough is checked before the bot
goes on, as always; a big one (seconds to read) is checked just after the start, and damage
found then is named with the same advice and stops every write. A backup checks first."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import closing

import pytest

from bot.hosting.backups import backup
from bot.service import Service
from bot.store import CannotSave, Damaged, Settings, SQLiteStore
from bot.store.sqlite import connection as store_module
from tests.conftest import ADA, BOB, TABLE


async def played(path) -> None:
    """A database with a started game in it."""
    store = await SQLiteStore.open(path)
    try:
        service = Service(store, images=False, seed=lambda: 7)
        await service.lobby.create(TABLE, ADA, "skybridge")
        await service.lobby.join(TABLE, BOB)
        await service.lobby.start(TABLE, ADA)
    finally:
        await store.close()


def damage(path) -> None:
    """Damage only an index, as a bad sector under it would: the header, the schema and
    the migrations all still read, so only the whole check can tell."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = replace(sql, '(channel_id, id)', '(id, channel_id)') "
            "WHERE name = 'games_channel'"
        )
        db.commit()


def garble_the_schema(path) -> None:
    """A table's name and definition turned to bytes that are not text, as a bad sector
    in the schema can leave them: SQLite's own error message then quotes them."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA writable_schema = ON")
        garbled = b"CREATE TABLE games (id \xff\xfe,,)".hex()
        db.execute(
            f"UPDATE sqlite_master SET sql = CAST(x'{garbled}' AS TEXT), "
            "name = CAST(x'67ff' AS TEXT) WHERE name = 'games'"
        )
        db.commit()


@pytest.fixture
def big(monkeypatch):
    """Every file counts as too big to check before the start."""
    monkeypatch.setattr(store_module, "CHECK_BEFORE_START", 0)


async def logged(caplog, level: int, seconds: float = 20.0) -> logging.LogRecord:
    """The first record from the store at ``level``, waiting for the check to make it."""
    for _ in range(int(seconds * 100)):
        found = [r for r in caplog.records if r.name == "bot.store" and r.levelno == level]
        if found:
            return found[0]
        await asyncio.sleep(0.01)
    raise AssertionError(f"nothing logged at {logging.getLevelName(level)}")


async def test_a_small_damaged_file_is_still_refused_before_the_start(tmp_path):
    path = tmp_path / "bk.db"
    await played(path)
    damage(path)
    with pytest.raises(Damaged, match=r"failed SQLite's integrity check.*Restore a backup"):
        await SQLiteStore.open_checked(path)


async def test_a_schema_garbled_past_reading_is_named_damaged_not_a_crash(tmp_path):
    path = tmp_path / "bk.db"
    await played(path)
    garble_the_schema(path)
    with pytest.raises(Damaged, match=r"not UTF-8.*Restore a backup"):
        await SQLiteStore.open_checked(path)


async def test_a_big_damaged_file_is_named_just_after_the_start_and_writes_stop(
    tmp_path, big, caplog
):
    path = tmp_path / "bk.db"
    await played(path)
    damage(path)
    caplog.set_level(logging.INFO, logger="bot.store")
    store = await SQLiteStore.open_checked(path)  # starts at once
    try:
        told = await logged(caplog, logging.CRITICAL)
        assert "failed SQLite's integrity check" in told.getMessage()
        assert f"python -m bot restore BACKUP --db {path} --force" in told.getMessage()
        with pytest.raises(CannotSave, match=r"damaged.*nothing you asked for was done"):
            await store.put_settings(ADA.user_id, Settings(notify="dm"))
        assert (await store.settings(ADA.user_id)).notify == "channel", "nothing written"
    finally:
        await store.close()


async def test_a_big_healthy_file_is_checked_after_the_start_and_play_goes_on(
    tmp_path, big, caplog
):
    path = tmp_path / "bk.db"
    await played(path)
    caplog.set_level(logging.INFO, logger="bot.store")
    store = await SQLiteStore.open_checked(path)
    try:
        assert "ok" in (await logged(caplog, logging.INFO)).getMessage()
        await store.put_settings(ADA.user_id, Settings(notify="dm"))
        assert (await store.settings(ADA.user_id)).notify == "dm"
    finally:
        await store.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_closing_at_once_stops_the_check_without_a_word(tmp_path, big, caplog):
    path = tmp_path / "bk.db"
    await played(path)
    store = await SQLiteStore.open_checked(path)
    await store.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_backup_checks_a_big_file_in_full_before_copying_it(tmp_path, big):
    path = tmp_path / "bk.db"
    await played(path)
    damage(path)
    with pytest.raises(SystemExit, match="bk.db failed SQLite's integrity check"):
        await backup(path, tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()
