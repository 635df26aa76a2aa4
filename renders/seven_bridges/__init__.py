"""Seven Bridges as PNGs: a player's own map sheet, or the public progress card.

A seat's view (``view.seat`` is a seat) gives that player's sheet, drawn like the paper
pad: the map of Königsberg with its river, bridges, streets, dashed footpaths, landmark
letters, buildings and trees, coordinates and edge values; the player's lines, starting
square and last move over it; the bridge legend, the dice, the bonus columns and the
score sheet (:mod:`.sheet`, the map in :mod:`.city`). The spectator's view
(``view.seat`` is None) gives a card with the dice, every player's bridges, landmarks
and score so far, and every player's map, small (:mod:`.public`, :mod:`.minimap`).

Pieces are placed in output pixels by ``sheet_layout`` and ``public_layout``, which the
tests use to find things.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_bridges.view import View
from renders.palette import RGB, SHARED, fixed_palette
from renders.seven_bridges import city
from renders.seven_bridges.pieces import EULER, USED_CELL, swatch
from renders.seven_bridges.public import render_public
from renders.seven_bridges.sheet import COUNTED, render_sheet

#: every colour a sheet or card names, for their fixed palette
NAMED: tuple[RGB, ...] = (
    *SHARED,
    *city.NAMED,
    USED_CELL,
    COUNTED,
    EULER.fill,
    EULER.edge,
)


def accent(view: View, seat: int) -> RGB:
    """The seat's colour, as its lines and pips are drawn."""
    return swatch(seat).fill


def warm() -> None:
    """The palette, before the first board (the printed sheets and the card's ground
    wait for one: a worker holds them only for the games it draws)."""
    fixed_palette(NAMED)


def render(view: View, names: Sequence[str]) -> bytes:
    """The viewer's own sheet, or the public card when ``view.seat`` is None."""
    if view.seat is None:
        return render_public(view, names, NAMED)
    return render_sheet(view, names, NAMED)
