"""``mc100``: the arena's reference opponent, a plain determinized flat Monte Carlo player.

Every strength claim about our own levels is measured against it, so it is built on the
engine contract alone (``sample``, ``legal``, ``apply``, ``awaited``, ``result``) and
shares nothing with ``engine.ai``'s search: not its ranking, its rollouts or a game's own
evaluation. It judges a position by the plain score margin of its result
(:func:`engine.ai.worlds.margin`, which no game tunes). For each decision it

1. samples one state from the seat's view and ranks every legal action by the score
   margin one step on, keeping the best :data:`CANDIDATES`;
2. deals :data:`ROLLOUTS` rollouts round-robin over those candidates: each samples a fresh
   state from the view, plays the candidate there, lets whoever is awaited play uniformly
   random legal actions for :data:`DEPTH` actions, and scores the margin from the seat's
   side (a won game far above any margin);
3. plays the candidate with the best mean.

Its chance comes from the seed it is given, so the arena's lines replay exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.worlds import WIN, Worlds, margin
from engine.core import Game, Rng

LEVEL = "mc100"
CANDIDATES = 20
ROLLOUTS = 100
DEPTH = 20


def choose(game: Game, view: Any, legal: Sequence[Any], seed: int) -> Any:
    """The action ``view``'s seat plays among ``legal`` (what ``game.legal`` listed)."""
    seat = view.seat
    if len(legal) == 1:
        return legal[0]
    rng, worlds = Rng.from_seed(seed), Worlds(game)
    world, rng = _sample(game, view, rng)
    ranked = []
    for index, action in enumerate(legal):
        after = worlds.apply(world, seat, action)
        value = -2 * WIN if after is None else margin(game, after, seat)
        tie, rng = rng.below(1 << 30)
        ranked.append((value, tie, index))
    ranked.sort(reverse=True)
    candidates = [legal[index] for _, _, index in ranked[:CANDIDATES]]
    totals = [0.0] * len(candidates)
    visits = [0] * len(candidates)
    for rollout in range(ROLLOUTS):
        c = rollout % len(candidates)
        world, rng = _sample(game, view, rng)
        after = worlds.apply(world, seat, candidates[c])
        if after is None:  # this sampled world refuses it: count it as a loss
            value = -2 * WIN
        else:
            value, rng = _play_on(game, after, seat, rng)
        totals[c] += value
        visits[c] += 1
    means = [total / max(1, n) for total, n in zip(totals, visits, strict=True)]
    return candidates[max(range(len(candidates)), key=lambda c: (means[c], -c))]


def _sample(game: Game, view: Any, rng: Rng) -> tuple[Any, Rng]:
    seed, rng = rng.next64()
    return game.sample(view, Rng.from_seed(seed)), rng


def _play_on(game: Game, state: Any, seat: int, rng: Rng) -> tuple[float, Rng]:
    """Uniformly random legal actions for :data:`DEPTH` actions, then the margin."""
    for _ in range(DEPTH):
        if game.is_over(state):
            break
        movers = tuple(game.awaited(state))
        pick, rng = rng.below(len(movers))
        mover = movers[pick]
        options = game.legal(state, mover)
        if not options:
            break
        pick, rng = rng.below(len(options))
        state = game.apply_listed(state, mover, options[pick]).state
    return margin(game, state, seat), rng
