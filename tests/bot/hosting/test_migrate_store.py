"""``python -m bot migrate-store FROM TO`` on real SQLite files and the real PostgreSQL
server: a lived-in database moves to PostgreSQL whole, and the bot plays on there exactly
as it would have on the file; it comes back to SQLite row for row; a database recorded by
an older version moves too; and every refusal names its cause and leaves TO as it was."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

import engine
from bot.domain.ratings import replay
from bot.hosting.migrate_store import migrate_store
from bot.service import Caller, Table
from bot.store import Store, open_store, sole_process
from bot.store.backends import POSTGRES, backend
from bot.store.migrations import migrations
from tests.bot.hosting.lived_in import (
    FINISHED,
    FINISHED_KEYS,
    HOME,
    ON_THE_CLOCK,
    T0,
    build,
    dump,
    service_at,
    tables_left_empty,
)
from tests.bot.store.test_postgres_store import _with
from tests.conftest import ADA, BOB, CY, Clock, run_bot
from tests.engine.test_recorded_games import RECORDED


@pytest.fixture(scope="module")
def lived(tmp_path_factory) -> Path:
    """The lived-in database, built once: each test copies it."""
    path = tmp_path_factory.mktemp("lived") / "lived.db"
    asyncio.run(build(path, Clock(T0)))
    assert tables_left_empty(path) == [], "every table holds rows, so every one is copied"
    return path


@pytest.fixture
def source(lived, tmp_path) -> Path:
    path = tmp_path / "from.db"
    shutil.copy(lived, path)
    return path


def at_37h() -> Clock:
    clock = Clock(T0)
    clock.at(hours=37)  # where the lived-in database's clock was left
    return clock


def _games(path: Path) -> tuple[int, int]:
    """How many games the file holds, and how many of them have a log to replay."""
    statuses = [row[4] for row in dump(path)["games"]]
    return len(statuses), len(statuses) - statuses.count("lobby")


async def contents(where) -> dict[str, list]:
    """Every row of every table (the migrations' record too), to tell a changed TO."""
    if backend(where) is not POSTGRES:
        return dump(where) if where.exists() else {}
    conn = await asyncpg.connect(where)
    try:
        names = await conn.fetch(
            "SELECT relname FROM pg_class WHERE relkind = 'r' "
            "AND relnamespace = current_schema()::regnamespace"
        )
        return {
            name: sorted(map(tuple, await conn.fetch(f"SELECT * FROM {name}")), key=repr)
            for (name,) in names
        }
    finally:
        await conn.close()


async def everything(store: Store) -> dict:
    """What the bot reads back of every game, league, attempt, rating and setting."""
    games = {}
    for game_id in range(1, await store.count_games() + 1):
        games[game_id] = (
            await store.game(game_id),
            await store.seats(game_id),
            await store.moves(game_id),
            await store.clocks(game_id),
            await store.undo_request(game_id),
        )
    leagues = await store.leagues(HOME.guild_id)
    return {
        "games": games,
        "ratings": [await store.ratings(HOME.guild_id, key) for key in sorted(engine.GAMES)],
        "leagues": [(lg, await store.members(lg.id), await store.matches(lg.id)) for lg in leagues],
        "daily": (await store.all_entries(), await store.daily_channels()),
        "settings": [await store.settings(c.user_id) for c in (ADA, BOB, CY)],
        "role": await store.organiser_role(HOME.guild_id),
    }


async def test_a_lived_in_database_moves_to_postgresql_and_plays_on_as_it_would_have(
    source, postgres_url
):
    taken = source.read_bytes()
    done = run_bot("migrate-store", source.name, postgres_url, cwd=source.parent)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"copied {source.name} to {_with(postgres_url, password='***')}" in out
    games, played = _games(source)
    tables = len(dump(source))  # every table of the schema but its migrations' record
    assert f"{tables} tables" in out and f"games {games}," in out
    assert f"{played} games replayed" in out
    assert f"set BRIDGEKEEPER_DB={_with(postgres_url, password='')}" in out
    assert "bk-test-secret" not in out, "the password is never printed"
    assert source.read_bytes() == taken, "FROM is only read"

    on_file, on_server = at_37h(), at_37h()
    before = await open_store(source, clock=on_file)
    try:
        after = await open_store(postgres_url, clock=on_server)
        try:
            assert await everything(after) == await everything(before)
            assert await _plays_on(after, on_server) == await _plays_on(before, on_file)
        finally:
            await after.close()
    finally:
        await before.close()


async def _plays_on(store: Store, clock: Clock) -> list:
    """A move in a live game, the timers an hour past its deadline, the queued notices
    delivered and a new game: what players would see of each."""
    service, seen = service_at(store), []
    row = await store.live_game(ON_THE_CLOCK.channel_id)
    mover = next(s for s in await store.seats(row.id) if s.awaiting)
    who = Caller(mover.user_id, mover.name)
    reply = await service.play.move(
        ON_THE_CLOCK, who, (await service.play.legal_moves(ON_THE_CLOCK, who))[0]
    )
    seen.append(reply.text)
    clock.at(hours=37 + 48 + 1)
    scheduler = service.timers
    posted = await scheduler.tick()
    assert any("ran out of time" in p.reply.text for p in posted), "a deadline fired"
    seen.append([(p.table, p.reply.text) for p in posted])
    notices = await scheduler.deliveries()
    assert {n.kind for n in notices} >= {"warning", "reminder"}, "queued before the move"
    seen.append(sorted((n.kind, n.via, n.user_id, n.text) for n in notices))
    opened = await service.lobby.create(Table(7999, HOME.guild_id), ADA, "skybridge")
    seen.append((opened.text, (await store.live_game(7999)).id, await store.count_games()))
    return seen


async def test_back_from_postgresql_to_sqlite_every_row_of_every_table_is_as_it_was(
    source, postgres_url, tmp_path, capsys
):
    await migrate_store(source, postgres_url)
    back = tmp_path / "back.db"
    assert await migrate_store(postgres_url, back) == 0
    assert f"{_games(source)[1]} games replayed" in capsys.readouterr().out
    again, original = dump(back), dump(source)
    assert again == original, "due at once ('') went as -infinity and came back"
    assert {type(r[1]) for r in original["secrets"]} == {bytes}


async def test_the_database_recorded_by_an_older_version_moves_and_replays(
    tmp_path, postgres_url, capsys
):
    old = tmp_path / "recorded.db"
    shutil.copy(RECORDED, old)
    taken = old.read_bytes()
    await migrate_store(old, postgres_url)
    out = capsys.readouterr().out
    assert "FROM had schema 11, from an older version" in out
    assert "games 33," in out and "moves 4,902," in out and "33 games replayed" in out
    assert old.read_bytes() == taken, "the old file is not upgraded: only its copy is"
    with closing(sqlite3.connect(old)) as db:
        logs = db.execute("SELECT game_id, seq, seat, kind, action FROM moves").fetchall()
    upgraded = tmp_path / "upgraded.db"
    shutil.copy(RECORDED, upgraded)
    store, on_file = await open_store(postgres_url), await open_store(upgraded)
    try:
        moved = [
            (game_id, m.seq, m.seat, m.kind, m.action)
            for game_id in range(1, 34)
            for m in await store.moves(game_id)
        ]
        assert sorted(moved) == sorted(logs)
        rebuilt = await store.rebuild_ratings(replay)
        assert rebuilt == await on_file.rebuild_ratings(replay) and rebuilt[1] is True
    finally:
        await store.close()
        await on_file.close()


# -- refusals: each names its cause and leaves TO as it was -------------------------------


async def _refused(source, target, match: str, *, really=None) -> str:
    """Refused, saying ``match``; ``really``: TO's own URL, where ``target`` is a wrong one."""
    kept = await contents(really or target)
    with pytest.raises(SystemExit, match=match) as refusal:
        await migrate_store(source, target)
    assert await contents(really or target) == kept, "TO is as it was"
    return str(refusal.value)


async def test_a_target_holding_anything_is_refused_naming_what_it_holds(source, database):
    store = await open_store(database)
    try:
        await service_at(store).postal.settings(ADA, notify="off")
    finally:
        await store.close()
    said = await _refused(source, database, "is not empty: it holds 1 row in user_settings")
    assert "Nothing was changed" in said


async def test_the_same_database_as_both_is_refused(source, postgres_url):
    await _refused(source, source.parent / "." / source.name, "are the same database")
    other_user = _with(postgres_url, password="another")
    await _refused(postgres_url, other_user, "are the same database", really=postgres_url)


async def test_a_missing_source_is_refused_and_no_target_is_made(tmp_path, postgres_url):
    target = tmp_path / "new.db"
    await _refused(tmp_path / "typo.db", target, "There is no database at .*typo.db")
    assert not target.exists()
    await _refused(tmp_path / "typo.db", postgres_url, "check FROM")


async def test_a_source_written_by_a_newer_version_is_refused(source, tmp_path):
    known = max(m.number for m in migrations())
    with closing(sqlite3.connect(source)) as db, db:
        db.execute("INSERT INTO schema_migrations VALUES (?, 'future.sql', 'x')", (known + 1,))
    target = tmp_path / "new.db"
    await _refused(source, target, f"has schema {known + 1}.*a newer Bridgekeeper")
    assert not target.exists()


async def test_a_source_a_bot_is_running_on_is_refused(source, tmp_path):
    with sole_process(source):
        await _refused(source, tmp_path / "new.db", "Another Bridgekeeper process")


async def test_a_damaged_source_is_refused(tmp_path, postgres_url):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"rubbish" * 500)
    await _refused(bad, postgres_url, "bad.db failed SQLite's integrity check")


