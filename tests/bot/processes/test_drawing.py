"""Boards drawn by worker processes: the same picture as drawn in the bot, every board
answered to the move that asked for it, and a dead worker costing one board only."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest

import engine
from bot.processes.drawing import DrawingFailed, drawers
from bot.service import BOARD_LOST, Service, Table
from bot.store import SQLiteStore
from bot.tools.selfplay import robots
from renders import render

GAME = engine.get("skybridge")
NAMES = ["Ada", "Bea", "Cy"]


def positions(count: int) -> list:
    """Spectator views of one game after each of its first ``count`` moves."""
    rng, state, views = random.Random(3), GAME.new(3, None, 3), []
    for _ in range(count):
        seat = GAME.to_play(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat))).state
        views.append(GAME.view(state, None))
    return views


async def test_workers_draw_the_same_board_as_the_bot_would() -> None:
    view = positions(12)[-1]
    with drawers(1) as workers:
        png = await workers.draw("skybridge", view, NAMES)
    assert png == render("skybridge", view, NAMES)


async def test_many_boards_at_once_each_reach_the_move_that_asked() -> None:
    views = positions(20)
    with drawers(2) as workers:
        pngs = await asyncio.gather(*(workers.draw("skybridge", v, NAMES) for v in views))
    assert pngs == [render("skybridge", v, NAMES) for v in views]
    assert len(set(pngs)) == len(views)


async def test_a_renderer_error_reaches_the_caller_and_the_worker_goes_on() -> None:
    view = positions(3)[-1]
    with drawers(1) as workers:
        with pytest.raises(KeyError):
            await workers.draw("no-such-game", view, NAMES)
        assert await workers.draw("skybridge", view, NAMES) == render("skybridge", view, NAMES)


async def test_a_worker_that_dies_loses_one_board_and_is_replaced() -> None:
    views = positions(6)
    with drawers(1) as workers:
        await workers.draw("skybridge", views[0], NAMES)  # started and warmed up
        (dead,) = workers.pids
        held = asyncio.ensure_future(workers.draw("skybridge", views[1], NAMES))
        queued = asyncio.ensure_future(workers.draw("skybridge", views[2], NAMES))
        await asyncio.sleep(0)  # the first is handed to the worker, the second waits
        os.kill(dead, signal.SIGKILL)
        with pytest.raises(DrawingFailed):
            await held
        assert await queued == render("skybridge", views[2], NAMES)
        assert workers.pids != [dead]


async def test_a_worker_that_died_idle_is_replaced_before_it_is_missed() -> None:
    view = positions(4)[-1]
    with drawers(1) as workers:
        await workers.draw("skybridge", view, NAMES)
        (dead,) = workers.pids
        os.kill(dead, signal.SIGKILL)
        time.sleep(0.5)  # gone before the loop has looked at its pipe again
        assert await workers.draw("skybridge", view, NAMES) == render("skybridge", view, NAMES)
        assert workers.pids != [dead]


async def test_a_move_whose_board_is_lost_still_stands(tmp_path, caplog) -> None:
    store = await SQLiteStore.open(tmp_path / "drawing.db")
    try:
        with drawers(1) as workers:
            service = Service(store, drawers=workers)
            table, (ada, bea) = Table(7, 1), robots(2)
            await service.lobby.create(table, ada, "skybridge", seed=1)
            await service.lobby.join(table, bea)
            started = await service.lobby.start(table, ada)
            assert started.image and started.image.startswith(b"\x89PNG")
            first = started.awaiting[0]
            mover = ada if first == ada.user_id else bea
            move = (await service.play.legal_moves(table, mover))[0]
            # the worker dies while it holds the move's board: stopped first, so neither
            # its death nor an answer can come before the board is handed to it
            os.kill(workers.pids[0], signal.SIGSTOP)
            moving = asyncio.create_task(service.play.move(table, mover, move))
            while not any(worker.boards for worker in workers._workers):
                await asyncio.sleep(0.01)
            os.kill(workers.pids[0], signal.SIGKILL)
            reply = await moving
            again = await service.looking.board(table)  # what the notice tells them to do
        assert reply.image is None
        assert BOARD_LOST in reply.text
        assert again.image and again.image.startswith(b"\x89PNG")
        assert BOARD_LOST not in again.text
        assert reply.version == started.version + 1
        assert "no board for game" in caplog.text
        assert (await store.moves(reply.game_id))[-1].action == move
    finally:
        await store.close()
