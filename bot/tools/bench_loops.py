"""Seven Bridges speed figures: best-loop scoring and legal-placement listing.

Networks come from whole games played through the engine by two policies: uniformly
random legal moves, and a greedy player that always draws whatever closes the most loops.
Of all final and late-game networks, the densest (most independent loops) are kept, and on
each the exact :func:`best_loop` (cache bypassed) is timed against
:func:`best_loop_reference` (every simple cycle enumerated in plain Python, no pruning), and
the answers (score, corners, bridges) are checked equal. Emits, one JSON object per line
like ``bot.tools.bench``:

- ``seven-bridges.loop_p99_ms``: best-loop time, 99th percentile;
- ``seven-bridges.loop_speedup``: total reference time / total best-loop time;
- ``seven-bridges.legal_p50_ms``, ``seven-bridges.legal_p99_ms``: ``legal()`` for the roller
  just after the roll in rounds 3 to 5, with six different faces out: every placement of
  all six dice, plus re-roll and distribute when the roller has the bonus. This replaces
  ``bot.tools.bench``'s generic figure, which for this game would mostly time positions with
  nothing to place (a roll to make, a bonus to choose).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from bot.tools.figures import Emit, metric, percentile
from engine.seven_bridges import SevenBridges
from engine.seven_bridges.actions import Action, Bonus, Pick
from engine.seven_bridges.loops import best_loop
from engine.seven_bridges.loops_reference import best_loop_reference
from engine.seven_bridges.network import Loop, links
from engine.seven_bridges.state import State, roller

T = TypeVar("T")

RULES = SevenBridges()
GAME = "seven-bridges"  # bot.tools.bench leaves this game's legal-move figures to this module


def _links_count(drawn: int) -> int:
    return sum(len(ds) for ds in links(drawn).values()) // 2


def _density(drawn: int) -> int:
    """Independent loops in the network: joins minus joined squares (plus parts)."""
    adj = links(drawn)
    return _links_count(drawn) - len(adj)


def _greedy(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The drawing action that closes the most loops, then joins the most squares."""
    drawing = [a for a in actions if isinstance(a, Pick | Bonus)]
    if not drawing:
        return rng.choice(actions)
    scored = []
    for action in drawing:
        drawn = RULES.apply(state, seat, action).state.seats[seat].drawn
        scored.append((_density(drawn), _links_count(drawn), rng.random(), action))
    return max(scored, key=lambda t: t[:3])[3]


def _rolled(state: State) -> bool:
    """A turn's dice just rolled, all six out, and the roller to pick with no bonus waiting."""
    return (
        not state.setup
        and not state.rolling
        and state.slot == 0
        and not any(p.pending or p.pending_items for p in state.seats)
    )


def _play(players: int, seed: int, greedy: bool) -> tuple[list[int], list[int], list[State]]:
    """One whole game: every seat's final network, networks sampled from rounds 3 to 5,
    and every position of those rounds where the roller has just rolled."""
    rng = random.Random(seed)
    state = RULES.new(players, None, seed)
    middle: list[int] = []
    picks: list[State] = []
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_play(state))
        actions = RULES.legal(state, seat)
        action = _greedy(state, seat, actions, rng) if greedy else rng.choice(actions)
        state = RULES.apply(state, seat, action).state
        if state.round >= 2 and rng.random() < 0.15:
            middle.append(state.seats[seat].drawn)
        if state.round >= 2 and not RULES.is_over(state) and _rolled(state):
            picks.append(state)
    return [p.drawn for p in state.seats], middle, picks


def _check(drawn: int, fast: Loop, plain: Loop) -> None:
    """Both searches must agree on score, corners and bridges. Two different loops may
    score the same, so where the corners and bridges differ the fast answer must be a real
    loop of ``drawn``: its arms, searched alone, are exactly that one loop."""
    if fast.score != plain.score:
        raise AssertionError(f"best loop {fast.score} != reference {plain.score} for {drawn:#x}")
    if (fast.corners, fast.bridges) == (plain.corners, plain.bridges):
        return
    if fast.arms & ~drawn or best_loop_reference(fast.arms) != fast:
        raise AssertionError(
            f"best loop {fast.corners} corners x {fast.bridges} bridges is not a loop of the "
            f"network; the reference has {plain.corners} x {plain.bridges}, for {drawn:#x}"
        )


def _time(fn: Callable[[int], T], drawn: int, repeat: int = 3) -> tuple[float, T]:
    """The best of ``repeat`` timings (as timeit does: the least disturbed run)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        answer = fn(drawn)
        best = min(best, time.perf_counter() - started)
    return best, answer


def _legal_time(state: State) -> float:
    """Time to list every legal move of the roller, with six different faces out."""
    seat = roller(state)
    full = replace(state, dice=(1, 2, 3, 4, 5, 6))
    started = time.perf_counter()
    RULES.legal(full, seat)
    return time.perf_counter() - started


async def run(emit: Emit = print, quick: bool = False) -> None:
    games = 3 if quick else 12
    finals: list[int] = []
    middles: list[int] = []
    positions: list[State] = []
    for g in range(games):
        for greedy in (False, True):
            ends, middle, picks = _play(2 + g % 5, 1000 + g, greedy)
            finals += ends
            middles += middle
            positions += picks
    networks = sorted(
        set(finals + middles), key=lambda d: (_density(d), _links_count(d)), reverse=True
    )
    densest = networks[: 10 if quick else 30]
    exact = best_loop.__wrapped__  # the cache would make repeats free
    mine: list[float] = []
    theirs: list[float] = []
    for drawn in densest:
        t_mine, a = _time(exact, drawn)
        t_ref, b = _time(best_loop_reference, drawn)
        _check(drawn, a, b)
        mine.append(t_mine)
        theirs.append(t_ref)
    metric(emit, "seven-bridges.loop_p99_ms", percentile(mine, 0.99) * 1000, "ms")
    metric(emit, "seven-bridges.loop_speedup", sum(theirs) / sum(mine), "x")
    legal = [_legal_time(state) for state in positions]
    metric(emit, f"{GAME}.legal_p50_ms", percentile(legal, 0.50) * 1000, "ms")
    metric(emit, f"{GAME}.legal_p99_ms", percentile(legal, 0.99) * 1000, "ms")
