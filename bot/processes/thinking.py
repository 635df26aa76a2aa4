"""AI players think in worker processes, so a thinking AI never delays anyone's move.

An AI's decision (``engine.ai.choose``) is pure Python and may take a few hundred
milliseconds at ``hard``: on the event loop it would hold every other game's click for
that long. Here it runs in a process pool (:class:`Thinkers`), given only the seat's
view and its legal actions, never the state. Without a pool (the terminal, the tests)
it runs in a thread, off the loop all the same. A decision that takes longer than
:data:`THINK_AT_MOST` is given up for a random legal move, decided at once: a stuck AI
must not stall its game, and a fallback that thinks would take the event loop's core.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

import engine
import engine.ai

log = logging.getLogger(__name__)

#: seconds an AI may think before the bot settles for a quicker move
THINK_AT_MOST = 10.0
#: how much lower the AI workers' priority is than the bot's and the drawing workers': when
#: more AI players think than the cores can serve, people's moves and boards go first
NICE = 10
#: worker processes for AI players' decisions: a move at ``hard`` takes up to ~0.3 s of
#: CPU, and AI seats move seconds apart, so one process keeps them all off the event loop
AI_PROCESSES = 1


def decide(game_key: str, view: Any, legal: Sequence[Any], level: str, seed: int) -> Any:
    """What the AI at ``level`` plays from ``view``: run in a worker, by name, so only the
    view and the legal actions cross to it."""
    return engine.ai.choose(engine.get(game_key), view, legal, level, seed)


class Thinkers:
    """A pool of worker processes for AI decisions."""

    def __init__(self, processes: int) -> None:
        context = multiprocessing.get_context("forkserver")
        self._pool = ProcessPoolExecutor(
            processes, mp_context=context, initializer=os.nice, initargs=(NICE,)
        )

    async def decide(
        self, game_key: str, view: Any, legal: Sequence[Any], level: str, seed: int
    ) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, decide, game_key, view, list(legal), level, seed
        )

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


@contextmanager
def thinkers(processes: int) -> Iterator[Thinkers]:
    pool = Thinkers(processes)
    try:
        yield pool
    finally:
        pool.close()


async def think(
    pool: Thinkers | None, game_key: str, view: Any, legal: Sequence[Any], level: str, seed: int
) -> Any:
    """The AI's action, decided off the event loop, within :data:`THINK_AT_MOST` seconds."""
    if pool is not None:
        deciding = pool.decide(game_key, view, legal, level, seed)
    else:
        deciding = asyncio.to_thread(decide, game_key, view, legal, level, seed)
    try:
        return await asyncio.wait_for(deciding, THINK_AT_MOST)
    except TimeoutError:  # the workers are swamped: a random legal move costs nothing
        log.warning("an AI at %s in %s took too long; it plays a random move", level, game_key)
        return decide(game_key, view, legal, "easy", seed)
