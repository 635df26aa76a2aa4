"""The Skybridge board as a PNG: every tower's stack, the bridges, the roofs and the players.

The board is drawn as a 3x3 grid seen from the front: each foundation shows its tower
as a column of pieces, bottom to top, each piece as tall as its stories and lettered
with its colour's initial. Bridges are planks between neighbouring towers at their
level, roofs are caps in their owner's colour. Below the board, one card per player
gives colours, score, pieces left and whose turn it is.

Everything is laid out in output pixels by :func:`layout` (which the tests also use
to find pieces). Shapes are drawn at :data:`SCALE` times that size and reduced, since
Pillow does not anti-alias polygons and a 2x box reduction gives clean edges cheaply;
text is drawn afterwards at 1x. The phone is the target: Discord shows the picture
about 400 px wide, so pieces, letters and numbers are big.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

import engine
from engine.skybridge.board import KINDS, SQUARES, STORIES
from engine.skybridge.state import initial_stock, scoring_colours
from engine.skybridge.view import View
from renders.common import PLAYER_COLOURS, RGB, Swatch, fit_text, font, text_width, to_png

SCALE = 2  # supersampling factor for shapes

Box = tuple[float, float, float, float]
Point = tuple[float, float]

WIDTH = 900
MARGIN = 17
CAPTION_H = 56
FRAME = 14  # wood on the top and right of the board
GUTTER = 36  # wood on the left and bottom, wide enough for the coordinates
CELL_W = 272
ROWS_H = 792  # the three rows share this height, see _scale
BAR_W = 104
BRIDGE_LIP = 7  # a bridge sticks out of its tower, so it reads as a plank
PLATE_H = 30
PLATE_PAD = 8
TOP_PAD = 10
ROOF_H = 42
ROOF_LIP = 8
ROW_OVERHEAD = TOP_PAD + PLATE_H + PLATE_PAD
MIN_TOWER_ROOM = 90  # a row of short towers keeps at least this much height
MAX_UNIT = 28.0  # px per story while towers are short, so early boards are not tiny
PLANK_MIN = 16
BADGE = 36
LANE = 22
CARD_H = 96
CARD_GAP = 12

BACKGROUND: RGB = (250, 248, 244)
WOOD: RGB = (178, 134, 90)
WOOD_EDGE: RGB = (120, 86, 54)
WOOD_TEXT: RGB = (255, 246, 226)
CELL: RGB = (245, 240, 229)
CELL_LINE: RGB = (212, 200, 180)
PLATE: RGB = (110, 106, 100)
EMPTY_PLATE: RGB = (200, 193, 182)
INK: RGB = (34, 34, 34)
MUTED: RGB = (128, 124, 118)
CARD: RGB = (255, 255, 255)
CARD_LINE: RGB = (214, 206, 194)
TURN: RGB = (34, 34, 34)
#: the last move's outline: a magenta unlike any player colour
HIGHLIGHT: RGB = (226, 0, 122)
MEDALS: tuple[RGB, ...] = ((222, 170, 20), (168, 170, 180), (184, 115, 60))


@dataclass(frozen=True)
class Layout:
    """Where things are, in output pixels; ``pieces[sq][i]`` boxes ``view.board[sq][i]``."""

    width: int
    height: int
    unit: float
    board: Box
    cells: tuple[Box, ...]
    pieces: tuple[tuple[Box, ...], ...]
    cards: tuple[Box, ...]


def _row_heights(view: View, unit: float) -> list[float]:
    """Each row's height (rank 1 first) if towers get ``unit`` px per story."""
    heights = []
    for row in range(3):
        squares = range(row * 3, row * 3 + 3)
        roofs = [ROOF_H if view.roof_owner[sq] is not None else 0 for sq in squares]
        need = max(view.heights[sq] * unit + roof for sq, roof in zip(squares, roofs, strict=True))
        heights.append(ROW_OVERHEAD + max(need, MIN_TOWER_ROOM))
    return heights


def _level(needs: list[float], total: float) -> list[float]:
    """Share ``total`` among rows: rows stay equal unless one needs more than its third."""
    order = sorted(needs, reverse=True)
    for k in range(len(order)):
        level = (total - sum(order[:k])) / (len(order) - k)
        if level >= order[k]:
            break
    return [max(need, level) for need in needs]


