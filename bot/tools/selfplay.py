"""Whole games of random legal moves through the service: a smoke test and a load source."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine
from bot.service import Caller, Reply, Service, Table


@dataclass(frozen=True)
class Played:
    moves: int
    final: Reply


def robots(count: int) -> list[Caller]:
    return [Caller(user_id=100 + i, name=f"P{i + 1}") for i in range(count)]


async def play_random(
    service: Service,
    table: Table,
    game_key: str,
    players: int,
    rng: random.Random,
    seed: int | None = None,
    on_move: Callable[[float, Reply], None] | None = None,
) -> Played:
    """Open, fill, start and finish one game, picking uniformly among legal moves.

    ``on_move`` gets each move's service time in seconds and its reply.
    """
    seats = robots(players)
    by_id = {c.user_id: c for c in seats}
    await service.lobby.create(table, seats[0], game_key, seed=seed)
    for caller in seats[1:]:
        await service.lobby.join(table, caller)
    reply = await service.lobby.start(table, seats[0])
    moves = 0
    limit = 10_000
    while reply.playable:
        if moves >= limit:
            raise RuntimeError(f"{game_key} did not finish in {limit} moves")
        caller = by_id[rng.choice(reply.awaiting)]
        options = await service.play.legal_moves(table, caller)
        started = time.perf_counter()
        reply = await service.play.move(table, caller, rng.choice(options))
        if on_move:
            on_move(time.perf_counter() - started, reply)
        moves += 1
    return Played(moves, reply)


def known_game(key: str) -> str:
    if key not in engine.GAMES:
        raise SystemExit(f"no game {key!r}; known games: {', '.join(sorted(engine.GAMES))}")
    return key
