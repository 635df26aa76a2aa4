"""Statements written once (bot/store/sql.py): rendered for each database as its driver
reads them, and a transaction's body run whole on every store, in as many trips as the
store promises (SQLite's one, PostgreSQL's a statement each, with BEGIN and COMMIT)."""

from __future__ import annotations

import pytest

from bot.store import MoveRecord, StaleGame
from bot.store.postgres.dialect import POSTGRES
from bot.store.sql import Duplicate, Many, Q, Rendered
from bot.store.sqlite.dialect import SQLITE
from tests.bot.store.test_store_contract import new_game, started_game

NEUTRAL = (
    "SELECT a, ':kept' FROM t WHERE x = :x AND y = TRUE AND z IS NOT DISTINCT FROM :z "
    "AND w = CAST(:x AS TIMESTAMPTZ) AND v = :v::bigint[] FOR UPDATE OF t SKIP LOCKED"
)


def test_postgresql_numbers_each_parameter_once_in_order_of_first_use():
    assert POSTGRES.render(NEUTRAL) == Rendered(
        "SELECT a, ':kept' FROM t WHERE x = $1 AND y = TRUE AND z IS NOT DISTINCT FROM $2 "
        "AND w = CAST($1 AS TIMESTAMPTZ) AND v = $3::bigint[] FOR UPDATE OF t SKIP LOCKED",
        ("x", "z", "v"),
    )
    assert POSTGRES.render(NEUTRAL).args({"v": [1], "z": None, "x": "t"}) == ["t", None, [1]]


def test_sqlite_binds_names_itself_and_writes_its_own_words():
    """Booleans as 0 and 1 (its partial indexes say ``= 1``), times as text, ``IS`` for
    NULL-safe equality, and no row locks: its write transaction holds the whole file."""
    assert SQLITE.render(NEUTRAL) == Rendered(
        "SELECT a, ':kept' FROM t WHERE x = :x AND y = 1 AND z IS :z "
        "AND w = CAST(:x AS TEXT) AND v = :v::bigint[]"
    )
    assert SQLITE.as_bytes("state") == "CAST(state AS BLOB)"
    assert POSTGRES.as_bytes("state") == "state"


def test_a_rendering_is_made_once_per_statement():
    sql = "SELECT :once"
    assert SQLITE.render(sql) is SQLITE.render(sql)
    assert POSTGRES.render(sql) is POSTGRES.render(sql)


@pytest.fixture
async def store(open_store):
    return await open_store()


async def test_a_body_is_one_transaction_on_every_store(store):
    """A body that fails after writing keeps nothing of what it wrote."""
    game_id = await new_game(store)

    def body():
        yield Q.count("UPDATE games SET status = 'active' WHERE id = :id", id=game_id)
        (status,) = yield Q.row("SELECT status FROM games WHERE id = :id", id=game_id)
        assert status == "active"  # the body reads its own write
        raise StaleGame("changed its mind")

    with pytest.raises(StaleGame):
        await store._write(body())
    assert (await store.game(game_id)).status == "lobby"


async def test_a_broken_unique_constraint_is_named_alike_on_every_store(store):
    """As PostgreSQL's schema names it, whichever store broke it: a write that means
    "already there" says so once for every database."""
    await new_game(store, channel=5)
    game = (
        "INSERT INTO games (channel_id, game_key, status, seed, creator_id, created_at, "
        "updated_at) VALUES (5, 'skybridge', 'lobby', 1, 2, :now, :now)"
    )
    with pytest.raises(Duplicate) as raised:
        await store._write(Q.count(game, now=store.now()))
    assert raised.value.constraint == "games_live_channel"
    seat = "INSERT INTO seats (game_id, seat, user_id, name) VALUES (:g, :s, :u, 'x')"
    await store._write(Many(seat, [dict(g=1, s=1, u=2), dict(g=1, s=2, u=3)]))
    assert [s.user_id for s in await store.seats(1)] == [1, 2, 3]


async def test_a_move_costs_one_trip_on_sqlite_and_four_on_postgresql(store):
    """The whole move, log entry, waits, notices and all, in one transaction: SQLite runs
    it in one trip to its thread; PostgreSQL in BEGIN, two statements and COMMIT."""
    game_id = await started_game(store)
    version = (await store.game(game_id)).version
    move = MoveRecord(
        seat=0, user_id=1, action="m", state="{}", awaiting=(1,),
        notices=[(2, "your turn", store.now())], heads_ups=[(1, "dm", "next", store.now())],
    )  # fmt: skip
    before = store.round_trips
    await store.record(game_id, version, move)
    assert store.round_trips - before == (1 if store.dialect is SQLITE else 4)
