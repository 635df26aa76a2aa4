"""The AI's own chance: a seeded generator, never the game's.

The engine draws random numbers only from an :class:`~engine.core.Rng`; the AI does the
same, from the seed its caller gives, so a decision is a pure function of the view, the
legal actions, the level, the seed and the budget — and so is the work it takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.core import Rng

T = TypeVar("T")


class Dice:
    """A mutable holder of an :class:`Rng`, for the search's many small draws."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def below(self, n: int) -> int:
        value, self.rng = self.rng.below(n)
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Up to ``k`` distinct items, in random order."""
        if len(items) <= k:
            shuffled, self.rng = self.rng.shuffled(items)
            return list(shuffled)
        pool = list(items)
        picked = []
        for _ in range(k):
            picked.append(pool.pop(self.below(len(pool))))
        return picked

    def split(self) -> Rng:
        """A fresh generator for a sampled world's future chance (dice not yet rolled)."""
        value, self.rng = self.rng.next64()
        return Rng.from_seed(value)
