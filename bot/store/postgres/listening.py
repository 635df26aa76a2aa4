"""Hearing every process's moves: PostgreSQL's LISTEN/NOTIFY, no other broker.

A write that bumps a game's version notifies channel :data:`CHANNEL` in its own
transaction (the ``game_moved`` trigger, ``migrations/postgres/0014_game_moved.sql``):
the server delivers it once the write commits, to every process listening, and never
for a write rolled back. A process serving pages listens on one connection of its own
(outside the pool: a pooled connection goes back to others' work) and tells its watchers.

A listening connection that is lost (the server restarted, a proxy cut it, a backend
terminated) hears nothing until it is back, and says nothing of it: it is watched (its
end, and a check every :data:`CHECK_EVERY` seconds for one that went silent), opened
again with growing pauses, and once it listens again every watched game's version is
read afresh and told, so a move made meanwhile still reaches its open pages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import asyncpg

from bot.store.interface import Watchers
from bot.store.targets import CONNECT_TIMEOUT_S

log = logging.getLogger("bot.store")

#: the channel every version bump is told on, its payload ``"<game id> <version>"``
CHANNEL = "bridgekeeper_moved"
#: how the listening connection names itself to the server (``pg_stat_activity``)
APPLICATION = "bridgekeeper-listener"
#: seconds between checks that the listening connection still answers
CHECK_EVERY = 10.0
#: seconds waited before opening a lost connection again: the first pause, the longest
FIRST_PAUSE, LONGEST_PAUSE = 0.2, 5.0


@asynccontextmanager
async def hearing(url: str, watchers: Watchers) -> AsyncIterator[None]:
    """Tell ``watchers`` of every version bump committed to the database at ``url``
    while the block runs. The block begins once the first attempt to listen is over
    (listening, or failed and to be tried again): pages served from then on hear moves."""
    first = asyncio.Event()
    task = asyncio.create_task(_listen(url, watchers, first))
    try:
        with suppress(TimeoutError):
            await asyncio.wait_for(first.wait(), CONNECT_TIMEOUT_S)
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


async def _listen(url: str, watchers: Watchers, first: asyncio.Event) -> None:
    """Listen, and listen again after every loss, until cancelled."""
    pause, again = FIRST_PAUSE, False
    while True:
        try:
            await _listen_once(url, watchers, first, again)
            log.warning("lost the connection hearing other processes' moves; listening again")
            pause = FIRST_PAUSE  # it listened: this loss starts the pauses afresh
        except Exception as exc:
            log.warning("not hearing other processes' moves (%s); listening again", exc)
        first.set()
        again = True
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)


async def _listen_once(url: str, watchers: Watchers, first: asyncio.Event, again: bool) -> None:
    """One connection's life: listen, catch up, and return once it is lost."""
    conn = await asyncpg.connect(
        url, timeout=CONNECT_TIMEOUT_S, server_settings={"application_name": APPLICATION}
    )
    try:
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: lost.set())

        def heard(_conn: object, _pid: int, _channel: str, payload: object) -> None:
            game_id, _, version = str(payload).partition(" ")
            if game_id.isdigit() and version.isdigit():
                watchers.moved(int(game_id), int(version))

        await conn.add_listener(CHANNEL, heard)
        # listening from here: a move committed after this read is told by the server
        watched = list(watchers.watched())
        if watched:
            rows = await conn.fetch(
                "SELECT id, version FROM games WHERE id = ANY($1::bigint[])", watched
            )
            for row in rows:
                watchers.moved(row["id"], row["version"])
        if again:
            log.info("hearing other processes' moves again")
        first.set()
        while not lost.is_set():
            with suppress(TimeoutError):
                await asyncio.wait_for(lost.wait(), CHECK_EVERY)
                break
            await conn.fetchval("SELECT 1", timeout=CHECK_EVERY)
    finally:
        conn.terminate()
