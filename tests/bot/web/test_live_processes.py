"""Live pages across processes on one PostgreSQL: a page served by one process hears a
move another process commits (LISTEN/NOTIFY, no other broker), never one rolled back,
and still hears moves after its listening connection is cut, a move made meanwhile
included. Two services on two stores of one database, as two processes have."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import aiohttp
import asyncpg
import pytest

from bot.config import Web
from bot.service import Service
from bot.store import open_store
from bot.store.postgres.listening import APPLICATION
from bot.web.serving import serving
from tests.bot.web.test_pages import _event, move, skybridge
from tests.conftest import TABLE


@dataclass
class Two:
    """Process A serving pages and process B making moves, on one database; a live
    stream of B's game open on A's page, its first event (the version then) read; and a
    connection of an operator's to the database."""

    a: Service
    b: Service
    stream: aiohttp.ClientResponse
    game_id: int
    version: int
    conn: asyncpg.Connection


@pytest.fixture
async def two(postgres_url):
    stores = [await open_store(postgres_url), await open_store(postgres_url)]
    a, b = (Service(store, images=False, seed=lambda: 12345) for store in stores)
    game_id = await skybridge(b, 1)
    version = (await b.games.active(TABLE)).row.version
    conn = await asyncpg.connect(postgres_url)
    try:
        async with serving(a, Web(port=0)) as served, aiohttp.ClientSession() as http:
            url = served.listening + await a.pages.path(game_id) + "/events"
            async with http.get(url) as stream:
                assert await _event(stream) == version, "the version now, first"
                yield Two(a, b, stream, game_id, version, conn)
    finally:
        await conn.close()
        for store in stores:
            await store.close()


async def test_a_page_in_one_process_hears_a_move_made_in_another(two):
    assert two.stream.headers["X-Accel-Buffering"] == "no", "a proxy in front passes events on"
    await move(two.b)
    assert await _event(two.stream) == two.version + 1
    await move(two.b)
    assert await _event(two.stream) == two.version + 2, "each move once, in order"
    await move(two.a)  # A's own move: told by its service and by the server, heard once
    await move(two.b)
    heard = [await _event(two.stream), await _event(two.stream)]
    assert heard == [two.version + 3, two.version + 4]


async def test_a_write_rolled_back_tells_no_page(two):
    with pytest.raises(RuntimeError):
        async with two.conn.transaction():
            await two.conn.execute(
                "UPDATE games SET version = version + 5 WHERE id = $1", two.game_id
            )
            raise RuntimeError("rolled back")
    await move(two.b)
    assert await _event(two.stream) == two.version + 1, "the next version heard is the move's"


async def test_moves_are_heard_again_after_the_listening_connection_is_cut(two):
    (listener,) = await _listening(two.conn)
    assert await two.conn.fetchval("SELECT pg_terminate_backend($1)", listener), "cut"
    await move(two.b)  # perhaps while nobody listens: read afresh once listening again
    assert await _event(two.stream) == two.version + 1
    await move(two.b)
    assert await _event(two.stream) == two.version + 2
    again = await _listening(two.conn)
    assert len(again) == 1 and again != [listener], "one connection listening, a new one"


async def test_pages_stop_listening_when_they_stop(postgres_url):
    store = await open_store(postgres_url)
    try:
        async with serving(Service(store, images=False), Web(port=0)):
            assert await _listeners(postgres_url, 1) == 1
        assert await _listeners(postgres_url, 0) == 0, "its connection closed with them"
    finally:
        await store.close()


async def _listeners(url: str, expected: int) -> int:
    """How many connections listen for moves on the database, waiting a while for
    ``expected`` (a closed connection's backend leaves the server's list soon after)."""
    conn = await asyncpg.connect(url)
    try:
        for _ in range(100):
            count = len(await _listening(conn))
            if count == expected:
                return count
            await asyncio.sleep(0.05)
        return count
    finally:
        await conn.close()


async def _listening(conn: asyncpg.Connection) -> list[int]:
    """The server's processes that listen for moves on this database, by pid."""
    rows = await conn.fetch(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 "
        "AND datname = current_database()",
        APPLICATION,
    )
    return [row[0] for row in rows]
