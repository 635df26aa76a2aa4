"""Level hard, reply search: each candidate judged by the best answer to it.

Where a rollout of a few random-ish moves says little (hundreds of placements a turn,
most of them quiet), looking exactly one action further does better: every candidate is
played, then the next mover's every legal action is tried, and the candidate is worth
the position after the answer that suits the seat least (a rival's move: the rival is
assumed to hurt the seat most, "paranoid" in more than two) or most (the seat's own
next action in a turn of several). Answers that refuted an earlier candidate are tried
first, and a candidate is dropped as soon as one answer leaves it no better than the
best so far (alpha-beta's cut-off), so most candidates cost a few actions, not hundreds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.ai import normal
from engine.ai.dice import Dice
from engine.ai.search import Search, Work
from engine.ai.worlds import Worlds


def pick(
    worlds: Worlds,
    sampled: list[Any],
    seat: int,
    legal: Sequence[Any],
    dice: Dice,
    search: Search,
    work: Work,
) -> Any:
    """The candidate (of the best ``search.width`` by one greedy step, and no more than
    ``search.iterations``) whose worst answer, averaged over the sampled worlds, is best;
    candidates after the first are judged only while the work cap allows."""
    ranking = normal.ranked(worlds, sampled[0], seat, legal, dice)
    work.applied += len(legal)
    killers: list[Any] = []
    best, alpha = ranking[0][1], -math.inf
    for number, (_, action) in enumerate(ranking[: min(search.width, search.iterations)]):
        if number and work.spent(search):
            break
        total = 0.0
        for world in sampled:
            after = worlds.apply(world, seat, action)
            work.applied += 1
            if after is None:
                total = -math.inf
                break
            # a cut-off is only sound when a single world decides the value
            cut = alpha if len(sampled) == 1 else -math.inf
            total += _answer(worlds, after, seat, killers, cut, dice, work)
        value = total / len(sampled)
        if value > alpha:
            best, alpha = action, value
    return best


def _answer(
    worlds: Worlds,
    state: Any,
    seat: int,
    killers: list[Any],
    alpha: float,
    dice: Dice,
    work: Work,
) -> float:
    """The seat's value once the next mover has answered ``state`` as the module
    docstring says; stops early, returning no more than ``alpha``, once an answer leaves
    the seat at ``alpha`` or below."""
    game = worlds.game
    if game.is_over(state):
        return worlds.evaluate(state, seat)
    movers = tuple(game.awaited(state))
    mover = movers[0] if len(movers) == 1 else dice.choice(movers)
    options = game.legal(state, mover)
    if not options:
        return worlds.evaluate(state, seat)
    own = mover == seat
    listed = set(options)
    first = [k for k in killers if k in listed]
    order = first + [o for o in options if o not in set(first)]
    value = -math.inf if own else math.inf
    best = None
    for option in order:
        after = worlds.follow(state, mover, option)
        work.applied += 1
        v = worlds.evaluate(after, seat)
        if (v > value) if own else (v < value):
            value, best = v, option
            if not own and value <= alpha:
                break
    if not own and best is not None:
        if best in killers:
            killers.remove(best)
        killers.insert(0, best)
        del killers[8:]
    return value
