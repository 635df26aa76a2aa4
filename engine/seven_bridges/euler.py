"""Euler, the solo opponent (rulebook "Rules for solo play", RULINGS §1.8).

Euler sits in the second drafting position, takes three dice a turn like a two-player
opponent, never draws anything and never uses bonuses. At the end he scores items 2–7
from everything the player left: the bridges not crossed, the landmarks not visited, and
so on; his loop item is always 0.
"""

from __future__ import annotations

from engine.seven_bridges.board import CITY
from engine.seven_bridges.bonuses import total_bonus_value
from engine.seven_bridges.dice import KINDS
from engine.seven_bridges.legend import (
    TOTAL_BUILDINGS,
    TOTAL_GRID,
    TOTAL_TREES,
    Scorecard,
    bridge_scale,
    landmark_scale,
)

POSITION = 1  # Euler is player 2, so he rolls first in rounds 2 and 4


def pick(dice: tuple[int, ...], available: tuple[int, ...]) -> int:
    """The die Euler drafts: the lowest value; among equals a die of the 3-horse type
    (denying 3-horses to later re-rolls); then the lowest-numbered die."""
    return min(available, key=lambda die: (dice[die], -KINDS[die], die))


def items(player: Scorecard) -> tuple[int, ...]:
    """Euler's seven items, computed from the player's card."""
    return (
        0,
        bridge_scale(len(CITY.bridges) - player.crossed),
        landmark_scale(len(CITY.landmarks) - player.visited),
        TOTAL_BUILDINGS - player.items[3],
        TOTAL_TREES - player.items[4],
        TOTAL_GRID - player.items[5],
        total_bonus_value() - player.items[6],
    )


def total(player: Scorecard) -> int:
    """Euler's score: items 2 to 7, however many bridges the player crossed."""
    return sum(items(player))
