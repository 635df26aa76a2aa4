"""The defender's dice: one d6 per cannon, 2d6 for a plane to hit and 2d6 to aim.

Every die comes from the state's :class:`~engine.core.Rng`, so a replay throws the
same dice; what a throw means for a plane is decided here, once (RULINGS §5.5).
"""

from __future__ import annotations

from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import State
from engine.core import evolve

MISS, HIT, DEADLY = 0, 1, 2
HIT_WORDS = ("miss", "hit", "deadly")


def roll(state: State, count: int) -> tuple[tuple[int, ...], State]:
    """``count`` dice from the state's generator, and the state that has used them."""
    rng = state.rng
    dice = []
    for _ in range(count):
        value, rng = rng.below(6)
        dice.append(value + 1)
    return tuple(dice), evolve(state, rng=rng)


def hit_outcome(plane: Domino, dice: tuple[int, int]) -> int:
    """RULINGS §5.5: the sum equal to the pips hits; the dice equal to the two ends is
    deadly (so a blank end is never deadly); the ace always hits and is never deadly."""
    if plane.is_ace:
        return HIT
    if sorted(dice) == [plane.low, plane.high]:
        return DEADLY
    return HIT if sum(dice) == plane.pips else MISS


def rerolls(dice: tuple[int, int]) -> list[tuple[int, int]]:
    """Every result one die's re-roll could give: what the ghost pilot may offer."""
    first = [(v, dice[1]) for v in range(1, 7) if v != dice[0]]
    return first + [(dice[0], v) for v in range(1, 7) if v != dice[1]]
