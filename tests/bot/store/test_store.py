"""The SQLite store on a real file: migrations, pragmas, raw transactions and upgrades.
What every store does, whatever its database, is in test_store_contract.py."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta

import aiosqlite
import pytest

from bot.store import MoveRecord, SQLiteStore, StaleGame, Store
from bot.store.sqlite.migrations import migrations
from tests.bot.store.test_store_contract import Clock, new_game, started_game


async def rows(store: Store, sql: str, params=()) -> list[tuple]:
    async with store._db.execute(sql, params) as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def tables(store: Store) -> set[str]:
    return {r[0] for r in await rows(store, "SELECT name FROM sqlite_master WHERE type='table'")}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.db"


# -- schema ----------------------------------------------------------------------------


async def test_migrations_are_applied_in_order_and_recorded(path):
    shipped = migrations()
    assert [m.number for m in shipped] == sorted(m.number for m in shipped)
    assert [m.number for m in shipped][:2] == [1, 2]
    store = await SQLiteStore.open(path)
    try:
        recorded = await rows(store, "SELECT number, name FROM schema_migrations ORDER BY rowid")
        assert recorded == [(m.number, m.name) for m in shipped]
        assert recorded[:2] == [(1, "0001_games.sql"), (2, "0002_settings_undo.sql")]
        assert await store.schema_version() == shipped[-1].number
        assert {"games", "seats", "moves", "user_settings", "undo_requests"} <= await tables(store)
        applied_at = await rows(store, "SELECT applied_at FROM schema_migrations")
        assert all(a for (a,) in applied_at)
    finally:
        await store.close()


async def test_a_failing_migration_changes_nothing_and_stops_the_start(path, monkeypatch):
    """A migration that breaks half way leaves no half-made table and no record of itself,
    so the fixed migration applies cleanly at the next start."""
    import bot.store

    shipped = migrations()
    broken = bot.store.sqlite.Migration(
        99,
        "0099_broken.sql",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO nowhere VALUES (1);",
    )
    monkeypatch.setattr(bot.store.sqlite.connection, "migrations", lambda: [*shipped, broken])
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await SQLiteStore.open(path)
    monkeypatch.setattr(bot.store.sqlite.connection, "migrations", lambda: shipped)
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == shipped[-1].number
        assert "half_done" not in await tables(store)
    finally:
        await store.close()


async def test_wal_mode_and_foreign_keys_are_on(path):
    store = await SQLiteStore.open(path)
    try:
        assert (await rows(store, "PRAGMA journal_mode"))[0][0].lower() == "wal"
        # FULL syncs the WAL at each commit: an acknowledged move survives a power cut
        assert (await rows(store, "PRAGMA synchronous"))[0][0] == 2
        assert (await rows(store, "PRAGMA foreign_keys"))[0][0] == 1
        # and they are enforced: no seat for a game that does not exist
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as db:
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (999, 0, 1, 'x')"
                )
        assert await rows(store, "SELECT * FROM seats") == []
    finally:
        await store.close()


async def test_reopening_applies_nothing_twice(path):
    store = await SQLiteStore.open(path, clock=Clock())
    before = await rows(store, "SELECT number, name, applied_at FROM schema_migrations")
    game_id = await new_game(store)
    await store.close()

    store = await SQLiteStore.open(path, clock=Clock(timedelta(days=3)))
    try:
        assert await store.migrate() == []
        after = await rows(store, "SELECT number, name, applied_at FROM schema_migrations")
        assert after == before
        assert (await store.game(game_id)).status == "lobby"
    finally:
        await store.close()


async def test_upgrade_from_migration_1_keeps_the_data(path):
    store = await SQLiteStore.open(path, migrate_to=1)
    assert await store.schema_version() == 1
    assert [r[0] for r in await rows(store, "SELECT number FROM schema_migrations")] == [1]
    assert not {"user_settings", "undo_requests"} & await tables(store)
    # an older bot opened and started a game and wrote moves with migration 1's schema
    async with store.transaction() as db:
        cur = await db.execute(
            "INSERT INTO games (guild_id, channel_id, game_key, status, options, seed, state, "
            "version, creator_id, created_at, updated_at) VALUES (9, 5, 'skybridge', 'active', "
            "'{}', 123, '{\"state\":1}', 2, 1, '2025-01-01T00:00:00+00:00', "
            "'2025-01-01T00:00:00+00:00')"
        )
        game_id = cur.lastrowid
        await db.execute(
            "INSERT INTO seats (game_id, seat, user_id, name, awaiting) "
            "VALUES (?, 0, 1, 'user1', 1), (?, 1, 2, 'Bob', 0)",
            (game_id, game_id),
        )
        for seq, (seat, user, action) in enumerate(
            [(0, 1, "red tall a1"), (1, 2, "blue tall b1")], start=1
        ):
            await db.execute(
                "INSERT INTO moves (game_id, seq, seat, user_id, kind, action, created_at) "
                "VALUES (?, ?, ?, ?, 'move', ?, '2025-01-01T00:00:00+00:00')",
                (game_id, seq, seat, user, action),
            )
    await store.close()

    store = await SQLiteStore.open(path)
    try:
        numbers = [r[0] for r in await rows(store, "SELECT number FROM schema_migrations")]
        assert numbers == [m.number for m in migrations()]
        assert {"user_settings", "undo_requests"} <= await tables(store)
        game = await store.game(game_id)
        assert (game.status, game.state, game.version) == ("active", '{"state":1}', 2)
        assert [(s.seat, s.user_id, s.name, s.awaiting) for s in await store.seats(game_id)] == [
            (0, 1, "user1", True),
            (1, 2, "Bob", False),
        ]
        assert [(m.seq, m.seat, m.action) for m in await store.moves(game_id)] == [
            (1, 0, "red tall a1"),
            (2, 1, "blue tall b1"),
        ]
        # and the upgraded database takes new moves with the new tables in play
        seq = (
            await store.record(
                game_id,
                2,
                MoveRecord(seat=0, user_id=1, action="red cube c1", state="{}", awaiting=[1]),
            )
        ).seq
        assert seq == 3
    finally:
        await store.close()


async def test_two_connections_racing_one_record_wins(path):
    a = await SQLiteStore.open(path)
    b = await SQLiteStore.open(path)
    try:
        game_id = await started_game(a)
        version = (await b.game(game_id)).version

        async def attempt(store: Store, action: str):
            try:
                return await store.record(
                    game_id,
                    version,
                    MoveRecord(seat=0, user_id=1, action=action, state=action, awaiting=[1]),
                )
            except StaleGame as exc:
                return exc

        outcomes = await asyncio.gather(attempt(a, "red tall a1"), attempt(b, "red tall b1"))
        assert sorted(type(o).__name__ for o in outcomes) == ["Recorded", "StaleGame"]
        moves = await a.moves(game_id)
        assert len(moves) == 1
        assert (await b.game(game_id)).state == moves[0].action
    finally:
        await a.close()
        await b.close()


# -- transactions ----------------------------------------------------------------------


async def test_a_failing_statement_rolls_the_transaction_back(store):
    game_id = await started_game(store)
    before = await store.game(game_id)
    with pytest.raises(sqlite3.Error):
        async with store.transaction() as db:
            await db.execute("UPDATE games SET state = 'changed' WHERE id = ?", (game_id,))
            await db.execute(
                "INSERT INTO moves (game_id, seq, seat, user_id, action, created_at) "
                "VALUES (?, 1, 0, 1, 'a', 'now')",
                (game_id,),
            )
            await db.execute("INSERT INTO no_such_table VALUES (1)")
    assert await store.game(game_id) == before
    assert await store.moves(game_id) == []
    # the connection is usable afterwards
    await store.record(
        game_id,
        before.version,
        MoveRecord(seat=0, user_id=1, action="ok", state="{}", awaiting=[1]),
    )
    assert [m.action for m in await store.moves(game_id)] == ["ok"]


async def test_an_exception_in_the_block_rolls_back_too(store):
    game_id = await new_game(store)

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with store.transaction() as db:
            await db.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (game_id,))
            raise Boom
    assert (await store.game(game_id)).status == "lobby"


async def test_constraint_violation_rolls_back(store):
    game_id = await new_game(store)
    with pytest.raises(aiosqlite.IntegrityError):
        async with store.transaction() as db:
            await db.execute("UPDATE games SET version = 50 WHERE id = ?", (game_id,))
            await db.execute("UPDATE games SET status = 'paused' WHERE id = ?", (game_id,))
    game = await store.game(game_id)
    assert (game.version, game.status) == (0, "lobby")


async def schema(store: Store) -> list[tuple]:
    async with store.transaction() as db:
        return [
            tuple(r)
            for r in await db.execute_fetchall(
                "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                "ORDER BY type, name"
            )
        ]


@pytest.mark.parametrize("start", [m.number for m in migrations()][:-1])
async def test_upgrading_from_every_earlier_version_keeps_data_and_matches_a_fresh_schema(
    tmp_path, start
):
    fresh = await SQLiteStore.open(tmp_path / "fresh.db")
    expected = await schema(fresh)
    await fresh.close()

    old = await SQLiteStore.open(tmp_path / "old.db", migrate_to=start)
    async with old.transaction() as db:  # rows as a bot of that version wrote them
        await db.execute(
            "INSERT INTO games (id, channel_id, game_key, status, seed, state, version, "
            "creator_id, created_at, updated_at) VALUES (1, 7, 'skybridge', 'active', 5, '{}', "
            "3, 1, '2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00+00:00')"
        )
        await db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 1, 'A')")
        await db.execute(
            "INSERT INTO moves (game_id, seq, seat, user_id, action, created_at) "
            "VALUES (1, 1, 0, 1, 'red tall a1', '2025-01-01T00:00:00+00:00')"
        )
        if start >= 3:  # the outbox, which migration 18 copies into a table of its own
            await db.execute(
                "INSERT INTO outbox (game_id, user_id, kind, via, text, due_at, created_at) "
                "VALUES (1, 1, 'reminder', 'dm', 'Reminder', '2025-01-02', '2025-01-01')"
            )
    await old.close()

    upgraded = await SQLiteStore.open(tmp_path / "old.db")
    try:
        assert await upgraded.schema_version() == migrations()[-1].number
        assert await schema(upgraded) == expected
        assert [(m.seq, m.action) for m in await upgraded.moves(1)] == [(1, "red tall a1")]
        assert (await upgraded.game(1)).version == 3
        kept = await upgraded.rows("SELECT game_id, user_id, kind, via, text, due_at FROM outbox")
        expected_outbox = [(1, 1, "reminder", "dm", "Reminder", "2025-01-02")] if start >= 3 else []
        assert [tuple(r) for r in kept] == expected_outbox
        assert await upgraded.integrity() == "ok"
    finally:
        await upgraded.close()
