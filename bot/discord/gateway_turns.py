"""When a shard may connect: the processes sharing one bot token take turns to IDENTIFY.

Discord lets a bot start ``max_concurrency`` gateway sessions every 5 seconds, one in each
*bucket* (``shard_id % max_concurrency``), and 1,000 a day; past the day's count it resets
the bot's token. discord.py spaces out the shards of one process (5 s between two
identifies), but knows nothing of other processes: two started together identify
together, and Discord refuses one. So before each identify a shard takes its bucket's
turn in the database every process shares (:meth:`~bot.store.interface.Leases.take_turn`:
held :data:`BUCKET_SECONDS` by the database's own clock, so the hosts' clocks need not
agree), and asks Discord how many starts the day has left, waiting for the count to reset
rather than spend the last. A database that cannot be reached holds no shard back: it
waits as discord.py's own hook would, and connects.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from bot.store import CannotSave, Store, StoreFault

if TYPE_CHECKING:
    from discord.types.gateway import SessionStartLimit

#: how long an identify holds its bucket: Discord's 5 s window, and a margin for the
#: moment between taking the turn and the identify reaching Discord
BUCKET_SECONDS = 5.5
#: the wait before an identify when the database cannot be asked (discord.py's own)
UNCOORDINATED_SECONDS = 5.0

#: what Discord says of the day's gateway starts (``session_start_limit`` of
#: ``GET /gateway/bot``): ``remaining``, ``reset_after`` (ms), ``max_concurrency``, as
#: discord.py types it or as any mapping of those numbers; None when it could not be asked
Limits = Callable[[], Awaitable["SessionStartLimit | Mapping[str, int] | None"]]

log = logging.getLogger(__name__)


class IdentifyTurns:
    """Takes a shard's turn to connect, among every process on the database."""

    def __init__(self, store: Store, holder: str, limits: Limits) -> None:
        self.store = store
        self.holder = holder
        self.limits = limits

    async def take(self, shard_id: int) -> None:
        """Return once shard ``shard_id`` may identify."""
        limit = await self.limits() or {}
        concurrency = max(1, int(limit.get("max_concurrency", 1)))
        if limit.get("remaining", 1) <= 0:
            wait = limit.get("reset_after", 0) / 1000
            log.error(
                "Discord allows this bot no more gateway starts today (it resets the token "
                "of a bot that goes on): shard %d waits %g s for the count to reset",
                shard_id, wait,
            )  # fmt: skip
            await asyncio.sleep(wait)
        name = f"identify: bucket {shard_id % concurrency} of {concurrency}"
        try:
            while (wait := await self.store.take_turn(name, self.holder, BUCKET_SECONDS)) > 0:
                await asyncio.sleep(wait)
        except (CannotSave, StoreFault) as exc:
            log.warning(
                "shard %d could not take its turn to connect in the database (%s): it waits "
                "%g s and connects, as one process alone would", shard_id, exc,
                UNCOORDINATED_SECONDS,
            )  # fmt: skip
            await asyncio.sleep(UNCOORDINATED_SECONDS)
