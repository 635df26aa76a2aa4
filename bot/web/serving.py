"""Serving the pages on the running event loop: the bot's own (beside Discord), the
terminal's, or alone (``python -m bot web``)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace

from aiohttp import web

from bot.config import Web
from bot.service import Service
from bot.web.app import app

log = logging.getLogger(__name__)

#: seconds a stopping server waits for requests under way (a live stream ends at once)
STOP_WITHIN = 2.0


class CannotServe(OSError):
    """The pages' address cannot be listened on (taken, or not this machine's)."""


@asynccontextmanager
async def serving(service: Service, where: Web) -> AsyncIterator[Served]:
    """Serve ``service``'s pages at ``where`` until the block ends, their live streams
    hearing every process's moves (the store's :meth:`~bot.store.interface.Store.hearing`);
    raises :class:`CannotServe`, naming ``BRIDGEKEEPER_WEB``, when the address is not free."""
    runner = web.AppRunner(app(service, where.login), access_log=None, shutdown_timeout=STOP_WITHIN)
    await runner.setup()
    try:
        site = web.TCPSite(runner, where.host, where.port)
        try:
            await site.start()
        except OSError as exc:
            raise CannotServe(
                f"The games' pages cannot be served at {where.host}:{where.port} "
                f"({exc.strerror or exc}): set BRIDGEKEEPER_WEB to a free host:port, or to "
                "off for no pages."
            ) from None
        if where.port == 0:  # any free port (tests): the one taken
            where = replace(where, port=runner.addresses[0][1])
        pages = Served(service, where)
        service.pages.site = where.base
        service.pages.shared = where.base if where.shared else None
        log.info("serving the games' pages at %s (the links begin %s)", pages.listening, where.base)
        async with service.context.store.hearing(service.context.changes):
            yield pages
    finally:
        await runner.cleanup()


class Served:
    """The pages being served: where, and each game's link."""

    def __init__(self, service: Service, where: Web) -> None:
        self.service = service
        self.where = where

    @property
    def listening(self) -> str:
        return f"http://{self.where.host}:{self.where.port}"

    async def link(self, game_id: int) -> str:
        """The whole address of game ``game_id``'s page, as its readers reach it."""
        return self.where.base + await self.service.pages.path(game_id)


@asynccontextmanager
async def beside(service: Service, where: Web | None) -> AsyncIterator[Served | None]:
    """Serve the pages while something else runs (the bot, the terminal): None when they
    are off, or, said in the log, when their address is taken: the rest goes on without."""
    async with AsyncExitStack() as stack:
        served = None
        if where is not None:
            try:
                served = await stack.enter_async_context(serving(service, where))
            except CannotServe as exc:
                log.error("%s Going on without them.", exc)
        yield served
