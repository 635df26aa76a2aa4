"""Small maps for the public card: every player's lines on the city, side by side.

Seven Bridges hides nothing, and a spectator following the race wants to see the
networks themselves, not only their counts. At this size a building or tree would be a
speck, so a small map keeps what reads from across a phone screen: land, river and
fields, the streets, the seven bridges and the quadrant lines (drawn once per process),
then each player's lines in their colour, their starting square, the bridges they have
crossed and their best loop.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine.seven_bridges.board import CITY, SIZE
from engine.seven_bridges.legend import crossed
from engine.seven_bridges.view import PlayerView
from renders.palette import INK, Swatch
from renders.pen import Box, Pen, Point, box_centre
from renders.seven_bridges.city import (
    DECK,
    FIELD,
    PAPER,
    PARAPET,
    QUADRANT_LINE,
    STREET,
    WATER,
)
from renders.seven_bridges.pieces import DELTA

MAX_CELL = 28  # one square of a small map, at most (two maps side by side)


def _square(grid: Box, square: int) -> Box:
    cell = (grid[2] - grid[0]) / SIZE
    x, y = grid[0] + square % SIZE * cell, grid[1] + square // SIZE * cell
    return x, y, x + cell, y + cell


def _arm(grid: Box, arm: int) -> tuple[Point, Point]:
    box = _square(grid, arm // 4)
    (cx, cy), half = box_centre(box), (box[2] - box[0]) / 2
    dx, dy = DELTA[arm % 4]
    return (cx, cy), (cx + dx * half, cy + dy * half)


@lru_cache(maxsize=4)
def blank(cell: int) -> Image.Image:
    """The printed city with squares of ``cell`` pixels, the same under every player's
    lines: drawn once per size and process."""
    side = SIZE * cell
    pen = Pen(Image.new("RGB", (side, side), PAPER))
    grid = (0, 0, side, side)
    deck = cell * 3 / 14
    for square, kind in enumerate(CITY.kinds):
        if kind in ("water", "bridge"):
            pen.rect(_square(grid, square), WATER)
        elif kind == "field":
            pen.rect(_square(grid, square), FIELD)
    for square in range(SIZE * SIZE):
        for d in CITY.arms[square]:
            pen.bar(*_arm(grid, 4 * square + d), 1.5, STREET)
    for bridge in CITY.bridges:
        x0, y0, x1, y1 = _square(grid, bridge.square)
        cx, cy = box_centre((x0, y0, x1, y1))
        if 0 in CITY.arms[bridge.square]:  # runs north-south
            pen.rect((cx - deck, y0 - 1, cx + deck, y1 + 1), DECK, PARAPET, 1.5)
        else:
            pen.rect((x0 - 1, cy - deck, x1 + 1, cy + deck), DECK, PARAPET, 1.5)
    pen.bar((side / 2, 0), (side / 2, side), 1.5, QUADRANT_LINE)
    pen.bar((0, side / 2), (side, side / 2), 1.5, QUADRANT_LINE)
    pen.rect(grid, None, QUADRANT_LINE, 2)
    return pen.finish()


#: lines at a small map's edge reach this far past it
PAD = 4


def draw(
    pen: Pen, at: tuple[int, int], cell: int, player: PlayerView, start: int, colour: Swatch
) -> None:
    """One player's small map, squares of ``cell`` pixels, its corner at ``at``, on the
    card's plain ground."""
    drawn = _drawn(cell, player.drawn, tuple(_loop_arms(player)), start, colour)
    pen.paste(drawn, (at[0] - PAD, at[1] - PAD))


@lru_cache(maxsize=64)
def _drawn(
    cell: int, arms: tuple[int, ...], loop: tuple[int, ...], start: int, colour: Swatch
) -> Image.Image:
    """A small map with ``arms`` drawn, ``loop`` dotted, on the plain ground :data:`PAD`
    px round it: a player's lines change only on their own moves, so each map is drawn
    once and pasted on every card until they move."""
    side = SIZE * cell
    pen = Pen.blank(side + 2 * PAD, side + 2 * PAD)
    pen.paste(blank(cell), (PAD, PAD))
    grid = (PAD, PAD, PAD + side, PAD + side)
    line = max(2.5, cell / 7)
    x0, y0, x1, y1 = _square(grid, start)
    pen.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), None, INK, 2)
    ends = [_arm(grid, a) for a in arms]
    for a, b in ends:
        pen.bar(a, b, line + 2, colour.edge)
    for a, b in ends:
        pen.bar(a, b, line, colour.fill)
    for arm in loop:
        (cx, cy), (ex, ey) = _arm(grid, arm)
        pen.circle(((cx + ex) / 2, (cy + ey) / 2), 1.4, colour.ink, None)
    for number in crossed(sum(1 << a for a in arms)):
        cx, cy = box_centre(_square(grid, CITY.bridges[number - 1].square))
        pen.circle((cx, cy), cell * 2 / 7, colour.fill, colour.edge, 1.5)
        pen.text((cx, cy), str(number), max(9, round(cell * 0.4)), colour.ink)
    return pen.finish()


def _loop_arms(player: PlayerView) -> list[int]:
    loop = player.card.loop.arms
    return [a for a in player.drawn if loop >> a & 1]
