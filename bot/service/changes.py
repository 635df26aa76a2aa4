"""Which games have just moved, for whoever watches them live in this process.

A game's page holds a stream open (``bot.web``) and shows a move as soon as it is
made: :meth:`Answers.position <bot.service.answers.Answers.position>`, the answer to
every change of a position (a move, a take-back, a start), calls :meth:`Changes.moved`
once the change is stored. Moves made by another process sharing the database (a
second bot or page process on one PostgreSQL) reach :meth:`moved` through the store,
which decides how it hears them (:meth:`bot.store.interface.Store.hearing`), while the
pages are served (:mod:`bot.web.serving`). A version may so be heard twice (this
process's own move, told by the service and by the server): each watcher hears it once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterator
from contextlib import contextmanager

#: what a watcher's queue holds: a game's new version, or None when watching is over
Heard = int | None


class Changes:
    """Watchers of games in this process, each with a queue of the versions it hears."""

    def __init__(self) -> None:
        self._watchers: dict[int, set[asyncio.Queue[Heard]]] = {}
        #: the newest version told of each watched game
        self._told: dict[int, int] = {}

    def moved(self, game_id: int, version: int) -> None:
        """Game ``game_id`` stands at ``version`` now: tell everyone watching it, unless
        they were told of that version or a newer one (versions only ever grow)."""
        watchers = self._watchers.get(game_id)
        if not watchers or version <= self._told.get(game_id, -1):
            return
        self._told[game_id] = version
        for queue in watchers:
            queue.put_nowait(version)

    def watched(self) -> Collection[int]:
        """The games watched now."""
        return self._watchers.keys()

    @contextmanager
    def watch(self, game_id: int) -> Iterator[asyncio.Queue[Heard]]:
        """A queue of game ``game_id``'s versions as it moves, until the block ends."""
        queue: asyncio.Queue[Heard] = asyncio.Queue()
        self._watchers.setdefault(game_id, set()).add(queue)
        try:
            yield queue
        finally:
            watchers = self._watchers[game_id]
            watchers.discard(queue)
            if not watchers:
                del self._watchers[game_id]
                self._told.pop(game_id, None)

    def close(self) -> None:
        """Tell every watcher that watching is over (the process is stopping)."""
        for watchers in self._watchers.values():
            for queue in watchers:
                queue.put_nowait(None)

    @property
    def watching(self) -> int:
        """How many watchers there are now, over every game."""
        return sum(len(w) for w in self._watchers.values())
