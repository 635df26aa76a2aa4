"""``python -m bot``: the Discord bot's process, with its drawing and thinking workers,
the shards' leases it holds on a shared database, and the games' pages served beside it."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Coroutine
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bot.config import BadSetting, Settings, Shards, Web
from bot.hosting import shard_claims
from bot.hosting.backups import checked_store, hold
from bot.processes.drawing import drawers
from bot.processes.holders import process_holder
from bot.processes.thinking import AI_PROCESSES, thinkers
from bot.service import Service
from bot.store import Target, backend
from bot.web.serving import beside


def render_processes(environ: dict[str, str] | None = None) -> int:
    """Worker processes drawing boards: ``BRIDGEKEEPER_RENDER_PROCESSES``, by default one
    per core on a machine with more than one (0: draw in threads of the bot's process).

    Pillow holds the GIL for much of a board, so threads share one core with the event
    loop; ``python -m bot bench --load --processes N`` shows the difference."""
    value = (os.environ if environ is None else environ).get("BRIDGEKEEPER_RENDER_PROCESSES")
    if value is not None and value.strip():
        return max(0, int(value))
    cores = os.cpu_count() or 1
    return cores if cores > 1 else 0


async def run_bot(settings: Settings) -> None:
    """Run the bot. On SQLite it holds the file's one-process lock: SQLite is one process,
    however many shards that process runs. PostgreSQL is shared by design: any number of
    processes, each with its own shards, share one database (docs/deploy.md)."""
    with ExitStack() as stack:
        if not backend(settings.db_path).shared:
            hold(stack, Path(settings.db_path))  # one process's database: a file
        await serve(settings.db_path, settings.token, settings.shards, web=settings.web)


async def serve(db_path: Target, token: str | None, shards: Shards, web: Web | None = None) -> None:
    assert token  # main() stops without one
    from bot.discord.callers import jump_link
    from bot.discord.client import Bridgekeeper

    log = logging.getLogger(__name__)
    processes = render_processes()
    log.info("drawing boards in %d worker processes", processes)
    store = await checked_store(db_path)
    holder = process_holder()
    shared = backend(db_path).shared  # else the file's lock already keeps a second process off
    try:
        if shared:
            try:
                await shard_claims.claim(store, shards, holder)
            except BadSetting as exc:
                raise SystemExit(str(exc)) from None
        log.info("connecting %s", shards.describe())
        with ExitStack() as stack:
            workers = stack.enter_context(drawers(processes)) if processes else None
            pool = stack.enter_context(thinkers(AI_PROCESSES))
            service = Service(store, link=jump_link, drawers=workers, thinkers=pool)
            await service.games.check_stored()
            client = Bridgekeeper(
                service,
                shard_ids=list(shards.ids) if shards.ids is not None else None,
                shard_count=shards.count,
            )
            async with client, beside(service, web):
                if shared:
                    await _holding(client.start(token), shard_claims.keep(store, shards, holder))
                else:
                    await client.start(token)
    finally:
        if shared:
            await shard_claims.release(store, shards, holder)
        await store.close()


async def _holding(connected: Coroutine[Any, Any, None], keep: Coroutine[Any, Any, None]) -> None:
    """Stay connected while the shards' leases are kept: if another process takes one,
    stop (a SystemExit saying so), never running a shard twice."""
    keeper, running = asyncio.create_task(keep), asyncio.create_task(connected)
    try:
        await asyncio.wait({keeper, running}, return_when=asyncio.FIRST_COMPLETED)
        if not running.done():
            try:
                keeper.result()
            except shard_claims.ShardLost as exc:
                raise SystemExit(str(exc)) from None
        await running
    finally:
        keeper.cancel()
        running.cancel()
        await asyncio.gather(keeper, running, return_exceptions=True)
