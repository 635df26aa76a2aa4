"""AI against AI through the engine: how strong each level is, and what a move costs.

``python -m bot arena <game> --a hard --b normal --games N --seed S`` plays N two-player
games, ``--a`` in seat 0 of the even games and seat 1 of the odd ones, and prints one
JSON line from ``--a``'s side: wins, losses, draws, the mean score margin, and the CPU
time (``time.process_time``) of ``--a``'s decisions, median and 99th percentile, every
one counted (a forced move costs next to nothing). ``--b euler`` plays Seven Bridges
alone against the rulebook's Euler instead, and adds ``--a``'s and Euler's mean scores.

Each seat decides from its own view and the legal actions only (``engine.ai``); the
game's seed (its deck, its dice) and the AIs' seeds come from separate streams of
``--seed``, so a line is the same on every run but for the CPU figures.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.tools.figures import percentile
from engine import ai
from engine.core import Game, Rng

EULER = "euler"
#: a game that has not ended after this many actions is a bug worth stopping for
MOVE_LIMIT = 20_000


@dataclass
class Tally:
    """``--a``'s record and the CPU time of each of its decisions."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    margins: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    rivals: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


def run(
    key: str,
    a: str,
    b: str,
    games: int,
    seed: int,
    budget: int | None = None,
    emit: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play the match and emit its line; the line's fields, for tests and benches."""
    game = engine.get(key)
    _check(game, a, b)
    streams = Rng.from_seed(seed)
    tally = Tally()
    for number in range(games):
        game_seed, streams = streams.next64()
        ai_seed, streams = streams.next64()
        if b == EULER:
            _solo(game, a, game_seed, ai_seed, budget, tally)
        else:
            _match(game, a, b, number % 2, game_seed, ai_seed, budget, tally)
    line: dict[str, Any] = {
        "game": key,
        "a": a,
        "b": b,
        "games": games,
        "seed": seed,
        "wins": tally.wins,
        "losses": tally.losses,
        "draws": tally.draws,
        "margin": round(sum(tally.margins) / max(1, len(tally.margins)), 2),
        "cpu_ms_p50": round(percentile(tally.cpu_ms, 0.50), 2) if tally.cpu_ms else 0.0,
        "cpu_ms_p99": round(percentile(tally.cpu_ms, 0.99), 2) if tally.cpu_ms else 0.0,
    }
    if b == EULER:
        line["score"] = round(sum(tally.scores) / max(1, games), 2)
        line["euler"] = round(sum(tally.rivals) / max(1, games), 2)
    emit(json.dumps(line))
    return line


def _check(game: Game, a: str, b: str) -> None:
    for level in (a, b):
        if level == EULER:
            continue
        if level not in ai.LEVELS:
            raise SystemExit(
                f"There is no AI level {level!r}; the levels are {', '.join(ai.LEVELS)}."
            )
    if a == EULER:
        raise SystemExit("Euler is the rulebook's opponent: give him as --b, not --a.")
    if b == EULER and game.info.key != "seven-bridges":
        raise SystemExit("Only Seven Bridges has Euler, its solo opponent.")
    if b != EULER and not game.info.min_players <= 2 <= game.info.max_players:
        raise SystemExit(f"{game.info.name} is not for two players.")


def _match(
    game: Game,
    a: str,
    b: str,
    a_seat: int,
    game_seed: int,
    ai_seed: int,
    budget: int | None,
    tally: Tally,
) -> None:
    levels = {a_seat: a, 1 - a_seat: b}
    state = _play(game, game.new(2, {}, game_seed), levels, a_seat, ai_seed, budget, tally)
    result = game.result(state)
    mine, theirs = result.places[a_seat], result.places[1 - a_seat]
    if mine < theirs:
        tally.wins += 1
    elif mine > theirs:
        tally.losses += 1
    else:
        tally.draws += 1
    tally.margins.append(result.scores[a_seat] - result.scores[1 - a_seat])


def _solo(
    game: Game, a: str, game_seed: int, ai_seed: int, budget: int | None, tally: Tally
) -> None:
    state = _play(game, game.new(1, {}, game_seed), {0: a}, 0, ai_seed, budget, tally)
    view = game.view(state, 0)
    mine, euler = game.result(state).scores[0], view.euler_total
    if mine > euler:
        tally.wins += 1
    elif mine < euler:
        tally.losses += 1
    else:
        tally.draws += 1
    tally.margins.append(mine - euler)
    tally.scores.append(mine)
    tally.rivals.append(euler)


def _play(
    game: Game,
    state: Any,
    levels: dict[int, str],
    timed: int,
    ai_seed: int,
    budget: int | None,
    tally: Tally,
) -> Any:
    """Every awaited seat decides from its own view until the game ends; the CPU time
    of ``timed``'s decisions is kept."""
    seeds = Rng.from_seed(ai_seed)
    for _ in range(MOVE_LIMIT):
        if game.is_over(state):
            return state
        seat = next(iter(game.awaited(state)))
        move_seed, seeds = seeds.next64()
        legal = game.legal(state, seat)
        view = game.view(state, seat)
        started = time.process_time()
        action = ai.choose(game, view, legal, levels[seat], move_seed, budget)
        if seat == timed:
            tally.cpu_ms.append((time.process_time() - started) * 1000)
        state = game.apply(state, seat, action).state
    raise RuntimeError(f"{game.info.key} did not finish in {MOVE_LIMIT} actions")
