"""AI against AI through the engine: how strong each level is, and what a move costs.

``python -m bot arena <game> --a hard --b normal --games N --seed S`` plays N two-player
games, ``--a`` in seat 0 of the even games and seat 1 of the odd ones, and prints one
JSON line from ``--a``'s side: wins, losses, draws, the mean score margin, and the CPU
time (``time.process_time``) of ``--a``'s decisions, median and 99th percentile, every
one counted (a forced move costs next to nothing); and from the seats' side, whoever
played them, the games each seat won (``seat_wins``: the balance between seats, such as
Bridges and Boats' attacker and defender) and the mean number of turns a game lasted;
``stalled``: the games ``--a`` and the other lost on time, having played
:data:`TURN_ACTIONS` actions in one turn (play by post's clock, which the arena has not).
``--option name=value`` (repeatable) plays the game with its options, checked as
``/game new`` checks them. ``mc100`` (``bot.tools.reference``) is a level of the arena's
own, a plain Monte Carlo player built on the engine contract alone: the yardstick our
levels are measured against. ``--b euler`` plays Seven Bridges alone against the rulebook's
Euler instead, and adds ``--a``'s and Euler's mean scores.

Each seat decides from its own view and the legal actions only (``engine.ai``); the
game's seed (its deck, its dice) and the AIs' seeds come from separate streams of
``--seed``, so a line is the same on every run but for the CPU figures — with ``--jobs
2`` too, which plays the games in two worker processes (a game is played whole in one
of them, from seeds drawn in order beforehand).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import engine
from bot.tools import reference
from bot.tools.figures import percentile
from engine import ai
from engine.core import BadOptions, Game, Resign, Rng

EULER = "euler"
#: the levels the arena plays: the bot's own, and the reference opponent
LEVELS = (*ai.LEVELS, reference.LEVEL)
#: a game that has not ended after this many actions is a bug worth stopping for
MOVE_LIMIT = 20_000
#: a seat that plays this many actions without the turn passing has run out its clock, as
#: a player who never ends a turn does in play by post: it resigns (a level that shuttles
#: on free moves, as mc100 can in Seven Cities, would otherwise never end the game)
TURN_ACTIONS = 300


@dataclass(frozen=True)
class Outcome:
    """One game from ``--a``'s side: its place against the other's (-1 won, 0 drew,
    1 lost), the score margin, the scores (alone: ``--a``'s and Euler's) and the CPU
    time of each of ``--a``'s decisions; and the seat that won (None: a draw, or alone)
    and the turns the game lasted."""

    verdict: int
    margin: float
    score: float
    rival: float
    cpu_ms: tuple[float, ...]
    winner: int | None = None
    turns: int = 0
    #: whose clock ran out: 0 ``--a``'s, 1 the other's, None nobody's
    stalled: int | None = None


@dataclass(frozen=True)
class Match:
    """Everything one game needs, so it can be played in any process."""

    key: str
    a: str
    b: str
    a_seat: int
    game_seed: int
    ai_seed: int
    budget: int | None
    options: tuple[tuple[str, str], ...] = ()  # the game's options, as stored


def run(
    key: str,
    a: str,
    b: str,
    games: int,
    seed: int,
    budget: int | None = None,
    emit: Callable[[str], None] = print,
    jobs: int = 1,
    options: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Play the match and emit its line; the line's fields, for tests and benches.

    With ``jobs`` above 1 the games are shared among that many worker processes; each
    game's seeds are drawn here, in order, so the line is the one a single process
    would print (but for the CPU figures, which are never the same twice).
    """
    game = engine.get(key)
    _check(game, a, b, jobs)
    written = checked_options(game, options or {}, 1 if b == EULER else 2)
    matches = fixtures(key, a, b, games, seed, budget, tuple(written.items()))
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(play, matches))
    else:
        outcomes = [play(match) for match in matches]
    cpu_ms = [ms for outcome in outcomes for ms in outcome.cpu_ms]
    line: dict[str, Any] = {
        "game": key,
        "a": a,
        "b": b,
        "games": games,
        "seed": seed,
        "options": written,
        "wins": sum(o.verdict < 0 for o in outcomes),
        "losses": sum(o.verdict > 0 for o in outcomes),
        "draws": sum(o.verdict == 0 for o in outcomes),
        "margin": round(sum(o.margin for o in outcomes) / max(1, games), 2),
        "cpu_ms_p50": round(percentile(cpu_ms, 0.50), 2) if cpu_ms else 0.0,
        "cpu_ms_p99": round(percentile(cpu_ms, 0.99), 2) if cpu_ms else 0.0,
        "seat_wins": [sum(o.winner == seat for o in outcomes) for seat in (0, 1)],
        "turns": round(sum(o.turns for o in outcomes) / max(1, games), 2),
        "stalled": [sum(o.stalled == side for o in outcomes) for side in (0, 1)],
    }
    if b == EULER:
        line["score"] = round(sum(o.score for o in outcomes) / max(1, games), 2)
        line["euler"] = round(sum(o.rival for o in outcomes) / max(1, games), 2)
    emit(json.dumps(line))
    return line


