"""Every board in words, from the same view its picture is drawn from.

A screen reader cannot see a board, and a terminal shows none: each game's module here
reads a view aloud — the game, whose turn it is, the scores, the last move, then the
position as a sighted player takes it in at a glance. Like the renderers, these get a
*view* and never a state, so a public description cannot tell a hidden value.
``DESCRIBERS`` maps a game key to one, as :data:`renders.RENDERERS` does for pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from renders.text import bridge_wars, bridges_and_boats, seven_bridges, seven_cities, skybridge

DESCRIBERS: dict[str, Callable[[Any, Sequence[str]], str]] = {
    "skybridge": skybridge.describe,
    "bridges-and-boats": bridges_and_boats.describe,
    "bridge-wars": bridge_wars.describe,
    "seven-bridges": seven_bridges.describe,
    "seven-cities": seven_cities.describe,
}


#: what a seat's own picture shows beyond the public board, where the game has more
#: than a hand to tell (a hand is told by whoever shows the view: it is a list)
OWN_DESCRIBERS: dict[str, Callable[[Any, Sequence[str]], str]] = {
    "seven-bridges": seven_bridges.describe_own,
}


def describe_own(game_key: str, view: Any, names: Sequence[str]) -> str | None:
    """A seat's own ``view`` beyond the public board, in words, for the seat alone (a
    player's own sheet: its map and its score, item by item); None where it is only a
    hand, or nothing."""
    describer = OWN_DESCRIBERS.get(game_key)
    return None if describer is None else describer(view, names)


def describe(game_key: str, view: Any, names: Sequence[str]) -> str | None:
    """``view`` of the game ``game_key`` in words, one sentence or two a line, the most
    important first; None for a game that has no words yet (a test's stand-in game)."""
    describer = DESCRIBERS.get(game_key)
    return None if describer is None else describer(view, names)
