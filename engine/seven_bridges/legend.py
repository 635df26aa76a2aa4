"""The map legend's seven items: what each counts in a drawing, the scale bars, and the
card they add up to (rulebook "Scoring", RULINGS §1.4, §1.8).

Everything here is a function of what a player drew plus their bonus column, so a score
can be shown at any moment of the game, not only at the end; who wins is
:mod:`engine.seven_bridges.scoring`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.seven_bridges.board import CITY, SIZE
from engine.seven_bridges.bonuses import Bonuses
from engine.seven_bridges.lines import OPPOSITE, SQUARE_ARM, arm
from engine.seven_bridges.loops import best_loop
from engine.seven_bridges.network import BRIDGE_ARMS, Loop

ITEMS = ("loop", "bridges", "landmarks", "buildings", "trees", "grid", "drafting")
LANDMARK_ARMS = tuple(1 << arm(*lm.arm) for lm in CITY.landmarks)
BUILDING_ARMS = tuple(sum(1 << arm(*a) for a in seen) for seen in CITY.buildings)
TREE_ARMS = tuple(sum(1 << arm(*a) for a in seen) for seen in CITY.trees)
EXITS = tuple((1 << arm(*a), value) for a, value in CITY.exits)
TOTAL_BUILDINGS = len(CITY.buildings)
TOTAL_TREES = len(CITY.trees) + CITY.hidden_count
TOTAL_GRID = sum(value for _, value in CITY.exits)


def _ring_arms() -> int:
    """The 16 arms of the street ring round landmark H's block."""
    ring = CITY.hidden_ring
    out = 0
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        d = {-SIZE: 0, 1: 1, SIZE: 2, -1: 3}[b - a]
        out |= 1 << SQUARE_ARM[a][d] | 1 << SQUARE_ARM[b][OPPOSITE[d]]
    return out


HIDDEN_RING = _ring_arms()


def bridge_scale(crossed: int) -> int:
    """Bridges crossed scale bar: n squared (1, 4, 9, ... 49)."""
    return crossed * crossed


def landmark_scale(visited: int) -> int:
    """Landmarks visited scale bar: 1, 3, 6, ... 45, and 45 for 9 or more."""
    n = min(visited, 9)
    return n * (n + 1) // 2


def crossed(drawn: int) -> tuple[int, ...]:
    """The numbers of the bridges crossed: both of a bridge's arms drawn."""
    return tuple(b.number for b, m in zip(CITY.bridges, BRIDGE_ARMS, strict=True) if drawn & m == m)


def visited(drawn: int) -> tuple[str, ...]:
    """The letters of the landmarks visited: the arm passing the letter drawn."""
    return tuple(
        lm.letter for lm, m in zip(CITY.landmarks, LANDMARK_ARMS, strict=True) if drawn & m
    )


def buildings_seen(drawn: int) -> int:
    return sum(1 for m in BUILDING_ARMS if drawn & m)


def trees_seen(drawn: int) -> int:
    """Visible trees passed, plus H's hidden ones once the whole ring round H is drawn."""
    seen = sum(1 for m in TREE_ARMS if drawn & m)
    return seen + (CITY.hidden_count if drawn & HIDDEN_RING == HIDDEN_RING else 0)


def grid_score(drawn: int) -> int:
    """Grid squares: the values beside every map edge a line reaches."""
    return sum(value for m, value in EXITS if drawn & m)


@dataclass(frozen=True)
class Scorecard:
    items: tuple[int, ...]  # in ITEMS order
    crossed: int
    visited: int
    counted: tuple[int, ...]  # indices of the items that make the total
    total: int
    loop: Loop


def best_items(items: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The indices of the ``k`` best items (ties: earlier legend item first)."""
    order = sorted(range(len(items)), key=lambda i: (-items[i], i))
    return tuple(sorted(order[:k]))


@lru_cache(maxsize=4096)  # the computer players score the same sheets again and again
def scorecard(drawn: int, bonuses: Bonuses, chosen: tuple[str, ...] | None = None) -> Scorecard:
    """A player's seven items and total.

    ``chosen`` is ``None`` in the standard game (one item per bridge crossed, the best
    ones); with the advanced rule it holds the items picked at each crossing.
    """
    loop = best_loop(drawn)
    n_crossed = len(crossed(drawn))
    n_visited = len(visited(drawn))
    items = (
        loop.score,
        bridge_scale(n_crossed),
        landmark_scale(n_visited),
        buildings_seen(drawn),
        trees_seen(drawn),
        grid_score(drawn),
        bonuses.drafting_score(),
    )
    if chosen is None:
        counted = best_items(items, n_crossed)
    else:
        counted = tuple(sorted(ITEMS.index(item) for item in chosen))
    return Scorecard(items, n_crossed, n_visited, counted, sum(items[i] for i in counted), loop)


def total_from_items(items: tuple[int, ...], n_crossed: int) -> int:
    """The standard total: the best ``n_crossed`` of the seven items."""
    return sum(items[i] for i in best_items(items, n_crossed))