async def test_an_older_postgresql_source_is_refused_not_upgraded(postgres, tmp_path):
    admin = await asyncpg.connect(postgres.url)
    await admin.execute("CREATE DATABASE bk_migrate_old")
    await admin.close()
    old_url = postgres.database_url("bk_migrate_old")
    try:
        store = await open_store(old_url, migrate_to=1)
        await store.close()
        target = tmp_path / "new.db"
        await _refused(old_url, target, "has schema 1, from an older Bridgekeeper")
        assert not target.exists()
        rows = await (await asyncpg.connect(old_url)).fetch("SELECT number FROM schema_migrations")
        assert [r[0] for r in rows] == [1], "FROM is not upgraded"
    finally:
        admin = await asyncpg.connect(postgres.url)
        await admin.execute("DROP DATABASE bk_migrate_old WITH (FORCE)")
        await admin.close()


async def test_an_unreachable_server_or_a_wrong_password_is_named_without_the_password(
    source, postgres_url
):
    wrong = _with(postgres_url, password="hunter2")
    said = await _refused(source, wrong, "refused the password", really=postgres_url)
    assert "hunter2" not in said and ":***@" in said
    with closing(__import__("socket").socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    elsewhere = _with(postgres_url, port=str(port))
    said = await _refused(source, elsewhere, "cannot be reached", really=postgres_url)
    assert "bk-test-secret" not in said


async def test_a_game_that_does_not_replay_fails_the_copy_and_nothing_is_kept(
    source, postgres_url, tmp_path
):
    with closing(sqlite3.connect(source)) as db, db:
        game_id, seq = db.execute(
            "SELECT game_id, MAX(seq) FROM moves WHERE game_id = 1"
        ).fetchone()
        db.execute("DELETE FROM moves WHERE game_id = ? AND seq = ?", (game_id, seq))
    said = await _refused(source, postgres_url, f"1 of {_games(source)[1]} games do not replay")
    assert f"game {game_id} ({FINISHED_KEYS[0]}, channel {FINISHED[0].channel_id})" in said
    assert "its log replays to a different state than the one stored" in said
    target = tmp_path / "new.db"
    await _refused(source, target, "do not replay")
    assert not target.exists(), "a SQLite TO the command made is removed again"


async def test_a_value_its_column_does_not_hold_is_named(source, postgres_url):
    with closing(sqlite3.connect(source)) as db, db:
        db.execute("UPDATE seats SET awaiting = 'yes' WHERE game_id = 1 AND seat = 0")
    await _refused(source, postgres_url, "seats.awaiting holds 'yes', which is not a yes/no")


async def test_a_table_only_one_side_has_is_refused_not_skipped(source, postgres_url):
    with closing(sqlite3.connect(source)) as db, db:
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("INSERT INTO notes VALUES ('kept by hand')")
    await _refused(
        source, postgres_url, "same schema, so nothing was copied: table notes is only in FROM"
    )


def _count(path: Path, rows: str) -> int:
    with closing(sqlite3.connect(path)) as db:
        return db.execute(f"SELECT COUNT(*) FROM {rows}").fetchone()[0]


def test_the_lived_in_database_holds_what_these_tests_rely_on(lived):
    rows = dump(lived)
    assert {r[4] for r in rows["games"]} == {"lobby", "active", "finished"}
    assert _count(lived, "seats WHERE ai = 'easy'"), "an AI seat"
    assert len(rows["undo_requests"]) == 1 and len(rows["rematches"]) == 1
    assert any(r[4] == "undo" for r in rows["moves"]), "a take-back in a log"
    assert _count(lived, "seats WHERE due_at = ''"), "a wait marked due at once"
