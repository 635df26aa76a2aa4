"""The one pen every board is drawn with: shapes as cached anti-aliased stamps, text last.

Pillow does not anti-alias shapes, so a shape must be drawn larger and reduced for
smooth edges. Drawing a whole board at :data:`SCALE` times its size and reducing it
costs more than anything else on the board (a reduce of 2-4 MP), yet a board is mostly
the same few shapes in new places: pieces of a colour and size, discs, dice, letters.
So each shape is supersampled once per process on its own small canvas, with how much
of each pixel it covers as alpha, and pasted through that alpha wherever it goes: the
edges blend with whatever is below, as supersampling the whole picture would give, at
the cost of a paste. Square-cornered fills are worked out exactly and painted straight
on (:meth:`Pen._plain`), and a big rounded box is its four corners stamped plus straight
strips, so no shape costs its area twice over. Stamps and words are kept premultiplied
("RGBa": each colour already scaled by how much of the pixel it covers), which Pillow
pastes three to five times faster than a colour through a mask or an RGBA stamp (its
blend is one multiply a byte). What a board repeats by the dozen as a group
(a block's faces, edges and letter) is one stamp made by :func:`glyph`. FreeType already
anti-aliases text, so text is rasterised once per word and size, and drawn after the
shapes (:meth:`Pen.text`) or at once, in depth order with them (:meth:`Pen.text_now`).

Everything is in output pixels. Boxes are placed where supersampling the whole picture
would put them (corners rounded to whole supersampled pixels, as Pillow rounds them),
polygons and lines where they fall: a shape whose corners repeat from board to board at
the same fractions of a pixel (pieces on whole pixels, as the renderers place them) is
the same stamp, and is drawn once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import overload

from PIL import Image, ImageDraw
from PIL.Image import core

from renders.common import font
from renders.ground import Ground
from renders.palette import BACKGROUND, RGB

Box = tuple[float, float, float, float]
Point = tuple[float, float]
PixelBox = tuple[int, int, int, int]
#: a stamp (or a word) and the box it is pasted in
Placed = tuple["core.ImagingCore", PixelBox]
#: a fill's strips, each with its coverage (None: whole pixels), and the box they touch
Painted = tuple[list[tuple[PixelBox, "core.ImagingCore | None"]], PixelBox | None]
#: a colour, or a colour and its opacity (0-255) for see-through shapes
Colour = tuple[int, int, int] | tuple[int, int, int, int]

#: shapes are supersampled this many times in each direction, then reduced
SCALE = 2

#: Stamps kept are at most this many pixels: pieces, plates, discs, dice, icons,
#: corners. The largest is a tall Skybridge piece at full size (107x87 px); at 8192 it
#: was drawn afresh 2.5 times a board. 2048 stamps of at most 48 KiB are a worst case
#: far from the few MiB a worker holds in practice.
SMALL_SHAPE = 12288


def box_centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


class Pen:
    """Draws in output pixels on ``image`` (RGB): shapes at once, as stamps; text at the
    end (:meth:`finish`) unless it must be hidden by what is drawn later. Every box it
    pastes is noted in :attr:`touched`, so a board drawn on a :class:`Ground`'s canvas
    (:meth:`on`) maps only those onto its palette (:meth:`png`)."""

    def __init__(self, image: Image.Image, ground: Ground | None = None) -> None:
        self.image = image
        image.load()
        # pastes go straight to Pillow's core: a board makes hundreds, and the checks
        # Image.paste makes on each cost twice the paste itself
        self._core = image.im
        self.texts: list[tuple[Point, str, int, RGB, str, bool]] = []
        self.ground = ground
        self.touched: list[tuple[int, int, int, int]] = []

    @classmethod
    def blank(cls, width: int, height: int) -> Pen:
        """A pen on a new picture of the boards' ground (to draw a :class:`Ground`, or a
        picture that is not a board)."""
        return cls(Image.new("RGB", (width, height), BACKGROUND))

    @classmethod
    def on(cls, ground: Ground) -> Pen:
        """A pen on a canvas of ``ground``, to draw one board and :meth:`png` it."""
        return cls(ground.canvas(), ground)

    def png(self, height: int | None = None) -> bytes:
        """The board as PNG bytes, its top ``height`` rows (all by default), text drawn;
        the canvas goes back to the ground, and this pen draws no more."""
        assert self.ground is not None, "a pen on a ground (Pen.on) makes the PNG"
        self.finish()
        return self.ground.png(self.image, self.touched, height)

    # -- boxes ---------------------------------------------------------------------------

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        edge: RGB | None = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        """A box, rounded by ``radius``, its outline ``width`` thick inside it."""
        if edge is None or not width:
            edge, width = None, 0
        if fill is None and edge is None:
            return
        if not radius and not width:
            self._plain(box, fill)
        elif not radius:
            assert edge is not None, "a width is drawn only with an edge (above)"
            self._framed(box, fill, edge, width)
        elif (box[2] - box[0] + 3) * (box[3] - box[1] + 3) <= SMALL_SHAPE or not self._cornered(
            box, fill, edge, width, radius
        ):
            self._stamp("rect", (box[:2], box[2:]), fill, edge, width, radius)

    def bar(self, a: Point, b: Point, width: float, fill: RGB) -> None:
        """A horizontal or vertical stroke whose square ends reach past ``a`` and ``b`` by
        half its width, so strokes meeting at a point join without a notch."""
        half = width / 2
        left, top = min(a[0], b[0]) - half, min(a[1], b[1]) - half
        self._plain((left, top, max(a[0], b[0]) + half, max(a[1], b[1]) + half), fill)

    def dashes(self, a: Point, b: Point, width: float, fill: RGB, dash: float = 6) -> None:
        """A dashed stroke from ``a`` to ``b``, starting and ending with half a gap, so
        the two halves of a footpath read as one dashed line."""
        length = abs(b[0] - a[0]) + abs(b[1] - a[1])
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = dash / 2
        while t < length:
            end = min(t + dash, length)
            start = (a[0] + ux * t, a[1] + uy * t)
            self.bar(start, (a[0] + ux * end, a[1] + uy * end), width, fill)
            t += 2 * dash

    def _framed(self, box: Box, fill: RGB | None, edge: RGB, width: float) -> None:
        """A square-cornered box with an outline: four strips and the inside, painted."""
        x0, y0, x1, y1 = box
        inner = width - 1 / SCALE  # Pillow's boxes include their last pixel
        self._plain((x0, y0, x1, y0 + inner), edge)
        self._plain((x0, y1 - inner, x1, y1), edge)
        self._plain((x0, y0 + width, x0 + inner, y1 - width), edge)
        self._plain((x1 - inner, y0 + width, x1, y1 - width), edge)
        if fill is not None:
            self._plain((x0 + width, y0 + width, x1 - width, y1 - width), fill)

    def _cornered(
        self, box: Box, fill: RGB | None, edge: RGB | None, width: float, radius: float
    ) -> bool:
        """A big rounded box as four stamped corners, then straight strips and the inside
        painted: a corner is the same whatever the box, so cards, panels and frames that
        change size from board to board still cost four pastes. False if the box is too
        small to split, and nothing is drawn."""
        x0, y0, x1, y1 = box
        reach = math.ceil(radius + width) + 2  # a corner stamp's side
        left, top = math.floor(x0) - 1 + reach, math.floor(y0) - 1 + reach
        right, bottom = math.ceil(x1) + 2 - reach, math.ceil(y1) + 2 - reach
        if right - left < 2 or bottom - top < 2:
            return False
        side = 2 * reach + 2  # a box this big has the same corners as ``box``
        for cx, cy, corner in (
            (left - reach, top - reach, (x0, y0, x0 + side, y0 + side)),
            (right, top - reach, (x1 - side, y0, x1, y0 + side)),
            (left - reach, bottom, (x0, y1 - side, x0 + side, y1)),
            (right, bottom, (x1 - side, y1 - side, x1, y1)),
        ):
            canvas = (cx, cy, cx + reach, cy + reach)
            self._stamp("rect", (corner[:2], corner[2:]), fill, edge, width, radius, canvas)
        end = 1 / SCALE  # a strip stops short of the next corner's stamp
        if edge is not None:
            inner = width - end
            for strip in (
                (left, y0, right - end, y0 + inner),
                (left, y1 - inner, right - end, y1),
                (x0, top, x0 + inner, bottom - end),
                (x1 - inner, top, x1, bottom - end),
            ):
                self._plain(strip, edge)
        if fill is not None:
            self._plain((left, y0 + width, right - end, y1 - width), fill)
            self._plain((x0 + width, top, left - end, bottom - end), fill)
            self._plain((right, top, x1 - width, bottom - end), fill)
        return True

    def _plain(self, box: Box, colour: RGB | None) -> None:
        """A square-cornered filled box straight onto the picture: what supersampling
        would give, worked out. A pixel half (or a quarter) covered at :data:`SCALE`
        gets the colour blended by that share, over whatever is below it."""
        if colour is None:
            return
        key = (box, colour)
        painted = _PAINTED.get(key)
        if painted is None:
            painted = _paint(box, colour)
        strips, touched = painted
        paste = self._core.paste
        for strip, mask in strips:
            if mask is None:
                paste(colour, strip)
            else:
                paste(colour, strip, mask)
        if touched is not None:
            self.touched.append(touched)

    # -- other shapes --------------------------------------------------------------------

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None,
        edge: RGB | None = None,
        width: float = 0.5,
    ) -> None:
        """A filled polygon; a ``fill`` with an opacity lets what is below show through."""
        self._stamp("polygon", points, fill, edge, width if edge else 0)

    def line(self, a: Point, b: Point, fill: Colour, width: float) -> None:
        """A straight stroke at any angle (``bar`` is for square-ended axis strokes)."""
        self._stamp("line", (a, b), fill, None, width)

    def outline(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        """A closed polygon's edge only, ``width`` thick, joined round at the corners."""
        self._stamp("outline", points, fill, None, width)

    def circle(
        self, centre: Point, radius: float, fill: RGB | None, edge: RGB | None, width: float = 1
    ) -> None:
        self.ellipse(centre, radius, radius, fill, edge, width)

    def ellipse(
        self,
        centre: Point,
        rx: float,
        ry: float,
        fill: RGB | None,
        edge: RGB | None,
        width: float = 1,
    ) -> None:
        x, y = centre
        box = ((x - rx, y - ry), (x + rx, y + ry))
        self._stamp("ellipse", box, fill, edge, width if edge else 0)

    def arc(self, box: Box, start: float, end: float, fill: RGB, width: float) -> None:
        self._stamp("arc", (box[:2], box[2:]), fill, None, width, angles=(start, end))

    def _stamp(
        self,
        kind: str,
        points: Sequence[Point],
        fill: Colour | None,
        edge: RGB | None,
        width: float,
        radius: float = 0,
        canvas: tuple[int, int, int, int] | None = None,
        angles: tuple[float, float] = (0, 0),
    ) -> None:
        """Paste the shape through ``points``, placed where supersampling the whole
        picture would put it: boxes on whole supersampled pixels, as Pillow rounds them;
        polygons and lines where they fall. ``canvas`` pastes only that part of the
        picture (by default, all the shape and its stroke)."""
        key = (kind, tuple(points), fill, edge, width, radius, canvas, angles)
        placed = _PLACED.get(key)
        if placed is None:
            placed = _place(*key)
        shape, box = placed
        self._core.paste(shape, box, shape)
        self.touched.append(box)

    def paste(self, stamp: Image.Image, at: tuple[int, int]) -> None:
        """A prepared stamp (see :func:`glyph`) through its alpha, or a picture without one
        (a blank board drawn once), its corner at ``at``."""
        x, y = at
        box = (x, y, x + stamp.width, y + stamp.height)
        if stamp.mode == "RGBa":
            self._core.paste(stamp.im, box, stamp.im)
        else:
            self._core.paste(stamp.im, box)
        self.touched.append(box)

    # -- text ----------------------------------------------------------------------------

    def text(
        self, xy: Point, text: str, size: int, fill: RGB, anchor: str = "mm", bold: bool = True
    ) -> None:
        """Text, drawn over every shape when the picture is finished."""
        self.texts.append((xy, text, size, fill, anchor, bold))

    def text_now(
        self, xy: Point, text: str, size: int, fill: RGB, anchor: str = "mm", bold: bool = True
    ) -> None:
        """Text drawn at once, so that shapes drawn later (nearer ones) can hide it."""
        key = (xy, text, size, fill, anchor, bold)
        placed = _PLACED.get(key)
        if placed is None:
            inked, (dx, dy) = _inked(text, size, bold, anchor, fill)
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            placed = _keep(key, (inked, (x, y, x + inked.size[0], y + inked.size[1])))
        inked, box = placed
        self._core.paste(inked, box, inked)
        self.touched.append(box)

    def finish(self) -> Image.Image:
        """The picture, with the text drawn over the shapes."""
        for xy, text, size, fill, anchor, bold in self.texts:
            self.text_now(xy, text, size, fill, anchor, bold)
        self.texts = []
        return self.image


