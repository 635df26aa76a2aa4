"""Whole games of random legal moves through the service: a smoke test and a load source."""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import engine
from bot.service import Caller, Reply, Service, Table, player_count
from bot.store import open_store


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


async def run(args: argparse.Namespace) -> int:
    """``python -m bot selfplay``: ``--games`` games of ``args.game``, one line each; exit
    status 1 on the first that fails, naming its seed."""
    rules = engine.get(known_game(args.game))
    info = rules.info
    if args.players and not info.min_players <= args.players <= info.max_players:
        print(f"{info.name} is for {player_count(info)}, not {args.players}.", file=sys.stderr)
        return 2
    counts = [args.players] if args.players else list(range(info.min_players, info.max_players + 1))
    with tempfile.TemporaryDirectory(prefix="bridgekeeper-selfplay-") as tmp:
        store = await open_store(args.db or Path(tmp) / "selfplay.db")
        service = Service(store, images=args.images, seed=lambda: 0)
        rng = random.Random(args.seed)
        try:
            for n in range(args.games):
                players = counts[n % len(counts)]
                seed = args.seed * 100_003 + n
                try:
                    played = await play_random(
                        service,
                        Table(channel_id=10_000 + n, guild_id=1),
                        args.game,
                        players,
                        rng,
                        seed=seed,
                    )
                except Exception:  # the very thing selfplay is run to find: say which game
                    print(f"game {n + 1}: {players} players, seed {seed} FAILED", file=sys.stderr)
                    traceback.print_exc()
                    return 1
                summary = played.final.text.split("\n", 1)[-1].replace("\n", "; ")
                print(f"game {n + 1}: {players} players, {played.moves} moves — {summary}")
        finally:
            await store.close()
    return 0
