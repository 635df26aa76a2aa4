"""Dominoes, double-six or double-nine: the game's only resource, and the special pilots
among them.

Each domino of a set is unique, so a domino's two ends name it; we always write
the smaller end first (``3-5``). Face up, a domino is a plane's pilot or a loaded
boat; face down it is a bridge section, a cannon, a bought reserve or the pool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_TEXT = re.compile(r"([0-9])\s*[-|/:]?\s*([0-9])")
#: the highest end of the largest set there is an option for (double-nine)
HIGHEST = 9


@dataclass(frozen=True, order=True)
class Domino:
    """One domino, smaller end first."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high <= HIGHEST:
            raise ValueError(f"no double-nine domino has ends {self.low} and {self.high}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_ghost(self) -> bool:
        """The double blank: a plane that never bombs but lends one re-roll."""
        return self.high == 0

    @property
    def is_ace(self) -> bool:
        """The blank-one: a plane that always hits."""
        return (self.low, self.high) == (0, 1)

    def shows(self, number: int) -> bool:
        """Whether either end carries ``number`` (a blank end is 0, which no die shows)."""
        return number in (self.low, self.high)

    @classmethod
    def of(cls, a: int, b: int) -> Domino:
        return cls(min(a, b), max(a, b))

    @classmethod
    def parse(cls, text: str) -> Domino | None:
        """``3-5``, ``5-3``, ``3|5`` or ``35``; ``None`` if it is no domino."""
        m = _TEXT.fullmatch(text.strip())
        return cls.of(int(m.group(1)), int(m.group(2))) if m else None


def domino_set(top: int) -> tuple[Domino, ...]:
    """Every domino of the double-``top`` set, in a fixed order (a pool is a shuffle of it)."""
    return tuple(Domino(a, b) for a in range(top + 1) for b in range(a, top + 1))


#: the rulebook's set: 28 dominoes
DOUBLE_SIX = domino_set(6)
GHOST = Domino(0, 0)


def sortie_cost(plane: Domino) -> int:
    """Coins to send ``plane`` on a bombing run: the ghost flies free, the ace costs two."""
    if plane.is_ghost:
        return 0
    return 2 if plane.is_ace else 1


def run_cost(planes: Iterable[Domino]) -> int:
    """Coins a bombing run of ``planes`` costs, paid only when it flies."""
    return sum(sortie_cost(p) for p in planes)