def _scale(view: View) -> tuple[float, list[float]]:
    """Pixels per story, and each row's height.

    One scale for the whole board, so equal towers look equal: the largest that fits,
    at most :data:`MAX_UNIT`. A row of tall towers takes height from rows of short
    ones, which keeps pieces as large as possible late in a lopsided game; even an
    80-story tower stays inside its cell.
    """
    low, high = 0.0, MAX_UNIT
    if sum(_row_heights(view, high)) > ROWS_H:
        for _ in range(24):
            mid = (low + high) / 2
            low, high = (mid, high) if sum(_row_heights(view, mid)) <= ROWS_H else (low, mid)
        high = low
    return high, _level(_row_heights(view, high), ROWS_H)


def _cells(board: Box, rows: list[float]) -> tuple[Box, ...]:
    """The nine cells, indexed like SQUARES: rank 1 at the bottom, like a chess diagram.
    Their edges are on whole pixels, so the lines between them are drawn crisp."""
    cells = []
    for sq in range(9):
        col, row = sq % 3, sq // 3
        x0 = board[0] + GUTTER + col * CELL_W
        y0 = board[1] + FRAME + sum(rows[row + 1 :])
        cells.append((x0, round(y0), x0 + CELL_W, round(y0 + rows[row])))
    return tuple(cells)


def _base(cell: Box) -> float:
    """Where a tower's bottom sits: on top of the foundation plate."""
    return cell[3] - PLATE_PAD - PLATE_H


def _stack_boxes(view: View, sq: int, cell: Box, unit: float) -> tuple[Box, ...]:
    """Each piece's box, bottom up; bridges stick out a little, roofs are a fixed cap.

    Edges go to whole pixels, so a piece of one colour and height is the same picture
    wherever it stands and is drawn once (see :class:`_Pen`)."""
    cx = (cell[0] + cell[2]) / 2
    y = _base(cell)
    boxes = []
    for piece in view.board[sq]:
        if piece.kind == "roof":
            half = BAR_W / 2 + ROOF_LIP
            boxes.append((cx - half, round(y) - ROOF_H, cx + half, round(y)))
            continue
        half = BAR_W / 2 + (BRIDGE_LIP if piece.kind == "bridge" else 0)
        top = y - STORIES[piece.kind] * unit
        boxes.append((cx - half, round(top), cx + half, round(y)))
        y = top
    return tuple(boxes)