#: where a shape or a word of a board goes and what is pasted there, by everything that
#: places it: a board repeats the pieces, marks and words of the board before at the
#: same places, and working out their stamp and box again (rounding, padding, the
#: stamp's lookup) cost more than pasting them.
_PLACED: dict[tuple[object, ...], Placed] = {}

#: the strips a square-cornered fill paints (:meth:`Pen._plain`), by box and colour
_PAINTED: dict[tuple[Box, RGB], Painted] = {}

#: how many placements each of the two keeps: a board makes 150-600, and each kept one
#: keeps its stamp too (at 16,384 a drawing worker grew by ~20 MiB)
PLACEMENTS = 4096


def _keep(key: tuple[object, ...], placed: Placed) -> Placed:
    """``placed`` noted under ``key`` in :data:`_PLACED` (emptied when full: clearing is
    safe while the bot's threads draw, and refills within a board or two)."""
    if len(_PLACED) >= PLACEMENTS:  # a board never needs so many: start afresh
        _PLACED.clear()
    _PLACED[key] = placed
    return placed


def _place(
    kind: str,
    points: tuple[Point, ...],
    fill: Colour | None,
    edge: RGB | None,
    width: float,
    radius: float,
    canvas: tuple[int, int, int, int] | None,
    angles: tuple[float, float],
) -> Placed:
    """The stamp of :meth:`Pen._stamp`'s shape and the box it is pasted in; kept in
    :data:`_PLACED` if the stamp is small enough to keep (a big one, a board or a
    panel, is drawn once per board at most)."""
    key = (kind, points, fill, edge, width, radius, canvas, angles)
    if canvas is None:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        pad = 1 + (math.ceil(width / 2) if kind in ("line", "outline") else 0)
        ox, oy = math.floor(min(xs)) - pad, math.floor(min(ys)) - pad
        canvas = (ox, oy, math.ceil(max(xs)) + pad + 1, math.ceil(max(ys)) + pad + 1)
    ox, oy = canvas[:2]
    size = (canvas[2] - ox, canvas[3] - oy)
    snap = float if kind in ("polygon", "line", "outline") else round
    at = tuple((snap(x * SCALE) - ox * SCALE, snap(y * SCALE) - oy * SCALE) for x, y in points)
    small = size[0] * size[1] <= SMALL_SHAPE
    draw = _shape if small else _shape.__wrapped__
    stroke, corner = round(width * SCALE), round(radius * SCALE)
    placed = (draw(kind, at, size, fill, edge, stroke, corner, angles), canvas)
    return _keep(key, placed) if small else placed


