"""Pictures of positions kept once drawn, for the pages (:mod:`bot.service.pages`): a board,
a whole game's GIF or a player's hand is drawn once per position however many readers ask,
and the latest kept in memory."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

#: boards kept in memory (20-170 KB each, 10-40 MB in all): enough for the replays of
#: the games being read at once
BOARDS_KEPT = 256


T = TypeVar("T")


class Boards(Generic[T]):
    """Pictures of positions, each drawn once: by key, the most recently used kept, and
    a picture asked for again while it is being drawn waits for that drawing."""

    def __init__(self, kept: int = BOARDS_KEPT) -> None:
        self.kept = kept
        self._done: OrderedDict[tuple[int, ...], T] = OrderedDict()
        self._drawing: dict[tuple[int, ...], asyncio.Future[T | None]] = {}
        self.drawn = 0  # pictures drawn so far (the rest were kept ones)

    async def get(self, key: tuple[int, ...], draw: Callable[[], Awaitable[T | None]]) -> T | None:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        future = self._drawing[key] = asyncio.get_running_loop().create_future()
        try:
            picture = await draw()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # read: nobody else may be waiting for it
            raise
        finally:
            del self._drawing[key]
        self.drawn += 1
        future.set_result(picture)
        if picture is None:  # lost with its drawing worker: drawn again when asked again
            return None
        self._done[key] = picture
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        return picture


@dataclass(frozen=True)
class Board:
    """A position's picture, and the name of the position: the same name, the same picture."""

    png: bytes
    tag: str
