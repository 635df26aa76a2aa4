"""What a board is drawn on, drawn, mapped and padded once: its ground.

A board's pixels cost more than its pieces: a 900x1131 picture copied, mapped onto the
palette, padded for the PNG rows and deflated was 1.9 ms of a Skybridge board's 3.5,
whatever was drawn on it. Yet most of a board is what no move changes: the ground, the
wood, the grid, the legend, the empty cards. So a :class:`Ground` keeps that picture
twice, as drawn (RGB) and as the PNG's rows (palette indices, each row led by its filter
byte), and a board is drawn on a canvas that is a copy of it. The pen notes every box
it pastes (:attr:`renders.pen.Pen.touched`); only the tiles those boxes cover are mapped
onto the palette (all at once, where they are most of the board) and written over a
copy of the rows, and then put back as the ground had them, so the same canvas serves
the next board without being copied again. Boards whose height changes from move to
move use a taller ground's top rows.

Mapping onto a fixed palette is per pixel (the same colour always gives the same index,
:func:`renders.palette.fixed_palette`), so mapping a board tile by tile gives the very
indices mapping it whole gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PIL import Image

from renders.common import png
from renders.palette import BACKGROUND, RGB, fixed_palette

Box = tuple[int, int, int, int]

#: the side of the squares whose touched ones are mapped again, a power of two: smaller
#: maps fewer untouched pixels, larger makes fewer calls (a call costs ~500 pixels' worth)
TILE = 16

#: the share of a board drawn over past which all of it is mapped at once: mapping a
#: region copies it first, mapping the whole canvas does not
MOSTLY = 0.6

#: canvases a ground keeps for reuse (4 MiB each for a Skybridge board): a worker draws
#: one board at a time; the bot's threads, when it draws without workers, copy the
#: ground for a second board drawn at once
SPARE = 1


class Ground:
    """``picture`` (RGB) as every board of a kind starts, mapped onto ``palette``.

    ``plain`` names the colour of a ground that is nothing else (a blank board), which
    is put back by filling rather than copying.
    """

    def __init__(self, picture: Image.Image, palette: Image.Image, plain: RGB | None = None):
        picture.load()
        palette.load()
        self.picture = picture
        self.palette = palette
        self.plain = plain
        self.width, self.height = picture.size
        # the PNG's rows: a column of filter bytes (0: none), then the palette indices
        indexed = Image.new("P", (self.width + 1, self.height))
        indexed.im.paste(picture.im.convert("P", 0, palette.im), (1, 0, *indexed.size))
        self.rows = indexed.tobytes()
        colours = palette.getpalette("RGB")
        assert colours is not None, "fixed_palette makes a picture with a palette"
        self.colours = bytes(colours)
        self._spare: list[Image.Image] = []

    def taller(self, height: int) -> Ground:
        """This ground if it is ``height`` px tall or more, else one that tall: this
        ground's picture over the boards' plain ground (drawn and mapped afresh, for a
        board taller than any before it)."""
        if height <= self.height:
            return self
        picture = Image.new("RGB", (self.width, height), BACKGROUND)
        picture.paste(self.picture, (0, 0))
        return Ground(picture, self.palette, self.plain)

    def canvas(self) -> Image.Image:
        """A picture of the ground to draw one board on; give it back with :meth:`png`."""
        try:
            return self._spare.pop()
        except IndexError:
            return self.picture.copy()

    def png(self, canvas: Image.Image, touched: Sequence[Box], height: int | None = None) -> bytes:
        """The PNG of ``canvas``'s top ``height`` rows (all of them by default), where only
        the boxes in ``touched`` were drawn; the canvas is then the ground again, kept
        for the next board, and must not be used by the caller any more."""
        height = self.height if height is None else height
        rows = bytearray(self.rows)
        indexed = Image.frombuffer("P", (self.width + 1, self.height), rows, "raw", "P", 0, 1)
        regions = _regions(touched, self.width, self.height)
        drawn = sum((x1 - x0) * (min(y1, height) - y0) for x0, y0, x1, y1 in regions if y0 < height)
        if drawn > MOSTLY * self.width * height:  # one call, and no copy of each region
            indexed.im.paste(canvas.im.convert("P", 0, self.palette.im), (1, 0, *indexed.size))
        else:
            for x0, y0, x1, y1 in regions:
                mapped = canvas.im.crop((x0, y0, x1, y1)).convert("P", 0, self.palette.im)
                indexed.im.paste(mapped, (x0 + 1, y0, x1 + 1, y1))
        data = png(self.width, height, self.colours, memoryview(rows)[: (self.width + 1) * height])
        self._restore(canvas, regions)
        return data

    def _restore(self, canvas: Image.Image, regions: Iterable[Box]) -> None:
        """Put the ground back where a board was drawn, and keep the canvas."""
        for box in regions:
            if self.plain is not None:
                canvas.im.paste(self.plain, box)
            else:
                canvas.im.paste(self.picture.im.crop(box), box)
        if len(self._spare) < SPARE:
            self._spare.append(canvas)


def _regions(touched: Iterable[Box], width: int, height: int) -> list[Box]:
    """The tiles of :data:`TILE` px any of the ``touched`` boxes reaches, as few boxes:
    rows of tiles alike are one band, and each band's runs of tiles a box. A board
    touches hundreds of boxes, so each is one fill of a picture of the tiles (Pillow
    clips what lies outside it), four times faster than marking them in Python."""
    cols, rows = -(-width // TILE), -(-height // TILE)
    tiles = Image.new("L", (cols, rows))
    mark, shift, end = tiles.im.paste, TILE.bit_length() - 1, TILE - 1
    for x0, y0, x1, y1 in touched:
        mark(1, (x0 >> shift, y0 >> shift, (x1 + end) >> shift, (y1 + end) >> shift))
    grid = tiles.tobytes()
    boxes: list[Box] = []
    top = 0
    for row in range(1, rows + 1):
        line = grid[top * cols : (top + 1) * cols]
        if row < rows and grid[row * cols : (row + 1) * cols] == line:
            continue
        start = line.find(1)
        while start >= 0:
            end = line.find(0, start)
            end = cols if end < 0 else end
            box = (start * TILE, top * TILE, min(end * TILE, width), min(row * TILE, height))
            boxes.append(box)
            start = line.find(1, end)
        top = row
    return boxes


#: the plain grounds made so far, by width and palette: one each, as tall as the tallest
#: board drawn on it yet
_BLANK: dict[tuple[int, tuple[RGB, ...]], Ground] = {}

#: a plain ground grows in steps of this many rows, so a game whose boards grow a little
#: from move to move does not make a new ground each time
_GROWTH = 128


def blank(width: int, height: int, named: tuple[RGB, ...]) -> Ground:
    """A ground of the boards' plain colour, at least ``height`` px tall, for boards
    ``width`` px wide whose colours are ``named`` (see
    :func:`renders.palette.fixed_palette`): boards whose height changes from move to
    move share one and use its top rows."""
    ground = _BLANK.get((width, named))
    if ground is None or ground.height < height:
        picture = Image.new("RGB", (width, -(-height // _GROWTH) * _GROWTH), BACKGROUND)
        ground = _BLANK[width, named] = Ground(picture, fixed_palette(named), BACKGROUND)
    return ground