def _paint(box: Box, colour: RGB) -> Painted:
    """The strips :meth:`Pen._plain` paints for ``box`` (each with the mask of how much
    of its pixels the box covers, None for all) and the box they touch, kept in
    :data:`_PAINTED`."""
    xs = _coverage(round(box[0] * SCALE), round(box[2] * SCALE))
    ys = _coverage(round(box[1] * SCALE), round(box[3] * SCALE))
    strips: list[tuple[PixelBox, core.ImagingCore | None]] = []
    for y0, y1, cy in ys:
        for x0, x1, cx in xs:
            share = cx * cy
            if share >= SCALE * SCALE:
                strips.append(((x0, y0, x1, y1), None))
            elif share:
                alpha = _constant_mask(x1 - x0, y1 - y0, round(255 * share / SCALE**2))
                strips.append(((x0, y0, x1, y1), alpha))
    touched = (xs[0][0], ys[0][0], xs[-1][1], ys[-1][1]) if xs and ys else None
    if len(_PAINTED) >= PLACEMENTS:
        _PAINTED.clear()
    _PAINTED[box, colour] = painted = (strips, touched)
    return painted


@lru_cache(maxsize=4096)
def _lettering(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[core.ImagingCore, tuple[int, int]]:
    """``text`` as FreeType draws it anchored at a whole pixel: the anti-aliased mask,
    and where its corner sits from that pixel. Text goes to the nearest whole pixel, so
    the letters, numbers and words a board repeats are each rasterised once per process
    (half a pixel either way is invisible; a fresh rasterisation is not free)."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    dx, dy = math.floor(left) - 1, math.floor(top) - 1
    mask = Image.new("L", (math.ceil(right) - dx + 2, math.ceil(bottom) - dy + 2), 0)
    ImageDraw.Draw(mask).text((-dx, -dy), text, font=face, fill=255, anchor=anchor)
    return mask.im, (dx, dy)


@lru_cache(maxsize=4096)
def _inked(
    text: str, size: int, bold: bool, anchor: str, fill: RGB
) -> tuple[core.ImagingCore, tuple[int, int]]:
    """``text`` in ``fill`` as a stamp (see :func:`_tinted`): a board's words are the
    same few in the same few colours, so each is tinted once per process."""
    mask, at = _lettering(text, size, bold, anchor)
    return _tinted(fill, mask), at


def _tinted(colour: RGB, cover: core.ImagingCore) -> core.ImagingCore:
    """``colour`` over ``cover``'s share of each pixel, as a premultiplied "RGBa" stamp."""
    stamp = Image.new("RGBA", cover.size, colour)
    stamp.im.putband(cover, 3)
    return stamp.convert("RGBa").im


def _coverage(first: int, last: int) -> list[tuple[int, int, int]]:
    """The 1x pixel runs a span of supersampled pixels ``first``..``last`` (inclusive)
    covers, as (start, end, how many of each pixel's :data:`SCALE` sub-pixels)."""
    end = last + 1
    if end <= first:
        return []
    lo, hi = first // SCALE, -(-end // SCALE)
    if hi - lo == 1:
        return [(lo, hi, end - first)]
    runs = []
    head = (lo + 1) * SCALE - first
    if head < SCALE:
        runs.append((lo, lo + 1, head))
        lo += 1
    tail = end - (hi - 1) * SCALE
    full_end = hi - 1 if tail < SCALE else hi
    if full_end > lo:
        runs.append((lo, full_end, SCALE))
    if tail < SCALE:
        runs.append((hi - 1, hi, tail))
    return runs


@lru_cache(maxsize=512)
def _constant_mask(width: int, height: int, value: int) -> core.ImagingCore:
    return Image.new("L", (width, height), value).im


@lru_cache(maxsize=2048)
def _shape(
    kind: str,
    points: tuple[tuple[float, float], ...],
    size: tuple[int, int],
    fill: Colour | None,
    edge: RGB | None,
    width: int,
    radius: int,
    angles: tuple[float, float],
) -> core.ImagingCore:
    """One shape on a ``size`` canvas (``points`` at :data:`SCALE`), reduced, as a
    premultiplied stamp: a shape of one colour drawn as coverage alone and tinted
    (:func:`_tinted`), one of two colours (a fill and an edge) on a premultiplied
    canvas (:func:`_supersampled`). A see-through ``fill`` covers only its opacity's
    share."""
    big = (size[0] * SCALE, size[1] * SCALE)
    solid = None if fill is None else fill[:3]
    if solid is None or edge is None or solid == edge:
        cover = Image.new("L", big)
        _sketch(
            ImageDraw.Draw(cover), kind, points, _opacity(fill), edge and 255, width, radius, angles
        )
        tint = solid or edge
        assert tint is not None, "a shape has a fill or an edge"
        return _tinted(tint, cover.reduce(SCALE).im)
    canvas, draw = _supersampled(big)
    _sketch(draw, kind, points, _premultiplied(fill), _premultiplied(edge), width, radius, angles)
    return canvas.reduce(SCALE).im


def _supersampled(big: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A canvas for shapes of several colours: "RGBa" holds colours premultiplied by
    their coverage, transparent black around them, so reducing it averages exactly what
    an anti-aliased stamp needs, and the result is pasted as it is. One canvas and one
    reduction, not a colour canvas and a coverage canvas merged."""
    canvas = Image.new("RGBa", big)
    return canvas, ImageDraw.Draw(canvas)


@overload
def _opacity(colour: Colour) -> int: ...
@overload
def _opacity(colour: None) -> None: ...
def _opacity(colour: Colour | None) -> int | None:
    """How much of a pixel ``colour`` covers where it is drawn: all, unless see-through."""
    if colour is None:
        return None
    return 255 if len(colour) == 3 else colour[3]


def _premultiplied(colour: Colour | None) -> tuple[int, int, int, int] | None:
    """``colour`` as an "RGBa" canvas holds it."""
    if colour is None:
        return None
    opacity = _opacity(colour)
    red, green, blue = colour[:3]
    return (red * opacity // 255, green * opacity // 255, blue * opacity // 255, opacity)


def _sketch(
    draw: ImageDraw.ImageDraw,
    kind: str,
    points: Sequence[tuple[float, float]],
    inside: tuple[int, ...] | int | None,
    rim: tuple[int, ...] | int | None,
    width: int,
    radius: int = 0,
    angles: tuple[float, float] = (0, 0),
) -> None:
    """One shape, in supersampled pixels, with Pillow."""
    if kind == "rect":
        draw.rounded_rectangle(points, radius=radius, fill=inside, outline=rim, width=width)
    elif kind == "ellipse":
        draw.ellipse(points, fill=inside, outline=rim, width=width)
    elif kind == "polygon":
        draw.polygon(points, fill=inside, outline=rim, width=width)
    elif kind == "line":
        draw.line(points, fill=inside, width=width)
    elif kind == "outline":
        draw.line([*points, points[0], points[1]], fill=inside, width=width, joint="curve")
    else:  # arc
        draw.arc(points, *angles, fill=inside, width=width)


#: a shape for :func:`glyph`: kind ("polygon", "line", "rect", "ellipse", "outline"),
#: points in output pixels from the glyph's corner, fill (see-through with an opacity),
#: edge, stroke width
Sketch = tuple[str, tuple[Point, ...], Colour | None, RGB | None, float]


def glyph(
    size: tuple[int, int],
    sketches: Sequence[Sketch],
    texts: Sequence[tuple[Point, str, int, RGB] | tuple[Point, str, int, RGB, str]] = (),
) -> Image.Image:
    """Several shapes, in order (each hiding those before it, see-through ones too), then
    bold text (centred, unless an anchor follows its colour), as one "RGBa" stamp for
    :meth:`Pen.paste`: what a board repeats by the dozen (a block's three faces, its
    edges and its letter) costs one paste instead of a dozen. Renderers keep the glyphs
    they make (``lru_cache``), keyed by what tells them apart."""
    canvas, draw = _supersampled((size[0] * SCALE, size[1] * SCALE))
    for kind, points, fill, edge, width in sketches:
        at = [(x * SCALE, y * SCALE) for x, y in points]
        _sketch(draw, kind, at, _premultiplied(fill), _premultiplied(edge), round(width * SCALE))
    stamp = canvas.reduce(SCALE)
    for (x, y), text, size_, fill, *anchor in texts:
        letters, (dx, dy) = _lettering(text, size_, True, anchor[0] if anchor else "mm")
        corner = (round(x) + dx, round(y) + dy)
        box = (*corner, corner[0] + letters.size[0], corner[1] + letters.size[1])
        stamp.im.paste((*fill, 255), box, letters)
    return stamp
