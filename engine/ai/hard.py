"""Level hard: a search over states sampled from the view (determinization); by default
Monte Carlo rollouts (information-set MCTS at the root).

The seat cannot see the whole state, so it samples several states that agree with its
view (``Worlds.sample``: other hands, the deck, face-down dominoes and future dice drawn
afresh) and searches those. The legal actions are first ranked by one greedy step and
the best few kept; then each iteration takes the next sampled world, picks a candidate
by UCB1, plays it there, lets every seat play on for a few actions (each the best of a
few random legal ones, judged one step ahead from the mover's side) and judges the
outcome from the seat's side. The candidate with the best mean outcome is played.

Every world and every draw comes from the seed, and the work is a fixed number of
iterations of bounded length, cut short once a fixed number of actions has been tried
(``Search.work``): what the search does, and how long it takes, follow from the view,
never from what it hides.

Where rollouts say little, a game's settings may ask instead for the reply search
(``Search.reply``, ``engine.ai.reply``): every candidate judged by the best answer to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.ai import normal, reply
from engine.ai.dice import Dice
from engine.ai.search import Search, Work
from engine.ai.worlds import WIN, Worlds


def pick(
    worlds: Worlds, view: Any, seat: int, legal: Sequence[Any], dice: Dice, search: Search
) -> tuple[Any, Work]:
    work = Work()
    if len(legal) == 1:
        return legal[0], work
    sampled = [worlds.sample(view, dice) for _ in range(max(1, search.worlds))]
    work.worlds = len(sampled)
    if search.reply:
        return reply.pick(worlds, sampled, seat, legal, dice, search, work), work
    ranking = normal.ranked(worlds, sampled[0], seat, legal, dice)
    work.applied += len(legal)
    candidates = [action for _, action, _ in ranking[: search.width]]
    visits = [0] * len(candidates)
    totals = [0.0] * len(candidates)
    low, high = math.inf, -math.inf
    for i in range(search.iterations):
        if work.spent(search):
            break
        c = _select(visits, totals, i, (high - low) * search.explore)
        after = worlds.apply(sampled[i % len(sampled)], seat, candidates[c])
        work.applied += 1
        value = -2 * WIN if after is None else _rollout(worlds, after, seat, dice, search, work)
        visits[c] += 1
        totals[c] += value
        low, high = min(low, value), max(high, value)
    means = [t / v if v else -math.inf for t, v in zip(totals, visits, strict=True)]
    chosen = max(range(len(candidates)), key=lambda c: (means[c], visits[c], -c))
    return candidates[chosen], work


def _select(visits: list[int], totals: list[float], played: int, scale: float) -> int:
    """UCB1: every candidate once, then the best mean plus a bonus for few visits."""
    for c, n in enumerate(visits):
        if n == 0:
            return c
    log = math.log(played)

    def score(c: int) -> float:
        return totals[c] / visits[c] + scale * math.sqrt(log / visits[c])

    return max(range(len(visits)), key=score)


def _rollout(
    worlds: Worlds, state: Any, seat: int, dice: Dice, search: Search, work: Work
) -> float:
    """Play on for ``search.depth`` actions, then judge the position from ``seat``'s side."""
    game = worlds.game
    last, passed = seat, 0
    for _ in range(search.depth):
        if game.is_over(state):
            break
        movers = tuple(game.awaited(state))
        mover = movers[0] if len(movers) == 1 else dice.choice(movers)
        passed += mover != last
        last = mover
        if search.turns and passed >= search.turns:
            break
        options = game.legal(state, mover)
        if not options:
            break
        tried = dice.sample(options, search.greed) if search.greed else options
        best, best_value = state, -math.inf
        for action in tried:
            after = worlds.follow(state, mover, action)
            work.applied += 1
            value = worlds.evaluate(after, mover) if len(tried) > 1 else 0.0
            if value > best_value:
                best, best_value = after, value
        state = best
    return worlds.evaluate(state, seat)