def checked_options(game: Game, options: Mapping[str, str], players: int) -> dict[str, str]:
    """``options`` as ``/game new`` checks them (an option of another game named, each
    value read by its spec, the whole game opened once), in their stored spelling; a
    refusal ends the command with its sentence."""
    try:
        engine.check_option_owners(game, options)
        written = game.written_options(options)
        game.new(players, written, 0)
    except BadOptions as exc:
        raise SystemExit(str(exc)) from None
    return written


def fixtures(
    key: str,
    a: str,
    b: str,
    games: int,
    seed: int,
    budget: int | None,
    options: tuple[tuple[str, str], ...] = (),
) -> list[Match]:
    """The match's games, in order: ``a`` in seat 0 of the even ones and seat 1 of the odd
    ones (alone against Euler, always seat 0), each game's seeds drawn from ``seed``."""
    streams = Rng.from_seed(seed)
    matches = []
    for number in range(games):
        game_seed, streams = streams.next64()
        ai_seed, streams = streams.next64()
        a_seat = 0 if b == EULER else number % 2
        matches.append(Match(key, a, b, a_seat, game_seed, ai_seed, budget, options))
    return matches


def play(match: Match) -> Outcome:
    """One game of the match, alone against Euler or seat against seat."""
    game = engine.get(match.key)
    if match.b == EULER:
        levels, players = {0: match.a}, 1
    else:
        levels, players = {match.a_seat: match.a, 1 - match.a_seat: match.b}, 2
    cpu_ms: list[float] = []
    state = game.new(players, dict(match.options), match.game_seed)
    state, turns, stalled = _play(
        game, state, levels, match.a_seat, match.ai_seed, match.budget, cpu_ms
    )
    by = None if stalled is None else int(stalled != match.a_seat)
    result = game.result(state)
    if match.b == EULER:
        mine, rival = result.scores[0], game.view(state, 0).euler_total
        verdict = (mine < rival) - (mine > rival)
        return Outcome(verdict, mine - rival, mine, rival, tuple(cpu_ms), turns=turns, stalled=by)
    seat, other = match.a_seat, 1 - match.a_seat
    verdict = (result.places[seat] > result.places[other]) - (
        result.places[seat] < result.places[other]
    )
    margin = result.scores[seat] - result.scores[other]
    winner = None if result.places[0] == result.places[1] else result.places.index(1)
    scores = result.scores[seat], result.scores[other]
    return Outcome(verdict, margin, *scores, tuple(cpu_ms), winner, turns, by)


def _check(game: Game, a: str, b: str, jobs: int) -> None:
    if jobs < 1:
        raise SystemExit("--jobs is the number of worker processes: 1 or more.")
    for level in (a, b):
        if level == EULER:
            continue
        if level not in LEVELS:
            raise SystemExit(f"There is no AI level {level!r}; the levels are {', '.join(LEVELS)}.")
    if a == EULER:
        raise SystemExit("Euler is the rulebook's opponent: give him as --b, not --a.")
    if b == EULER and game.info.key != "seven-bridges":
        raise SystemExit("Only Seven Bridges has Euler, its solo opponent.")
    if b != EULER and not game.info.min_players <= 2 <= game.info.max_players:
        raise SystemExit(f"{game.info.name} is not for two players.")


def _play(
    game: Game,
    state: Any,
    levels: dict[int, str],
    timed: int,
    ai_seed: int,
    budget: int | None,
    cpu_ms: list[float],
) -> tuple[Any, int, int | None]:
    """Every awaited seat decides from its own view until the game ends; the CPU time
    of ``timed``'s decisions is kept. Returns the last state, the turns played (one
    more each time the seat to move changes) and the seat whose clock ran out
    (:data:`TURN_ACTIONS`), if one did."""
    seeds = Rng.from_seed(ai_seed)
    turns, mover, in_turn, stalled = 0, None, 0, None
    for _ in range(MOVE_LIMIT):
        if game.is_over(state):
            return state, turns, stalled
        seat = next(iter(game.awaited(state)))
        in_turn = in_turn + 1 if seat == mover else 1
        turns += seat != mover
        mover = seat
        if in_turn > TURN_ACTIONS:
            state, stalled = game.apply(state, seat, Resign()).state, seat
            continue
        move_seed, seeds = seeds.next64()
        legal = game.legal(state, seat)
        view = game.view(state, seat)
        started = time.process_time()
        if levels[seat] == reference.LEVEL:
            action = reference.choose(game, view, legal, move_seed)
        else:
            action = ai.choose(game, view, legal, levels[seat], move_seed, budget)
        if seat == timed:
            cpu_ms.append((time.process_time() - started) * 1000)
        state = game.apply(state, seat, action).state
    raise RuntimeError(f"{game.info.key} did not finish in {MOVE_LIMIT} actions")
