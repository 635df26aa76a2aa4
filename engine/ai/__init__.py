"""Computer players for every game, at three levels, deciding from a seat's view alone.

``choose(game, view, legal, level, seed, budget)`` is the whole interface: the seat's
view (``game.view(state, seat)``), the legal actions the caller listed for it, a level,
a seed for the AI's own chance, and for ``hard`` how many search iterations it may spend.
It never takes a state — it refuses one — so an AI cannot cheat by reading hands, the
deck or future dice; ``hard`` samples what they might be instead (``worlds``). The same
inputs always give the same move after the same work, so neither the move nor the time
it takes can reveal a secret the view does not show. docs/ai.md describes each level
and its measured strength.

- ``easy``: a uniformly random legal action;
- ``normal``: one greedy step on the game's own score (``normal``);
- ``hard``: a search over states sampled from the view (``hard``): Monte Carlo
  rollouts, or, where a game's settings ask for it, the reply search (``reply``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.ai import easy, hard, normal
from engine.ai.dice import Dice
from engine.ai.search import Search
from engine.ai.worlds import Worlds
from engine.core import Game

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Decision:
    """The action chosen and what choosing it took: hidden states sampled and actions
    tried in them (equal for every secret behind one view)."""

    action: Any
    worlds: int = 0
    applied: int = 0


def search_for(game: Game, seat: int | None = None) -> Search:
    """The search settings tuned for ``game`` (its AI module's ``SEARCH``), or the default.

    Where the seats play different sides (Bridges and Boats' attacker and defender), a
    game may tune each: ``SEARCH`` is then a mapping from seat to settings, and ``seat``
    picks one (the first seat's without one)."""
    settings = getattr(game.kit.ai, "SEARCH", None) or Search()
    if isinstance(settings, Mapping):
        return settings[seat or 0]
    return settings


def decide(
    game: Game,
    view: Any,
    legal: Sequence[Any],
    level: str,
    seed: int,
    budget: int | None = None,
) -> Decision:
    """The move ``view``'s seat makes at ``level``, with the work it took.

    ``budget`` is ``hard``'s number of search iterations — rollouts, or candidates the
    reply search judges (default: the game's tuned number); the other levels need none.
    Raises ``TypeError`` for anything but the game's own view, and ``ValueError`` for a
    spectator's view, no legal action or an unknown level.
    """
    seat = _seat(game, view)
    if not legal:
        raise ValueError("There is no legal action to choose from.")
    if level not in LEVELS:
        raise ValueError(f"No AI level {level!r}; the levels are {', '.join(LEVELS)}.")
    dice = Dice(seed)
    if level == "easy":
        return Decision(easy.pick(legal, dice))
    worlds = Worlds(game)
    if level == "normal":
        return Decision(normal.pick(worlds, view, seat, legal, dice), 1, len(legal))
    search = search_for(game, seat)
    if budget is not None:
        search = replace(search, iterations=budget)
    action, work = hard.pick(worlds, view, seat, legal, dice, search)
    return Decision(action, work.worlds, work.applied)


def choose(
    game: Game,
    view: Any,
    legal: Sequence[Any],
    level: str,
    seed: int,
    budget: int | None = None,
) -> Any:
    """The action :func:`decide` picks."""
    return decide(game, view, legal, level, seed, budget).action


def _seat(game: Game, view: Any) -> int:
    """The seat ``view`` belongs to; a state, or any other game's view, is refused."""
    expected = game.kit.view.View
    if not isinstance(view, expected):
        raise TypeError(
            f"The AI decides from a seat's view ({expected.__module__}.View, made by "
            f"game.view(state, seat)), not from a {type(view).__module__}."
            f"{type(view).__name__}."
        )
    if view.seat is None:
        raise ValueError("A spectator's view has no seat to play for.")
    return view.seat


__all__ = ["LEVELS", "Decision", "Search", "choose", "decide", "search_for"]
