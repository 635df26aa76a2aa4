"""Level hard, reply search: each candidate judged by the best answer to it.

Where a rollout of a few random-ish moves says little (hundreds of placements a turn,
most of them quiet), looking exactly one action further does better: every candidate is
played, then the next mover's every legal action is tried, and the candidate is worth
the position after the answer that suits the seat least (a rival's move: the rival is
assumed to hurt the seat most, "paranoid" in more than two) or most (the seat's own
next action in a turn of several). Answers that refuted an earlier candidate are tried
first, and, when one sampled world decides the value (games with no hidden state, such
as Bridge Wars), a candidate is dropped as soon as one answer leaves it no better than
the best so far (alpha-beta's cut-off), so most candidates cost a few actions, not
hundreds. A candidate after which the seat moves again is worth its best next action,
with no cut-off: no game that uses this search has turns of several actions yet, and
such a candidate is judged more hopefully than one that hands the turn over.
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
    for number, (_, action, first) in enumerate(ranking[: min(search.width, search.iterations)]):
        if number and work.spent(search):
            break
        total = 0.0
        for index, world in enumerate(sampled):
            # the ranking played the action in the first world already
            after = first if index == 0 else worlds.apply(world, seat, action)
            work.applied += index > 0
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
    own = mover == seat
    value = -math.inf if own else math.inf
    best, tried = None, []
    if not own:
        # the answers that refuted earlier candidates first, before listing the rest:
        # most candidates fall to one of them, and then nothing needs listing
        for killer in killers:
            after = worlds.apply(state, mover, killer)  # checked: it was listed elsewhere
            if after is None:
                continue
            v = worlds.evaluate(after, seat)
            work.applied += 1
            tried.append(killer)
            if v < value:
                value, best = v, killer
            if value <= alpha:
                _remember(killers, best)
                return value
    options = game.legal(state, mover)
    if not options:
        return worlds.evaluate(state, seat)
    for option in options:
        if option in tried:
            continue
        v = worlds.evaluate(worlds.follow(state, mover, option), seat)
        work.applied += 1
        if (v > value) if own else (v < value):
            value, best = v, option
            if not own and value <= alpha:
                break
    if not own and best is not None:
        _remember(killers, best)
    return value


def _remember(killers: list[Any], answer: Any) -> None:
    """``answer`` was a candidate's best answer (most often one that refuted it): try it
    first from now on (the last eight kept)."""
    if answer in killers:
        killers.remove(answer)
    killers.insert(0, answer)
    del killers[8:]
