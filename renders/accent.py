"""The colour a seat plays in, as its pieces are drawn: for a frame around a board post.

A board's post is about one seat more than any other (the one to play, or the winner);
framing it in that seat's colour tells a player at a glance whose turn the post shows,
in the same colour their pieces have on the board. Each game colours seats its own way,
so this asks each renderer's own swatches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from renders import bridges_and_boats, seven_cities
from renders.palette import PLAYER_COLOURS, RGB
from renders.seven_bridges import pieces


def _skybridge(view: Any, seat: int) -> RGB | None:
    """A seat's first colour: a seat of a two-player game plays two, its first names it."""
    return PLAYER_COLOURS[view.seat_colours[seat][0]].fill


def _bridge_wars(view: Any, seat: int) -> RGB | None:
    """The colour a seat chose; none before it has chosen one."""
    colour = view.colours[seat]
    return PLAYER_COLOURS[colour].fill if colour >= 0 else None


_COLOURS: dict[str, Callable[[Any, int], RGB | None]] = {
    "skybridge": _skybridge,
    "bridge-wars": _bridge_wars,
    "bridges-and-boats": lambda view, seat: bridges_and_boats.SIDES[seat].fill,
    "seven-bridges": lambda view, seat: pieces.swatch(seat).fill,
    "seven-cities": lambda view, seat: seven_cities.swatch(seat).fill,
}


def seat_colour(game_key: str, view: Any, seat: int) -> RGB | None:
    """The fill ``seat``'s pieces are drawn in on ``view``'s board, or None where it has
    no colour (yet), or the game has no pictures."""
    colour = _COLOURS.get(game_key)
    return None if colour is None else colour(view, seat)
