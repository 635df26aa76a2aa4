"""Level normal: one step of greed on the game's own score.

Every legal action is tried once, in one state sampled from the seat's view, and the
one leaving the seat furthest ahead is played; ties (most moves change no score) are
broken at random. It looks no further, so it walks into what the next player does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.dice import Dice
from engine.ai.worlds import Worlds


def pick(worlds: Worlds, view: Any, seat: int, legal: Sequence[Any], dice: Dice) -> Any:
    world = worlds.sample(view, dice)
    return ranked(worlds, world, seat, legal, dice)[0][1]


def ranked(
    worlds: Worlds, world: Any, seat: int, legal: Sequence[Any], dice: Dice
) -> list[tuple[float, Any, Any]]:
    """Each action with the value it leaves ``seat`` one step on and the state it leads
    to (``None`` where this world refuses it), best first; equal values in a random order
    (the search prunes its candidates with this, and goes on from those states)."""
    scored = []
    for action in legal:
        after = worlds.apply(world, seat, action)
        value = float("-inf") if after is None else worlds.evaluate(after, seat)
        scored.append((value, dice.below(1 << 30), action, after))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [(value, action, after) for value, _, action, after in scored]