def layout(view: View) -> Layout:
    """The geometry of the picture for ``view``."""
    board_w = GUTTER + 3 * CELL_W + FRAME
    board_h = FRAME + ROWS_H + GUTTER
    board = (MARGIN, CAPTION_H, MARGIN + board_w, CAPTION_H + board_h)
    unit, rows = _scale(view)
    cells = _cells(board, rows)
    pieces = tuple(_stack_boxes(view, sq, cells[sq], unit) for sq in range(9))
    columns = 1 if view.players == 2 else 2  # two colours each need a full-width card
    card_w = (board_w - (columns - 1) * CARD_GAP) / columns
    top = board[3] + CARD_GAP
    cards = []
    for seat in range(view.players):
        x = MARGIN + (seat % columns) * (card_w + CARD_GAP)
        y = top + (seat // columns) * (CARD_H + CARD_GAP)
        cards.append((x, y, x + card_w, y + CARD_H))
    height = round(cards[-1][3] + MARGIN)
    return Layout(WIDTH, height, unit, board, cells, pieces, tuple(cards))


def _ordinal(place: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def caption(view: View, names: Sequence[str]) -> tuple[str, str]:
    """The line above the board: the last move, and whose turn it is or who won."""
    last = "New game" if view.last is None else f"Last: {engine.get('skybridge').format(view.last)}"
    if not view.over:
        return last, f"{names[view.turn]} to play"
    assert view.places is not None
    winners = [names[seat] for seat, place in enumerate(view.places) if place == 1]
    verb = "wins" if len(winners) == 1 else "tie"
    return last, f"Game over: {' & '.join(winners)} {verb}"


class _Pen:
    """Draws in output pixels: each shape as a stamp, text at 1x.

    Pillow does not anti-alias shapes, so a shape is drawn at :data:`SCALE` times the
    size and reduced; but a board is mostly the same few shapes (pieces of a colour and
    height, plates, discs, icons) in new places. So each shape is drawn once per process
    on its own small canvas, with how much of each pixel it covers as alpha, and pasted
    through that alpha wherever it goes: the edges blend with whatever is below, as
    supersampling the picture would give, at the cost of a paste. Square-cornered fills
    are worked out exactly and painted straight on (:meth:`_plain`). FreeType already
    anti-aliases text, so text waits until the end and is drawn at 1x.
    """

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.texts: list[tuple[Point, str, int, RGB, str, bool]] = []

    def _stamp(
        self,
        kind: str,
        points: Sequence[Point],
        fill: RGB | None,
        edge: RGB | None,
        width: float,
        radius: float = 0,
        canvas: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Paste the shape through ``points`` (a box's two corners, or a polygon's
        corners), placed where supersampling the whole picture would put it: boxes on
        whole supersampled pixels, as Pillow rounds them; polygons where they fall.
        ``canvas`` pastes only that part of the picture (by default, all the shape)."""
        if canvas is None:
            xs, ys = [x for x, _ in points], [y for _, y in points]
            ox, oy = math.floor(min(xs)) - 1, math.floor(min(ys)) - 1
            canvas = (ox, oy, math.ceil(max(xs)) + 2, math.ceil(max(ys)) + 2)
        ox, oy = canvas[:2]
        size = (canvas[2] - ox, canvas[3] - oy)
        snap = round if kind != "polygon" else float
        at = tuple((snap(x * SCALE) - ox * SCALE, snap(y * SCALE) - oy * SCALE) for x, y in points)
        # the wood and the cards' ground are drawn once, into the backdrop: not kept
        draw = _shape if size[0] * size[1] <= SMALL_SHAPE else _shape.__wrapped__
        shape = draw(kind, at, size, fill, edge, round(width * SCALE), round(radius * SCALE))
        self.image.paste(shape, (ox, oy), shape)

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        edge: RGB | None = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        if fill is None:
            self._outline(box, edge, width, radius)
        elif not radius and not width:
            self._plain(box, fill)
        else:
            self._stamp("rect", (box[:2], box[2:]), fill, edge, width, radius)

    def _outline(self, box: Box, edge: RGB | None, width: float, radius: float) -> None:
        """An outline alone: four strips painted directly and, if rounded, four corners
        stamped. A stamp of the whole outline would be as large as the box, and a cell's
        changes size as its row grows; a corner is the same whatever the box."""
        x0, y0, x1, y1 = box
        left, top, right, bottom, end = x0, y0, x1, y1, 0.0
        if radius:
            reach = math.ceil(radius + width) + 2  # a corner stamp's side
            left, top = math.floor(x0) - 1 + reach, math.floor(y0) - 1 + reach
            right, bottom = math.ceil(x1) + 2 - reach, math.ceil(y1) + 2 - reach
            side = 2 * reach + 2  # a box this big has the same corners as ``box``
            for cx, cy, corner in (
                (left - reach, top - reach, (x0, y0, x0 + side, y0 + side)),
                (right, top - reach, (x1 - side, y0, x1, y0 + side)),
                (left - reach, bottom, (x0, y1 - side, x0 + side, y1)),
                (right, bottom, (x1 - side, y1 - side, x1, y1)),
            ):
                canvas = (cx, cy, cx + reach, cy + reach)
                self._stamp("rect", (corner[:2], corner[2:]), None, edge, width, radius, canvas)
            end = 1 / SCALE  # a strip stops short of the next corner's stamp
        inner = width - 1 / SCALE  # Pillow's boxes include their last pixel
        for strip in (
            (left, y0, right - end, y0 + inner),
            (left, y1 - inner, right - end, y1),
            (x0, top, x0 + inner, bottom - end),
            (x1 - inner, top, x1, bottom - end),
        ):
            self._plain(strip, edge)

    def _plain(self, box: Box, colour: RGB | None) -> None:
        """A square-cornered filled box straight onto the picture: what supersampling
        would give, worked out. A pixel half (or a quarter) covered at :data:`SCALE`
        gets the colour blended by that share, over whatever is below it."""
        if colour is None:
            return
        xs = _coverage(round(box[0] * SCALE), round(box[2] * SCALE))
        ys = _coverage(round(box[1] * SCALE), round(box[3] * SCALE))
        for y0, y1, cy in ys:
            for x0, x1, cx in xs:
                share = cx * cy
                if share >= SCALE * SCALE:
                    self.image.paste(colour, (x0, y0, x1, y1))
                elif share:
                    alpha = _constant_mask(x1 - x0, y1 - y0, round(255 * share / SCALE**2))
                    self.image.paste(colour, (x0, y0, x1, y1), alpha)

    def polygon(self, points: Sequence[Point], fill: RGB, edge: RGB, width: float) -> None:
        self._stamp("polygon", points, fill, edge, width)

    def circle(self, centre: Point, radius: float, fill: RGB, edge: RGB, width: float) -> None:
        x, y = centre
        self._stamp(
            "ellipse", ((x - radius, y - radius), (x + radius, y + radius)), fill, edge, width
        )

    def text(
        self, xy: Point, text: str, size: int, fill: RGB, anchor: str = "mm", bold: bool = True
    ) -> None:
        self.texts.append((xy, text, size, fill, anchor, bold))

    def finish(self) -> Image.Image:
        draw = ImageDraw.Draw(self.image)
        for (x, y), text, size, fill, anchor, bold in self.texts:
            mask, (dx, dy) = _lettering(text, size, bold, anchor)
            draw.bitmap((round(x) + dx, round(y) + dy), mask, fill=fill)
        self.texts = []
        return self.image


@lru_cache(maxsize=4096)
def _lettering(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` as FreeType draws it anchored at a whole pixel: the anti-aliased mask,
    and where its corner sits from that pixel. Text goes to the nearest whole pixel, so
    the letters, numbers and words a board repeats are each rasterised once per process
    (half a pixel either way is invisible; a fresh rasterisation is not free)."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    dx, dy = math.floor(left) - 1, math.floor(top) - 1
    mask = Image.new("L", (math.ceil(right) - dx + 2, math.ceil(bottom) - dy + 2), 0)
    ImageDraw.Draw(mask).text((-dx, -dy), text, font=face, fill=255, anchor=anchor)
    return mask, (dx, dy)


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
def _constant_mask(width: int, height: int, value: int) -> Image.Image:
    return Image.new("L", (width, height), value)


@lru_cache(maxsize=1024)
def _shape(
    kind: str,
    points: tuple[tuple[float, float], ...],
    size: tuple[int, int],
    fill: RGB | None,
    edge: RGB | None,
    width: int,
    radius: int,
) -> Image.Image:
    """One shape on a ``size`` canvas (``points`` at :data:`SCALE`), reduced, with how
    much of each pixel it covers as alpha. Drawn on black, the reduced colours are
    already weighted by coverage (premultiplied), which Pillow's "RGBa" mode undoes."""
    big = (size[0] * SCALE, size[1] * SCALE)
    colour, cover = Image.new("RGB", big), Image.new("L", big)
    for image, inside, rim in ((colour, fill, edge), (cover, fill and 255, edge and 255)):
        draw = ImageDraw.Draw(image)
        if kind == "rect":
            draw.rounded_rectangle(points, radius=radius, fill=inside, outline=rim, width=width)
        elif kind == "ellipse":
            draw.ellipse(points, fill=inside, outline=rim, width=width)
        else:
            draw.polygon(points, fill=inside, outline=rim, width=width)
    bands = (*colour.reduce(SCALE).split(), cover.reduce(SCALE))
    return Image.merge("RGBa", bands).convert("RGBA")


#: Stamps kept are at most this many pixels: pieces, plates, discs, icons, corners. The
#: largest is a tall piece at full size (107x87 px), on most early boards: at 8192 it
#: was drawn afresh 2.5 times a board. 1024 stamps, which a game's pieces of every
#: colour and height fit in, are at most 48 MiB a process, about 5 MiB in practice.
SMALL_SHAPE = 12288


def _centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _letter(pen: _Pen, box: Box, swatch: Swatch, height: float) -> None:
    """The colour's initial on a piece, when there is room for a legible one."""
    size = round(min(height * 0.7, 30))
    if size >= 11:
        pen.text(_centre(box), swatch.letter, size, swatch.ink)


def _draw_board(pen: _Pen, plan: Layout) -> None:
    """The wood and the cells' ground: the same on every board (see :func:`_backdrop`)."""
    pen.rect(plan.board, WOOD, WOOD_EDGE, 2, radius=10)
    x0, y0 = plan.cells[6][0], plan.cells[6][1]
    x1, y1 = plan.cells[2][2], plan.cells[2][3]
    pen.rect((x0, y0, x1, y1), CELL, WOOD_EDGE, 2)
    for col in range(3):
        cell = plan.cells[col]
        pen.text(((cell[0] + cell[2]) / 2, y1 + GUTTER / 2), "abc"[col], 24, WOOD_TEXT)
        _cell_line(pen, (cell[0], y0, cell[0], y1))
        _cell_line(pen, (cell[2], y0, cell[2], y1))


def _cell_line(pen: _Pen, line: Box) -> None:
    """A line between cells: what each cell's 1 px outline gives on that edge, drawn
    once for the whole board (the cell on one side covers the pixel after the edge,
    the cell on the other half the pixel before it)."""
    x0, y0, x1, y1 = line
    half = 1 / SCALE
    pen.rect((x0, y0, x1 + half, y1 + half), CELL_LINE)
    pen.rect((x0 - half, y0 - half, x1, y1), CELL_LINE)


def _draw_frame(pen: _Pen, plan: Layout) -> None:
    """The lines between rows, row numbers on the wood, each square's name in its
    corner: rows grow with their towers, so these move from board to board (the lines
    between columns never do, and are drawn with the wood)."""
    x0, x1 = plan.cells[6][0], plan.cells[8][2]
    for row in range(3):
        cell = plan.cells[row * 3]
        _cell_line(pen, (x0, cell[1], x1, cell[1]))
    _cell_line(pen, (x0, plan.cells[0][3], x1, plan.cells[0][3]))
    for sq, cell in enumerate(plan.cells):
        pen.text((cell[0] + 14, cell[1] + 12), SQUARES[sq], 17, MUTED, "lt", bold=False)
    for row in range(3):
        cell = plan.cells[row * 3]
        pen.text((x0 - GUTTER / 2, (cell[1] + cell[3]) / 2), str(row + 1), 24, WOOD_TEXT)


def _draw_plates(pen: _Pen, view: View, plan: Layout) -> None:
    """The foundations, each carrying its tower's height in stories; empty ones are pale."""
    for sq, cell in enumerate(plan.cells):
        cx = (cell[0] + cell[2]) / 2
        base = _base(cell)
        plate = (cx - BAR_W / 2 - 14, base, cx + BAR_W / 2 + 14, base + PLATE_H)
        if view.board[sq]:
            pen.rect(plate, PLATE, None, 0, radius=5)
            pen.text(_centre(plate), str(view.heights[sq]), 22, (255, 255, 255))
        else:
            pen.rect(plate, EMPTY_PLATE, None, 0, radius=5)


def _draw_stack(pen: _Pen, view: View, sq: int, boxes: tuple[Box, ...]) -> None:
    """One tower, bottom piece first; a roof is a lettered cap in its owner's colour."""
    for piece, box in zip(view.board[sq], boxes, strict=True):
        swatch = PLAYER_COLOURS[piece.colour]
        if piece.kind == "roof":
            x0, y0, x1, y1 = box
            pen.polygon([(x0, y1), ((x0 + x1) / 2, y0), (x1, y1)], swatch.fill, swatch.edge, 2)
            _letter(pen, (x0, y0 + (y1 - y0) * 0.35, x1, y1), swatch, (y1 - y0) * 0.75)
            continue
        pen.rect(box, swatch.fill, swatch.edge, 2, radius=3)
        _letter(pen, box, swatch, box[3] - box[1])


def _badge(pen: _Pen, centre: Point, swatch: Swatch) -> None:
    """A bridge's letter in a disc mid-span, readable however thin the bridge is drawn."""
    pen.circle(centre, BADGE / 2, swatch.fill, swatch.edge, 2)
    pen.text(centre, swatch.letter, 24, swatch.ink)


def _bridge_box(view: View, plan: Layout, sq: int, colour: int) -> Box:
    """Where ``colour``'s bridge sits in the tower on ``sq``."""
    index = next(
        i for i, p in enumerate(view.board[sq]) if p.kind == "bridge" and p.colour == colour
    )
    return plan.pieces[sq][index]


def _draw_plank(pen: _Pen, left: Box, right: Box, swatch: Swatch) -> None:
    """A bridge between side-by-side towers: a band across the gap at its level."""
    y = (left[1] + left[3]) / 2
    half = max(left[3] - left[1], PLANK_MIN) / 2
    pen.rect((left[2] - 2, y - half, right[0] + 2, y + half), swatch.fill, swatch.edge, 2)
    _badge(pen, ((left[2] + right[0]) / 2, y), swatch)


def _plank_y(view: View, plan: Layout, sq: int, colour: int) -> float:
    box = _bridge_box(view, plan, sq, colour)
    return (box[1] + box[3]) / 2


def _crossings(view: View, plan: Layout, span: tuple[float, float], low: int, side: int) -> int:
    """How many side-by-side bridges a bracket on ``side`` of a column would cut through."""
    count = 0
    for colour, pair in view.bridges.items():
        for sq in (low, low + 3):
            if tuple(sorted((sq, sq + side))) == pair:
                count += span[0] < _plank_y(view, plan, sq, colour) < span[1]
    return count


def _draw_vertical(pen: _Pen, ends: tuple[Box, Box], swatch: Swatch, side: int, lane: int) -> None:
    """A bridge between a tower and the one behind it: a bracket joining their levels.

    Rows are drawn one above the other, so the bridge cannot be a straight plank; the
    bracket leaves the bridge piece in one cell, runs beside the towers and enters the
    bridge piece in the other.
    """
    low, high = ends
    edge_x = low[2] if side > 0 else low[0]
    x = edge_x + side * (14 + lane * LANE)
    y_low, y_high = _centre(low)[1], _centre(high)[1]
    points = [(edge_x, y_low), (x, y_low), (x, y_high), (edge_x, y_high)]
    for colour, half in ((swatch.edge, 6.0), (swatch.fill, 4.0)):
        for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
            box = (min(ax, bx) - half, min(ay, by) - half, max(ax, bx) + half, max(ay, by) + half)
            pen.rect(box, colour)
    _badge(pen, (x, (y_low + y_high) / 2), swatch)


def _draw_bridges(pen: _Pen, view: View, plan: Layout) -> None:
    """Planks for side-by-side bridges, brackets for the others.

    A bracket goes on the side of its column where it cuts through the fewest planks
    and meets the fewest other brackets (the outer side, for the outer columns), in
    the innermost lane no overlapping bracket uses.
    """
    lanes: dict[tuple[int, int], list[tuple[float, float, int]]] = {}

    def busy(a: int, side: int, span: tuple[float, float]) -> set[int]:
        taken = lanes.get((a % 3, side), [])
        return {lane for lo, hi, lane in taken if lo <= span[1] and span[0] <= hi}

    for colour, (a, b) in sorted(view.bridges.items()):
        swatch = PLAYER_COLOURS[colour]
        ends = (_bridge_box(view, plan, a, colour), _bridge_box(view, plan, b, colour))
        if b - a == 1:
            _draw_plank(pen, *ends, swatch)
            continue
        span = (_plank_y(view, plan, b, colour), _plank_y(view, plan, a, colour))
        outward = -1 if a % 3 == 0 else 1
        side = min(
            (-1, 1),
            key=lambda s: (
                _crossings(view, plan, span, a, s),
                len(busy(a, s, span)),
                s != outward,
            ),
        )
        lane = min(set(range(4)) - busy(a, side, span))
        lanes.setdefault((a % 3, side), []).append((*span, lane))
        _draw_vertical(pen, ends, swatch, side, lane)


def _draw_last(pen: _Pen, view: View, plan: Layout) -> None:
    """Outline the cell (both cells, for a bridge) where the last piece went."""
    if view.last is None:
        return
    for sq in view.last.squares:
        x0, y0, x1, y1 = plan.cells[sq]
        pen.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3), None, HIGHLIGHT, 6, radius=6)


def _draw_caption(pen: _Pen, view: View, names: Sequence[str], plan: Layout) -> None:
    """The caption, with names shortened so the turn or result line always fits whole."""
    left, _ = caption(view, names)
    x0, x1 = plan.board[0], plan.board[2]
    y = CAPTION_H / 2
    if view.last is not None:
        pen.rect((x0, y - 11, x0 + 22, y + 11), None, HIGHLIGHT, 5, radius=4)
        x0 += 32
    pen.text((x0, y), left, 26, INK, "lm")
    room = x1 - x0 - text_width(left, 26) - 30
    named = 1 if view.places is None else view.places.count(1)
    share = (room - text_width(caption(view, [""] * view.players)[1], 26)) / named
    short = [fit_text(name, font(26, True), share) for name in names]
    pen.text((x1, y), caption(view, short)[1], 26, INK, "rm")


def _draw_icon(pen: _Pen, x: float, y: float, kind: str, swatch: Swatch) -> float:
    """A small piece shape for the stock line; returns its width."""
    w, h = {"tall": (12, 28), "cube": (18, 18), "bridge": (26, 9), "roof": (24, 16)}[kind]
    box = (x, y - h / 2, x + w, y + h / 2)
    if kind == "roof":
        corners = [(x, box[3]), (x + w / 2, box[1]), (x + w, box[3])]
        pen.polygon(corners, swatch.fill, swatch.edge, 1.5)
    else:
        pen.rect(box, swatch.fill, swatch.edge, 1.5, radius=2)
    return w


def _draw_stock(pen: _Pen, view: View, seat: int, x: float, y: float) -> None:
    """Each colour the seat plays: its swatch, then each kind of piece with the count left."""
    start = initial_stock(view.players)[seat]
    for colour in view.seat_colours[seat]:
        swatch = PLAYER_COLOURS[colour]
        pen.rect((x, y - 15, x + 30, y + 15), swatch.fill, swatch.edge, 2, radius=5)
        pen.text((x + 15, y), swatch.letter, 20, swatch.ink)
        x += 40
        for kind in KINDS:
            slot = colour * len(KINDS) + KINDS.index(kind)
            if not start[slot]:
                continue
            count = str(view.stock[seat][slot])
            x += _draw_icon(pen, x, y, kind, swatch) + 4
            pen.text((x, y), count, 22, INK if view.stock[seat][slot] else MUTED, "lm")
            x += text_width(count, 22) + 12
        x += 14


def status(view: View, seat: int) -> str:
    """A word after the player's name for a seat that no longer plays."""
    if seat in view.resigned:
        return "resigned"
    if seat in view.out and not view.over:  # once over, every seat is out: say nothing
        return "out"
    return ""


def _draw_marker(pen: _Pen, view: View, seat: int, x: float, y: float) -> float:
    """Before the name: the final place once the game is over, else an arrow for the
    seat to play. Returns where the name starts."""
    if view.places is not None:
        place = view.places[seat]
        medal = MEDALS[place - 1] if place <= len(MEDALS) else CARD_LINE
        pen.rect((x, y - 15, x + 54, y + 15), medal, None, 0, radius=15)
        pen.text((x + 27, y), _ordinal(place), 18, INK)
        return x + 64
    if view.turn == seat:
        pen.polygon([(x, y - 13), (x + 20, y), (x, y + 13)], TURN, TURN, 1)
        return x + 30
    return x


def _draw_card(pen: _Pen, view: View, seat: int, name: str, box: Box) -> None:
    """One player: marker, name, score on the first line; their pieces left below."""
    if view.turn == seat:  # the backdrop has every card plain: outline the one to play
        pen.rect(box, None, TURN, 4, radius=12)
    y, right = box[1] + 28, box[2] - 16
    x = _draw_marker(pen, view, seat, box[0] + 16, y)
    score = str(view.scores[seat])
    score_x = right - text_width(score, 32) - 6
    pen.text((right, y), score, 32, INK, "rm")
    pen.text((score_x, y + 4), "score", 16, MUTED, "rm", bold=False)
    label = status(view, seat)
    label_w = text_width(label, 18, bold=False) + 10 if label else 0
    room = score_x - text_width("score", 16, bold=False) - 16 - x - label_w
    shown = fit_text(name, font(26, True), room)
    pen.text((x, y), shown, 26, MUTED if label else INK, "lm")
    if label:
        pen.text((x + text_width(shown, 26) + 10, y + 2), label, 18, MUTED, "lm", bold=False)
    _draw_stock(pen, view, seat, box[0] + 16, box[1] + 70)


def _draw_neutral_note(pen: _Pen, view: View, plan: Layout) -> None:
    """Only 3-player games have a neutral colour (green): say so in the card slot a
    fourth player would use, next to the third player's card."""
    shared = set(view.seat_colours[0]) - set(scoring_colours(view.players)[0])
    if not shared:
        return
    x0, y0 = plan.cards[1][0], plan.cards[2][1]
    neutral = PLAYER_COLOURS[shared.pop()]
    pen.rect((x0 + 16, y0 + 33, x0 + 46, y0 + 63), neutral.fill, neutral.edge, 2, radius=5)
    pen.text((x0 + 31, y0 + 48), neutral.letter, 20, neutral.ink)
    pen.text((x0 + 58, y0 + 36), f"{neutral.name} is neutral:", 20, INK, "lm")
    pen.text((x0 + 58, y0 + 62), "everyone has some, it scores for no one", 18, MUTED, "lm", False)


@lru_cache(maxsize=8)
def _backdrop(players: int) -> Image.Image:
    """What every board for ``players`` shares: the wood, the cells' ground, the column
    letters, each player's blank card and the neutral note. Drawn once per process."""
    view = _blank_view(players)
    plan = layout(view)
    pen = _Pen(Image.new("RGB", (plan.width, plan.height), BACKGROUND))
    _draw_board(pen, plan)
    for box in plan.cards:
        pen.rect(box, CARD, CARD_LINE, 2, radius=12)
    _draw_neutral_note(pen, view, plan)
    return pen.finish()


def _blank_view(players: int) -> View:
    rules = engine.get("skybridge")
    return rules.view(rules.new(players, None, 0), None)


def draw(view: View, names: Sequence[str]) -> Image.Image:
    """The board for ``view`` as an RGB image; ``names[seat]`` labels each player."""
    plan = layout(view)
    pen = _Pen(_backdrop(view.players).copy())
    _draw_caption(pen, view, names, plan)
    _draw_frame(pen, plan)
    _draw_last(pen, view, plan)
    _draw_bridges(pen, view, plan)
    for sq in range(9):
        _draw_stack(pen, view, sq, plan.pieces[sq])
    _draw_plates(pen, view, plan)
    for seat, box in enumerate(plan.cards):
        _draw_card(pen, view, seat, names[seat], box)
    return pen.finish()


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """One palette for every Skybridge board: each colour the renderer names, exactly,
    plus the anti-aliased shades between them, taken from boards of 2, 3 and 4 players
    (mid-game and finished, with bridges, roofs and medals). Mapping each board onto a
    fixed palette costs a quarter of working one out per board, and looks the same."""
    rules = engine.get("skybridge")
    rng = random.Random(3)
    boards = []
    for players in (2, 3, 4):
        state = rules.new(players, None, players)
        names = [f"Player {i + 1}" for i in range(players)]
        for moves in range(10_000):
            if rules.is_over(state) or moves == 30:
                boards.append(draw(rules.view(state, None), names))
            if rules.is_over(state):
                break
            seat = rules.to_play(state)[0]
            state = rules.apply(state, seat, rng.choice(rules.legal(state, seat))).state
    named = [BACKGROUND, WOOD, WOOD_EDGE, WOOD_TEXT, CELL, CELL_LINE, PLATE, EMPTY_PLATE]
    named += [INK, MUTED, CARD, CARD_LINE, TURN, HIGHLIGHT, *MEDALS, (255, 255, 255)]
    for swatch in PLAYER_COLOURS:
        named += [swatch.fill, swatch.ink, swatch.edge]
    named = list(dict.fromkeys(named))
    sheet = Image.new("RGB", (boards[0].width, sum(b.height for b in boards)))
    y = 0
    for board in boards:
        sheet.paste(board, (0, y))
        y += board.height
    shades = sheet.quantize(256 - len(named), method=Image.Quantize.FASTOCTREE)
    colours = named + [
        tuple(shades.getpalette()[i : i + 3]) for i in range(0, 3 * (256 - len(named)), 3)
    ]
    fixed = Image.new("P", (1, 1))
    fixed.putpalette([c for rgb in colours for c in rgb])
    return fixed


def render(view: View, names: Sequence[str]) -> bytes:
    """The board for ``view`` as PNG bytes; ``names[seat]`` labels each player."""
    return to_png(draw(view, names), palette())
