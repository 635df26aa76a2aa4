"""The bonus columns beside the map (rulebook "Visiting landmarks", RULINGS §1.7).

IMMEDIATE USE: the six die shapes, each drawn once, at once, when chosen (the horse here
reaches 3 squares [P]). RESERVED USE: three re-roll/distribute bonuses taken and used top
to bottom, one per turn, and the footpaths bonus. Values are our reconstruction [P] and
total 40; only *used* bonuses score (drafting item).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seven_bridges.board import CITY
from engine.seven_bridges.dice import FACES

IMMEDIATE_VALUES = tuple(CITY.immediate_values[face] for face in FACES)  # by face value 1..6
REROLL_VALUES = CITY.reroll_values
FOOTPATHS_VALUE = CITY.footpaths_value
BONUS_HORSE_REACH = 6  # half squares: the immediate horse is a 3-horse [P]
REROLLS = len(REROLL_VALUES)

NOT_TAKEN, RESERVED, USED = 0, 1, 2


@dataclass(frozen=True)
class Bonuses:
    """One player's bonus column."""

    immediate: int = 0  # bit v set once the immediate shape of value v is used
    reserved: int = 0  # re-roll/distribute bonuses reserved so far (taken top to bottom)
    spent: int = 0  # ... and used so far
    footpaths: int = NOT_TAKEN

    @property
    def may_walk_footpaths(self) -> bool:
        return self.footpaths != NOT_TAKEN

    @property
    def reroll_ready(self) -> bool:
        return self.spent < self.reserved

    def immediate_free(self, v: int) -> bool:
        return not self.immediate >> v & 1

    def drafting_score(self) -> int:
        """Drafting item: the values of the bonuses actually used."""
        score = sum(IMMEDIATE_VALUES[v - 1] for v in range(1, 7) if self.immediate >> v & 1)
        score += sum(REROLL_VALUES[: self.spent])
        return score + (FOOTPATHS_VALUE if self.footpaths == USED else 0)


def total_bonus_value() -> int:
    return sum(IMMEDIATE_VALUES) + sum(REROLL_VALUES) + FOOTPATHS_VALUE
