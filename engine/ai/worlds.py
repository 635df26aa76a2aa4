"""What the AI may do with a seat's view: sample whole states that agree with it, and
judge a state from one seat's side.

Everything here goes through the engine contract only: ``sample`` (a state a view could
have come from, its hidden parts dealt afresh), ``legal``, ``apply``, ``awaited``,
``result``. A game's optional ``ai`` module (``Kit.ai``) may add
``evaluate(game, state, seat) -> float`` where its own scores are not the whole story
(Seven Bridges alone is judged against Euler).
"""

from __future__ import annotations

from typing import Any

from engine.ai.dice import Dice
from engine.core import Game, IllegalMove

#: how much more a won game is worth than a point of margin, so the search prefers a
#: sure win by one over a likely loss by a little
WIN = 1000.0


class Worlds:
    """One game's sampling and judging, as the search uses them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.own = getattr(game.kit.ai, "evaluate", None)

    def sample(self, view: Any, dice: Dice) -> Any:
        """A state consistent with ``view``, its hidden parts drawn by ``dice``."""
        return self.game.sample(view, dice.split())

    def evaluate(self, state: Any, seat: int) -> float:
        """How good ``state`` is for ``seat``: the game's own evaluation if it has one,
        else its score margin over the best rival, and a won game far above any margin."""
        if self.own is not None:
            return self.own(self.game, state, seat)
        return margin(self.game, state, seat)

    def apply(self, state: Any, seat: int, action: Any) -> Any | None:
        """The state after ``action``, or ``None`` where this sampled world refuses it."""
        try:
            return self.game.apply(state, seat, action).state
        except IllegalMove:
            return None

    def follow(self, state: Any, seat: int, action: Any) -> Any:
        """The state after ``action``, which ``legal(state, seat)`` has just listed."""
        return self.game.apply_listed(state, seat, action).state


def margin(game: Game, state: Any, seat: int) -> float:
    """``seat``'s score less the best other seat's (its own score, alone), plus
    :data:`WIN` for a game won outright and minus it for one lost."""
    result = game.result(state)
    mine = result.scores[seat]
    others = [score for other, score in enumerate(result.scores) if other != seat]
    value = float(mine - max(others)) if others else float(mine)
    if game.is_over(state):
        place = result.places[seat]
        shared = result.places.count(1) > 1
        value += 0.0 if place == 1 and shared else WIN if place == 1 else -WIN
    return value
