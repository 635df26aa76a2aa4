"""The SQLite store on a real file: migrations, pragmas, the one-transaction move log."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import aiosqlite
import pytest

from bot.store import StaleGame, Store, UndoRequest, migrations


class Clock:
    """A clock that moves on by ``step`` every time it is read."""

    def __init__(self, step: timedelta = timedelta(minutes=1)) -> None:
        self.t = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
        self.step = step

    def __call__(self) -> datetime:
        self.t += self.step
        return self.t


async def rows(store: Store, sql: str, params=()) -> list[tuple]:
    async with store._db.execute(sql, params) as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def tables(store: Store) -> set[str]:
    return {r[0] for r in await rows(store, "SELECT name FROM sqlite_master WHERE type='table'")}


async def new_game(store: Store, channel: int = 77, creator: int = 1) -> int:
    game_id = await store.create_game(
        guild_id=9,
        channel_id=channel,
        game_key="skybridge",
        options={},
        seed=123,
        creator_id=creator,
        creator_name=f"user{creator}",
    )
    return game_id


async def started_game(store: Store, channel: int = 77, users=(1, 2)) -> int:
    """A game in ``channel`` with ``users`` seated and started, awaiting seat 0 (version 2+)."""
    game_id = await new_game(store, channel, users[0])
    version = 0
    for user in users[1:]:
        await store.join(game_id, version, user, f"user{user}")
        version += 1
    await store.start(game_id, version, '{"s":0}', [0])
    return game_id


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.db"


# -- schema ----------------------------------------------------------------------------


async def test_migrations_are_applied_in_order_and_recorded(path):
    shipped = migrations()
    assert [m.number for m in shipped] == sorted(m.number for m in shipped)
    assert [m.number for m in shipped][:2] == [1, 2]
    store = await Store.open(path)
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
    broken = bot.store.Migration(
        99,
        "0099_broken.sql",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO nowhere VALUES (1);",
    )
    monkeypatch.setattr(bot.store, "migrations", lambda: [*shipped, broken])
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await Store.open(path)
    monkeypatch.setattr(bot.store, "migrations", lambda: shipped)
    store = await Store.open(path)
    try:
        assert await store.schema_version() == shipped[-1].number
        assert "half_done" not in await tables(store)
    finally:
        await store.close()


async def test_wal_mode_and_foreign_keys_are_on(path):
    store = await Store.open(path)
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
    store = await Store.open(path, clock=Clock())
    before = await rows(store, "SELECT number, name, applied_at FROM schema_migrations")
    game_id = await new_game(store)
    await store.close()

    store = await Store.open(path, clock=Clock(timedelta(days=3)))
    try:
        assert await store.migrate() == []
        after = await rows(store, "SELECT number, name, applied_at FROM schema_migrations")
        assert after == before
        assert (await store.game(game_id)).status == "lobby"
    finally:
        await store.close()


async def test_upgrade_from_migration_1_keeps_the_data(path):
    store = await Store.open(path, migrate_to=1)
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

    store = await Store.open(path)
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
        seq = await store.record(
            game_id, 2, seat=0, user_id=1, action="red cube c1", state="{}", awaiting=[1]
        )
        assert seq == 3
    finally:
        await store.close()


# -- games -----------------------------------------------------------------------------


async def test_one_live_game_per_channel(store):
    first = await new_game(store, channel=10)
    with pytest.raises(StaleGame):
        await new_game(store, channel=10, creator=2)
    assert await store.count_games() == 1
    other = await new_game(store, channel=11)  # another channel is fine
    assert other != first
    await store.abandon(first, 0)
    again = await new_game(store, channel=10, creator=2)
    assert (await store.live_game(10)).id == again
    assert (await store.latest_game(10)).id == again


async def test_a_finished_game_frees_the_channel(store):
    game_id = await started_game(store, channel=12)
    await store.record(
        game_id,
        2,
        seat=0,
        user_id=1,
        action="resign",
        state="{}",
        awaiting=[],
        results=[(2, 0), (1, 5)],
    )
    game = await store.game(game_id)
    assert game.status == "finished"
    assert [(s.place, s.score, s.awaiting) for s in await store.seats(game_id)] == [
        (2, 0, False),
        (1, 5, False),
    ]
    assert await store.live_game(12) is None
    await new_game(store, channel=12, creator=3)


async def test_join_and_leave_keep_seats_numbered(store):
    game_id = await new_game(store, creator=1)
    await store.join(game_id, 0, 2, "B")
    await store.join(game_id, 1, 3, "C")
    await store.join(game_id, 2, 4, "D")
    await store.leave(game_id, 3, 2)
    assert [(s.seat, s.user_id) for s in await store.seats(game_id)] == [(0, 1), (1, 3), (2, 4)]
    with pytest.raises(StaleGame):
        await store.join(game_id, 3, 5, "E")  # version 3 is old now
    assert len(await store.seats(game_id)) == 3


async def test_record_appends_the_move_and_stores_the_state(store):
    game_id = await started_game(store)
    game = await store.game(game_id)
    seq = await store.record(
        game_id,
        game.version,
        seat=0,
        user_id=1,
        action="red tall a1",
        state='{"n":1}',
        awaiting=[1],
    )
    assert seq == 1
    seq = await store.record(
        game_id, game.version + 1, seat=1, user_id=2, action="blue tall b1", state='{"n":2}',
        awaiting=[0],
    )  # fmt: skip
    assert seq == 2
    after = await store.game(game_id)
    assert (after.state, after.version, after.status) == ('{"n":2}', game.version + 2, "active")
    assert [(m.seq, m.seat, m.user_id, m.kind, m.action) for m in await store.moves(game_id)] == [
        (1, 0, 1, "move", "red tall a1"),
        (2, 1, 2, "move", "blue tall b1"),
    ]
    assert [s.awaiting for s in await store.seats(game_id)] == [True, False]


async def test_record_with_a_stale_version_changes_nothing(store):
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    await store.record(
        game_id, version, seat=0, user_id=1, action="red tall a1", state='{"n":1}', awaiting=[1]
    )
    before_game = await store.game(game_id)
    before_moves = await store.moves(game_id)
    before_seats = await store.seats(game_id)
    with pytest.raises(StaleGame):
        await store.record(
            game_id, version, seat=0, user_id=1, action="red tall b1", state='{"n":"x"}',
            awaiting=[0], results=[(1, 9), (2, 0)],
        )  # fmt: skip
    assert await store.game(game_id) == before_game
    assert await store.moves(game_id) == before_moves
    assert await store.seats(game_id) == before_seats


async def test_record_cancels_a_pending_undo_request(store):
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    request = UndoRequest(user_id=1, moves=2, version=version, agreed=frozenset({2}))
    await store.put_undo_request(game_id, request)
    assert await store.undo_request(game_id) == request
    await store.record(game_id, version, seat=0, user_id=1, action="x", state="{}", awaiting=[1])
    assert await store.undo_request(game_id) is None


async def test_two_connections_racing_one_record_wins(path):
    a = await Store.open(path)
    b = await Store.open(path)
    try:
        game_id = await started_game(a)
        version = (await b.game(game_id)).version

        async def attempt(store: Store, action: str):
            try:
                return await store.record(
                    game_id, version, seat=0, user_id=1, action=action, state=action, awaiting=[1]
                )
            except StaleGame as exc:
                return exc

        outcomes = await asyncio.gather(attempt(a, "red tall a1"), attempt(b, "red tall b1"))
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleGame", "int"]
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
        game_id, before.version, seat=0, user_id=1, action="ok", state="{}", awaiting=[1]
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


# -- awaiting ("my turns") -------------------------------------------------------------


async def test_awaiting_lists_active_games_for_a_user_oldest_first(path):
    store = await Store.open(path, clock=Clock())
    try:
        older = await started_game(store, channel=1, users=(1, 2))  # waits for user 1
        newer = await started_game(store, channel=2, users=(1, 3))  # waits for user 1
        lobby = await new_game(store, channel=3, creator=1)  # not started: never listed
        assert lobby
        # in the older game user 1 moves, then user 2: it waits for user 1 again, now newest
        await store.record(older, 2, seat=0, user_id=1, action="m1", state="{}", awaiting=[1])
        assert [w.game_id for w in await store.awaiting(1)] == [newer]
        assert [w.game_id for w in await store.awaiting(2)] == [older]
        await store.record(older, 3, seat=1, user_id=2, action="m2", state="{}", awaiting=[0])
        waiting = await store.awaiting(1)
        assert [w.game_id for w in waiting] == [newer, older]
        assert [w.channel_id for w in waiting] == [2, 1]
        assert waiting[0].since < waiting[1].since
        assert await store.awaiting(2) == []
        assert await store.awaiting(3) == []
        # now the same happens in the newer game: the order turns round
        await store.record(newer, 2, seat=0, user_id=1, action="m1", state="{}", awaiting=[1])
        await store.record(newer, 3, seat=1, user_id=3, action="m2", state="{}", awaiting=[0])
        assert [w.game_id for w in await store.awaiting(1)] == [older, newer]
        # finished and abandoned games wait for nobody
        await store.abandon(newer, 4)
        assert [w.game_id for w in await store.awaiting(1)] == [older]
        await store.record(
            older, 4, seat=0, user_id=1, action="resign", state="{}", awaiting=[0],
            results=[(2, 0), (1, 0)],
        )  # fmt: skip
        assert await store.awaiting(1) == []
    finally:
        await store.close()


async def test_awaiting_order_holds_for_updates_within_one_second(path):
    """Two games updated a few hundredths of a second apart still list the longer-waiting first.

    Timestamps are written with whole seconds, so updates in the same second tie and
    the tie falls back to the game id (creation order), not to how long each waited.
    """
    store = await Store.open(path, clock=Clock(timedelta(milliseconds=10)))
    try:
        older = await started_game(store, channel=1, users=(1, 2))
        newer = await started_game(store, channel=2, users=(1, 3))
        await store.record(older, 2, seat=0, user_id=1, action="m1", state="{}", awaiting=[1])
        await store.record(older, 3, seat=1, user_id=2, action="m2", state="{}", awaiting=[0])
        # ``newer`` has waited for user 1 since before ``older``'s last move
        assert [w.game_id for w in await store.awaiting(1)] == [newer, older]
    finally:
        await store.close()


async def test_record_is_one_transaction_a_late_failure_undoes_the_move_row(store):
    game_id = await started_game(store)
    before = await store.game(game_id)
    with pytest.raises(sqlite3.Error):
        # the version bump and the move row are written, then binding `awaiting` fails
        await store.record(
            game_id, before.version, seat=0, user_id=1, action="red tall a1", state='{"n":1}',
            awaiting=[object()],
        )  # fmt: skip
    assert await store.game(game_id) == before
    assert await store.moves(game_id) == []
    assert [s.awaiting for s in await store.seats(game_id)] == [True, False]


async def schema(store: Store) -> list[tuple]:
    async with store.transaction() as db:
        return [
            tuple(r)
            for r in await db.execute_fetchall(
                "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                "ORDER BY type, name"
            )
        ]


@pytest.mark.parametrize("start", range(1, len(migrations())))
async def test_upgrading_from_every_earlier_version_keeps_data_and_matches_a_fresh_schema(
    tmp_path, start
):
    fresh = await Store.open(tmp_path / "fresh.db")
    expected = await schema(fresh)
    await fresh.close()

    old = await Store.open(tmp_path / "old.db", migrate_to=start)
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
    await old.close()

    upgraded = await Store.open(tmp_path / "old.db")
    try:
        assert await upgraded.schema_version() == len(migrations())
        assert await schema(upgraded) == expected
        assert [(m.seq, m.action) for m in await upgraded.moves(1)] == [(1, "red tall a1")]
        assert (await upgraded.game(1)).version == 3
        assert await upgraded.integrity() == "ok"
    finally:
        await upgraded.close()
