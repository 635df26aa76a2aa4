"""The two dialects' schemas stay one schema: the same tables, columns and indexes, read
from each database's own catalogue after its migrations. A migration added to one folder
and not the other fails here, and so does a column ``migrate-store`` could not copy."""

from __future__ import annotations

import asyncpg

from bot.store import SQLiteStore, open_store
from bot.store.copying import BOOL, BYTES, INT, TIME, plan
from bot.store.postgres.tables import PostgresSide
from bot.store.sqlite.tables import SQLiteSide


async def _sqlite_schema(path) -> tuple[dict[str, set[str]], set[str]]:
    store = await SQLiteStore.open(path)
    try:
        tables = [
            name
            for (name,) in await store.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        columns = {
            table: {r[1] for r in await store.rows(f"PRAGMA table_info({table})")}
            for table in tables
        }
        indexes = {
            name
            for (name,) in await store.rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' "
                "AND name NOT LIKE 'sqlite_autoindex%'"
            )
        }
        return columns, indexes
    finally:
        await store.close()


async def _postgres_schema(url: str) -> tuple[dict[str, set[str]], set[str]]:
    conn = await asyncpg.connect(url)
    try:
        columns: dict[str, set[str]] = {}
        for table, column in await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()"
        ):
            columns.setdefault(table, set()).add(column)
        # indexes made by CREATE INDEX, not those behind a primary key or UNIQUE constraint
        indexes = {
            name
            for (name,) in await conn.fetch(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)"
            )
        }
        return columns, indexes
    finally:
        await conn.close()


async def test_both_dialects_migrate_to_the_same_tables_columns_and_indexes(tmp_path, postgres_url):
    sqlite_columns, sqlite_indexes = await _sqlite_schema(tmp_path / "schema.db")
    postgres_columns, postgres_indexes = await _postgres_schema(postgres_url)
    assert set(postgres_columns) == set(sqlite_columns)
    for table, names in sqlite_columns.items():
        assert postgres_columns[table] == names, table
    assert postgres_indexes == sqlite_indexes
    assert {"seats_due", "outbox_pending", "daily_entries_playing"} <= postgres_indexes


async def test_a_copy_between_the_stores_takes_every_table_and_column_of_the_schema(
    tmp_path, postgres_url
):
    """``migrate-store`` reads its tables from the two catalogues: whatever a migration
    adds is copied, each column with one meaning both dialects agree on (SQLite's
    INTEGER yes/no is PostgreSQL's boolean, its TEXT time a timestamptz)."""
    sqlite_columns, _ = await _sqlite_schema(tmp_path / "schema.db")
    on_file, on_server = (
        await SQLiteStore.open(tmp_path / "schema.db"),
        await open_store(postgres_url),
    )
    try:
        async with on_file.transaction() as db, on_server.transaction() as conn:
            tables = plan(
                await SQLiteSide(db, "file").catalogue(),
                await PostgresSide(conn, postgres_url).catalogue(),
            )
    finally:
        await on_file.close()
        await on_server.close()
    planned = {t.name: {c.name for c in t.columns} for t in tables}
    assert planned == {t: cols for t, cols in sqlite_columns.items() if t != "schema_migrations"}
    kinds = {(t.name, c.name): c.kind for t in tables for c in t.columns}
    assert kinds["seats", "awaiting"] == BOOL and kinds["seats", "due_at"] == TIME
    assert kinds["secrets", "value"] == BYTES and kinds["games", "id"] == INT
    order = [t.name for t in tables]
    assert order.index("games") < order.index("moves")
    assert order.index("leagues") < order.index("league_matches")
