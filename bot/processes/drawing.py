"""Boards drawn in worker processes, fed straight from the event loop.

Pillow holds the GIL for most of a board, so boards drawn in threads share one core
with the event loop; worker processes let every core draw. ``concurrent.futures``'
process pool would do, but it hands each board through two helper threads of the bot's
process and back into the loop through a third: measured at 300 games, 0.8 ms of the
bot's CPU a board, against 0.4 ms here (docs/bench.md). Here the loop itself writes a
request to a worker's pipe and reads the answer when the pipe turns readable. A worker
holds at most :data:`HELD` boards and the rest wait their turn in the bot, so no pipe
fills and no write blocks the loop. A worker that dies fails only the board it was
drawing (:class:`DrawingFailed`) and is replaced.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger(__name__)


class DrawingFailed(RuntimeError):
    """The worker drawing a board died: the board is lost, the game is not."""


def warm() -> None:
    """In each worker, once: import the renderers, load their fonts and let every game
    draw what its boards share (palettes, blank boards), so no move waits for it."""
    from renders import LOOKS
    from renders.common import font

    for size in range(10, 40):
        font(size, True)
        font(size, False)
    for each in LOOKS.values():
        each.warm()


def _serve(pipe: Connection) -> None:
    """A worker: draw each board asked for, until the bot closes the pipe.

    Workers run at a lower priority than the bot: when the cores are all busy, the
    event loop (Discord's heartbeat, the database, handing out boards) goes first."""
    from renders import render

    os.nice(NICE)
    warm()
    while True:
        try:
            game_key, view, names = pickle.loads(pipe.recv_bytes())
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, render(game_key, view, names))
        except Exception as exc:  # the renderer's own error, raised again in the bot
            answer = (False, exc)
        pipe.send_bytes(pickle.dumps(answer, pickle.HIGHEST_PROTOCOL))


#: how much lower the workers' priority is than the bot's
NICE = 5

#: boards a worker holds: the one it draws and the next, so that it never waits for the
#: loop between two boards (at capacity the loop is busy, and one board each left the
#: two cores 8% idle); the rest wait in the bot, in order, for whichever frees first
HELD = 2


@dataclass
class _Worker:
    process: BaseProcess
    pipe: Connection
    boards: deque[tuple[bytes, asyncio.Future[bytes]]] = field(default_factory=deque)


class Drawers:
    """``processes`` workers drawing boards for the running event loop."""

    def __init__(self, processes: int) -> None:
        # forkserver, not fork: the bot already runs threads (SQLite's), which a forked
        # child must not inherit mid-lock
        self._context = multiprocessing.get_context("forkserver")
        self._loop = asyncio.get_running_loop()
        self._waiting: deque[tuple[bytes, asyncio.Future[bytes]]] = deque()
        self._workers = [self._start() for _ in range(processes)]

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def draw(self, game_key: str, view: Any, names: Sequence[str]) -> bytes:
        """The PNG of ``view``, drawn by the next free worker."""
        board = self._loop.create_future()
        request = pickle.dumps((game_key, view, list(names)), pickle.HIGHEST_PROTOCOL)
        self._waiting.append((request, board))
        self._hand_out()
        return await board

    def close(self) -> None:
        """Stop the workers; boards not drawn yet are cancelled."""
        for worker in self._workers:
            self._loop.remove_reader(worker.pipe.fileno())
            worker.pipe.close()
        for worker in self._workers:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
            self._waiting.extend(worker.boards)
        for _, board in self._waiting:
            board.cancel()
        self._workers, self._waiting = [], deque()

    def _start(self) -> _Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, mine)
        self._loop.add_reader(mine.fileno(), self._answered, worker)
        return worker

    def _hand_out(self) -> None:
        """Give waiting boards to the workers holding fewest, up to :data:`HELD` each."""
        while self._waiting:
            worker = min(self._workers, key=lambda w: len(w.boards))
            if len(worker.boards) >= HELD:
                return
            request, board = self._waiting.popleft()
            try:
                worker.pipe.send_bytes(request)
            except OSError:  # it died: the board goes to its replacement
                self._waiting.appendleft((request, board))
                self._replace(worker)
                continue
            worker.boards.append((request, board))

    def _answered(self, worker: _Worker) -> None:
        try:
            ok, value = pickle.loads(worker.pipe.recv_bytes())
        except (EOFError, OSError):
            self._replace(worker)
        else:
            _, board = worker.boards.popleft()  # a worker answers in the order it was asked
            if not board.done():
                if ok:
                    board.set_result(value)
                else:
                    board.set_exception(value)
        self._hand_out()

    def _replace(self, worker: _Worker) -> None:
        """Start another worker in place of a dead one. The board it was drawing is lost;
        the one it held next goes back to the front of the queue."""
        log.error("a drawing worker (pid %s) died; starting another", worker.process.pid)
        self._loop.remove_reader(worker.pipe.fileno())
        worker.pipe.close()
        worker.process.join(1)
        if worker.boards:
            _, lost = worker.boards.popleft()
            if not lost.done():
                lost.set_exception(DrawingFailed("the worker drawing this board stopped"))
        self._waiting.extendleft(reversed(worker.boards))
        self._workers[self._workers.index(worker)] = self._start()


@contextmanager
def drawers(processes: int) -> Iterator[Drawers]:
    """``processes`` drawing workers for the running loop, stopped on the way out."""
    workers = Drawers(processes)
    try:
        yield workers
    finally:
        workers.close()
