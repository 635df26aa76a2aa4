"""What every feature of the service works over: one :class:`Context`.

A feature object (``lobby``, ``play``, ``undo``, …) takes the context and the other
features it uses in its constructor, so what each depends on is written down and
type-checked; nothing reaches another feature through a shared base class.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from weakref import WeakValueDictionary

from bot.domain.clocks import ai_pause
from bot.processes.drawing import Drawers
from bot.processes.holders import process_holder
from bot.processes.thinking import Thinkers
from bot.service.changes import Changes
from bot.service.replies import Table, default_link
from bot.service.states import ParsedStates
from bot.store import Settings, Store

#: how long work one process takes on (a due timer, a league's step, the daily posts)
#: stays its own: one that dies holding it leaves it to another process after this
LEASE = timedelta(minutes=5)
SETTINGS_FOR = 60.0  # seconds a user's settings are read again after
SETTINGS_KEPT = 10_000  # users whose settings are kept at most


def random_seed() -> int:
    """A fresh 63-bit seed: a new game's deal, an AI's chance."""
    return secrets.randbits(63)


@dataclass(eq=False)
class Context:
    """The store and the process's parts every feature shares: its drawers and thinkers
    (worker processes; None: in a thread of this one), the channel locks, the cache of
    users' settings and of games' parsed states, and who this process is in the leases it holds.

    ``seed`` deals each new game; ``ai_seed`` is an AI player's own chance, one draw a
    decision, never the game's (a terminal script fixes both to replay, and an AI drawing
    the same chance at every decision would repeat itself for ever where a step costs
    nothing). ``on_ai_waiting`` hears, in seconds, when an AI seat's pause ends after a
    change left a game waiting for it: the front end's timer loop runs then, not a
    minute on. ``images``: False draws no boards (tests, the bench, a text terminal).
    """

    store: Store
    images: bool = True
    link: Callable[[Table], str] = default_link
    seed: Callable[[], int] = random_seed
    ai_seed: Callable[[], int] = random_seed
    drawers: Drawers | None = None
    thinkers: Thinkers | None = None
    on_ai_waiting: Callable[[float], None] | None = None
    #: who this process is, in the leases it holds on work shared with other processes
    holder: str = field(default_factory=process_holder)
    #: who watches games move in this process (a game's live page)
    changes: Changes = field(default_factory=Changes)
    #: each game's newest state, parsed once
    states: ParsedStates = field(default_factory=ParsedStates, repr=False)
    _locks: WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=WeakValueDictionary, repr=False
    )
    _settings: dict[int, tuple[float, Settings]] = field(default_factory=dict, repr=False)

    def lock(self, table: Table) -> asyncio.Lock:
        """The channel's lock: a channel holds one live game, whose moves are taken in turn.
        It lives while a request holds or awaits it, so channels long quiet cost nothing."""
        lock = self._locks.get(table.channel_id)
        if lock is None:
            lock = self._locks[table.channel_id] = asyncio.Lock()
        return lock

    async def settings_of(self, user_id: int) -> Settings:
        """A user's settings, as read at most :data:`SETTINGS_FOR` seconds ago: nearly every
        move tells someone it is their turn, and their settings rarely change. This
        process's own changes replace the copy at once (:meth:`put_settings`); another
        process's are seen within that time."""
        read_at, settings = self._settings.get(user_id, (-SETTINGS_FOR, Settings()))
        if time.monotonic() - read_at >= SETTINGS_FOR:
            settings = await self.store.settings(user_id)
            if len(self._settings) >= SETTINGS_KEPT:
                self._settings.clear()
            self._settings[user_id] = (time.monotonic(), settings)
        return settings

    async def put_settings(self, user_id: int, settings: Settings) -> None:
        await self.store.put_settings(user_id, settings)
        self._settings[user_id] = (time.monotonic(), settings)

    def ai_awaited(self, game_id: int, version: int) -> None:
        """A game at ``version`` waits for an AI seat: tell the front end when it moves."""
        if self.on_ai_waiting is not None:
            self.on_ai_waiting(ai_pause(game_id, version).total_seconds())
