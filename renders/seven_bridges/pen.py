"""The colours every Seven Bridges picture shares, and the pen (from ``renders.common``,
where the games that draw with it share it)."""

from __future__ import annotations

from renders.common import (  # noqa: F401  (the pen and its types, shared by every game)
    BACKGROUND,
    RGB,
    SCALE,
    SIX_COLOURS,
    Box,
    Pen,
    Point,
    Swatch,
    font,
    text_width,
)

INK: RGB = (34, 34, 34)
MUTED: RGB = (110, 104, 96)
WHITE: RGB = (255, 255, 255)
PANEL_LINE: RGB = (214, 206, 194)
USED_CELL: RGB = (226, 222, 214)  # a used bonus, a die handed to someone else
#: the last move and the dice that demand attention: a magenta unlike any player colour
HIGHLIGHT: RGB = (226, 0, 122)
EULER = Swatch("Euler", "E", (200, 200, 222), INK, (78, 78, 132))

SWATCHES: tuple[Swatch, ...] = SIX_COLOURS


def swatch(seat: int) -> Swatch:
    return SWATCHES[seat]


def box_centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
