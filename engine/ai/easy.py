"""Level easy: a uniformly random legal move — the baseline every other level is
measured against, and what any game offers with no AI module at all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.dice import Dice


def pick(legal: Sequence[Any], dice: Dice) -> Any:
    return dice.choice(legal)
