"""Live pages across processes on one PostgreSQL: a page served by one process hears a
move another process commits (LISTEN/NOTIFY, no other broker), never one rolled back,
and still hears moves after its listening connection is cut, a move made meanwhile
included. Two services on two stores of one database, as two processes have."""

from __future__ import annotations

import asyncio

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


@pytest.fixture
async def two(postgres_url):
    """Process A serving pages and process B making moves, on one database; and an
    open live stream of B's game on A's page."""
    stores = [await open_store(postgres_url), await open_store(postgres_url)]
    a, b = (Service(store, images=False, seed=lambda: 12345) for store in stores)
    game_id = await skybridge(b, 1)
    try:
        async with serving(a, Web(port=0)) as served, aiohttp.ClientSession() as http:
            url = served.listening + await a.pages.path(game_id) + "/events"
            async with http.get(url) as stream:
                yield a, b, stream, game_id, postgres_url
    finally:
        for store in stores:
            await store.close()


async def version_of(service: Service) -> int:
    return (await service.games.active(TABLE)).row.version


async def test_a_page_in_one_process_hears_a_move_made_in_another(two):
    a, b, stream, _, _ = two
    version = await version_of(b)
    assert stream.headers["X-Accel-Buffering"] == "no", "a proxy in front passes events on"
    assert await _event(stream) == version, "the version now, first"
    await move(b)
    assert await _event(stream) == version + 1
    await move(b)
    assert await _event(stream) == version + 2, "each move once, in order"
    await move(a)  # A's own move: told by its service and by the server, heard once
    await move(b)
    assert [await _event(stream), await _event(stream)] == [version + 3, version + 4]


async def test_a_write_rolled_back_tells_no_page(two):
    _, b, stream, game_id, url = two
    version = await version_of(b)
    assert await _event(stream) == version
    conn = await asyncpg.connect(url)
    try:
        with pytest.raises(RuntimeError):
            async with conn.transaction():
                await conn.execute("UPDATE games SET version = version + 5 WHERE id = $1", game_id)
                raise RuntimeError("rolled back")
    finally:
        await conn.close()
    await move(b)
    assert await _event(stream) == version + 1, "the next version heard is the real move's"


async def test_moves_are_heard_again_after_the_listening_connection_is_cut(two):
    _, b, stream, _, url = two
    version = await version_of(b)
    assert await _event(stream) == version
    conn = await asyncpg.connect(url)
    try:
        killed = await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = $1 AND datname = current_database()",
            APPLICATION,
        )
        assert [r[0] for r in killed] == [True], "one process listening, its connection cut"
        await move(b)  # perhaps while nobody listens: read afresh once listening again
        assert await _event(stream) == version + 1
        await move(b)
        assert await _event(stream) == version + 2
        listening = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 "
            "AND datname = current_database()",
            APPLICATION,
        )
        assert listening == 1
    finally:
        await conn.close()


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
            count = await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 "
                "AND datname = current_database()",
                APPLICATION,
            )
            if count == expected:
                return count
            await asyncio.sleep(0.05)
        return count
    finally:
        await conn.close()
