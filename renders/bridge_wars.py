"""The Bridge Wars board as a PNG: a 3D view of the rods and blocks, and a map from above.

Top: an isometric view from the south-west corner (a1 nearest). Every block cell is a
flat box in its colour, lettered on top; rods are drawn where no block is, so a block
that bridges shows the rods through the gap beneath it, and it casts a shadow straight
down on whatever is under the gap. Bottom left: the map from above,
which is how the game is scored: each rod's top colour (letter and fill) and the level
of its top block, with coordinates, thick lines between different blocks, the brass rod
ringed in gold. Bottom right: one card per player (colour, corner, score, blocks left,
whose turn), then a legend. The last block is outlined in magenta in both views.

Drawn with :class:`renders.pen.Pen`. In the 3D view letters are drawn in depth order
with the boxes (nearer boxes must hide them); elsewhere text is drawn last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engine.bridge_wars.blocks import COLOURS, NAMES, STARTER
from engine.bridge_wars.board import BRASS, COLUMNS, HOLES, SIZE, col_row, name
from engine.bridge_wars.state import Placed
from engine.bridge_wars.view import View
from renders.common import fit_text, font, text_width
from renders.ground import Ground
from renders.palette import (
    BACKGROUND,
    CARD,
    CARD_LINE,
    HIGHLIGHT,
    INK,
    MEDALS,
    MUTED,
    PLAYER_COLOURS,
    RGB,
    SHARED,
    TURN,
    WHITE,
    WOOD_EDGE,
    fixed_palette,
)
from renders.pen import Box, Pen, Point, Sketch, glyph

#: 800 px wide: Discord shows it ~400 px wide on a phone, so every size here is what a
#: player sees doubled; a wider picture looks no bigger there, and costs more to
#: draw, encode and upload (1.6 times the pixels at 1000 px)
WIDTH = 800
MARGIN = 13
CAPTION_H = 46
# the 3D view: half a hole's width and depth on screen, and one layer's height, in
# whole pixels so that every block cell's corners fall on whole pixels
ISO_A = 34
ISO_B = 15  # a little flatter than true isometric: more of the stacks' sides shows
ISO_C = 11
ISO_PAD = 11
BOARD_EDGE = 8  # the board's thickness, seen along its front edges
ISO_LABELS = 24  # room under the front edges for the coordinates
# the map from above
CELL = 45
GUTTER = 24
CARD_GAP = 8
CARD_H = 92

#: the board seen from above is lighter than Skybridge's frame: it carries 121 holes
BOARD_TOP: RGB = (196, 160, 116)
BOARD_SIDE: RGB = (150, 112, 72)
HOLE: RGB = (92, 70, 48)
ROD = (96, 118, 138, 150)  # acrylic: blocks behind a rod show through it
ROD_TIP: RGB = (96, 118, 138)
SHADOW = (40, 30, 20, 90)
MAP_ROD: RGB = (150, 166, 180)
BRASS_ROD: RGB = (196, 150, 30)
BRASS_EDGE: RGB = (120, 88, 10)
NO_ROD: RGB = (226, 220, 210)
EMPTY_ROD: RGB = WHITE
GRID: RGB = (200, 192, 180)


def _shade(rgb: RGB, factor: float) -> RGB:
    return (round(rgb[0] * factor), round(rgb[1] * factor), round(rgb[2] * factor))


def _through(glass: tuple[int, int, int, int], below: RGB) -> RGB:
    """What a see-through colour over ``below`` shows."""
    share = glass[3] / 255
    red, green, blue = (round(b + (g - b) * share) for g, b in zip(glass[:3], below, strict=False))
    return red, green, blue


#: every colour a board names, for its fixed palette: the blocks' lit and shaded faces,
#: and the rods and shadows over the board
NAMED: tuple[RGB, ...] = (
    *SHARED,
    BOARD_TOP,
    BOARD_SIDE,
    HOLE,
    ROD_TIP,
    MAP_ROD,
    BRASS_ROD,
    BRASS_EDGE,
    NO_ROD,
    GRID,
    *(_shade(s.fill, f) for s in PLAYER_COLOURS for f in (0.78, 0.6)),
    *(_through(glass, below) for glass in (ROD, SHADOW) for below in (BOARD_TOP, BACKGROUND)),
)


@dataclass(frozen=True)
class Layout:
    """Where things are, in output pixels."""

    width: int
    height: int
    iso: Box  # the 3D view's area
    origin: Point  # screen point of the board's a1 corner (its front tip) at level 0
    map: Box  # the 11 x 11 cells, without the coordinate gutter
    cards: tuple[Box, ...]
    legend: Box


def _boards(height: int) -> tuple[Box, Point, Box]:
    """The 3D view's area, its origin and the map's box: they depend on the rods' height
    only, so boards of one height share them (and :func:`_backdrop`)."""
    iso_h = ISO_PAD + height * ISO_C + 2 * SIZE * ISO_B + BOARD_EDGE + ISO_LABELS
    iso = (MARGIN, CAPTION_H, WIDTH - MARGIN, CAPTION_H + iso_h)
    origin = (WIDTH / 2, iso[3] - ISO_LABELS - BOARD_EDGE)
    top = iso[3] + 8
    map_box = (MARGIN + GUTTER, top, MARGIN + GUTTER + SIZE * CELL, top + SIZE * CELL)
    return iso, origin, map_box


def layout(view: View) -> Layout:
    """The geometry of the picture for ``view``; taller rods make a taller 3D view."""
    iso, origin, map_box = _boards(view.height)
    top = map_box[1]
    x0 = map_box[2] + 14
    cards = tuple(
        (x0, top + i * (CARD_H + CARD_GAP), WIDTH - MARGIN, top + i * (CARD_H + CARD_GAP) + CARD_H)
        for i in range(view.players)
    )
    lines = len(legend_lines(view, WIDTH - MARGIN - x0 - 3)) + (view.last is not None)
    legend = (x0, cards[-1][3] + CARD_GAP, WIDTH - MARGIN, cards[-1][3] + CARD_GAP + 19 * lines)
    height = round(max(map_box[3] + GUTTER, legend[3]) + MARGIN)
    return Layout(WIDTH, height, iso, origin, map_box, cards, legend)


def project(plan: Layout, x: float, y: float, level: float) -> Point:
    """The screen point of board point (x, y) (in holes, from a1's outer corner) at a
    height of ``level`` layers."""
    ox, oy = plan.origin
    return ox + (x - y) * ISO_A, oy - (x + y) * ISO_B - level * ISO_C


def cell_box(plan: Layout, hole: int) -> Box:
    """A hole's square on the map."""
    col, row = col_row(hole)
    x0 = plan.map[0] + col * CELL
    y0 = plan.map[3] - (row + 1) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def top_face_centre(plan: Layout, hole: int, level: float) -> Point:
    """Where the top of the block at ``level`` on ``hole`` is drawn in the 3D view."""
    col, row = col_row(hole)
    return project(plan, col + 0.5, row + 0.5, level)


# -- the 3D view ------------------------------------------------------------------------


def _occupancy(view: View) -> dict[tuple[int, int], int]:
    """(hole, level) -> index in ``view.placed`` of the block filling it."""
    filled = {}
    for i, block in enumerate(view.placed):
        for c in block.cells:
            filled[(c, block.level)] = i
    return filled


_ROOM = 240  # ground under the map: four cards and their legend end above it


@lru_cache(maxsize=8)
def _backdrop(height: int, rods: tuple[bool, ...]) -> Ground:
    """What every board of a game shares, drawn once per process: the wooden board with
    its holes, the rods' feet and the coordinates; the map's empty cells, its frame, the
    brass ring and its coordinates, and plain ground below for the longest legend: a
    board is a copy of its top rows."""
    iso, origin, map_box = _boards(height)
    plan = Layout(WIDTH, round(map_box[3] + GUTTER) + _ROOM, iso, origin, map_box, (), iso)
    pen = Pen.blank(plan.width, plan.height)
    _draw_board(pen, rods, plan)
    for hole in range(HOLES):
        x0, y0, _, _ = cell_box(plan, hole)
        pen.paste(_empty_cell_glyph(rods[hole]), (round(x0), round(y0)))
    pen.rect(plan.map, None, INK, 2.5)
    _draw_brass(pen, plan)
    brass = cell_box(plan, BRASS)
    pen.text(((brass[0] + brass[2]) / 2, (brass[1] + brass[3]) / 2 + 11), "5", 13, BRASS_EDGE)
    for col in range(SIZE):
        x = plan.map[0] + (col + 0.5) * CELL
        pen.text((x, plan.map[3] + GUTTER / 2 + 1), COLUMNS[col], 16, INK)
    for row in range(SIZE):
        y = plan.map[3] - (row + 0.5) * CELL
        pen.text((plan.map[0] - GUTTER / 2, y), str(row + 1), 15, INK)
    return Ground(pen.finish(), fixed_palette(NAMED))


def _draw_board(pen: Pen, rods: tuple[bool, ...], plan: Layout) -> None:
    """The wooden board with its thickness, its holes, the rods' feet, and coordinates by
    its front edges: nothing is ever drawn under these, so they go in the backdrop."""
    corners = [project(plan, x, y, 0) for x, y in ((0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE))]
    front, right, _, left = corners
    below = [(x, y + BOARD_EDGE) for x, y in (right, front, left)]
    pen.polygon([left, front, right, *below], BOARD_SIDE)
    pen.polygon(corners, BOARD_TOP)  # then its edge: a shape of one colour is cheaper
    pen.outline(corners, WOOD_EDGE, 0.5)
    for hole in range(HOLES):
        colour = ROD_TIP if rods[hole] else HOLE
        pen.ellipse(top_face_centre(plan, hole, 0), 5, 2.5, colour, None)
    for col in range(SIZE):
        x, y = project(plan, col + 0.5, -0.55, 0)
        pen.text((x + 5, y + BOARD_EDGE + 6), COLUMNS[col], 16, WOOD_EDGE)
    for row in range(SIZE):
        x, y = project(plan, -0.55, row + 0.5, 0)
        pen.text((x - 5, y + BOARD_EDGE + 6), str(row + 1), 16, WOOD_EDGE)


def _draw_rod(pen: Pen, plan: Layout, hole: int, low: int, high: int, tip: bool) -> None:
    """The part of a rod between levels ``low`` and ``high``; ``tip`` caps its top."""
    dx, dy = _FRONT[hole]
    x, y = round(plan.origin[0]) + dx, round(plan.origin[1]) + dy - ISO_B - low * ISO_C
    stamp = _rod_glyph(high - low, tip, hole == BRASS)
    pen.paste(stamp, (x - _ROD_PAD, y - stamp.height + _ROD_PAD + 1))


_ROD_PAD = 5  # room round a rod's stamp for the brass rod's width and tip


@lru_cache(maxsize=64)
def _rod_glyph(levels: int, tip: bool, brass: bool) -> Image.Image:
    """A rod ``levels`` layers long: see-through acrylic (blocks behind it show through),
    or the brass rod; its foot is ``_ROD_PAD`` px from the stamp's left and bottom."""
    length = levels * ISO_C
    base, end = (_ROD_PAD, _ROD_PAD + length), (_ROD_PAD, _ROD_PAD)
    if brass:
        sketches: list[Sketch] = [
            ("line", (base, end), BRASS_EDGE, None, 6.5),
            ("line", (base, end), BRASS_ROD, None, 4),
        ]
        cap: Sketch = (
            "ellipse",
            ((end[0] - 4, end[1] - 2), (end[0] + 4, end[1] + 2)),
            BRASS_ROD,
            BRASS_EDGE,
            1,
        )
    else:
        sketches = [("line", (base, end), ROD, None, 2.5)]
        cap = (
            "ellipse",
            ((end[0] - 2.5, end[1] - 1.25), (end[0] + 2.5, end[1] + 1.25)),
            ROD_TIP,
            None,
            0,
        )
    return glyph((2 * _ROD_PAD + 1, length + 2 * _ROD_PAD + 1), sketches + [cap] * tip)


def _neighbours(hole: int) -> tuple[int, int, int, int]:
    """The holes beside ``hole`` towards -y, +x, +y and -x, or -1 off the board."""
    col, row = col_row(hole)
    up, right, down, left = (
        (row + dy) * SIZE + col + dx if 0 <= col + dx < SIZE and 0 <= row + dy < SIZE else -1
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
    )
    return up, right, down, left


#: per hole, its neighbours, and its front corner's place on screen from the origin:
#: a board looks these up a few hundred times
_NEIGHBOURS = tuple(_neighbours(hole) for hole in range(HOLES))
_FRONT = tuple(((c - r) * ISO_A, -(c + r) * ISO_B) for c, r in map(col_row, range(HOLES)))


def _draw_box(
    pen: Pen,
    view: View,
    plan: Layout,
    filled: dict[tuple[int, int], int],
    hole: int,
    level: int,
) -> None:
    """One block cell, as one stamp (:func:`_block_glyph`)."""
    index = filled[(hole, level)]
    joins = tuple(filled.get((n, level)) == index for n in _NEIGHBOURS[hole])
    last = view.last is not None and index == len(view.placed) - 1
    stamp = _block_glyph(view.placed[index].colour, joins, last, view.tops[hole] == level)
    dx, dy = _FRONT[hole]
    x, y = round(plan.origin[0]) + dx, round(plan.origin[1]) + dy - (level - 1) * ISO_C
    pen.paste(stamp, (x + _BOX_LEFT, y + _BOX_TOP))


#: a block cell's stamp, from its front corner at its bottom: room for the 4 px outline
_BOX_PAD = 3
_BOX_LEFT = -ISO_A - _BOX_PAD
_BOX_TOP = -2 * ISO_B - ISO_C - _BOX_PAD


@lru_cache(maxsize=512)
def _block_glyph(
    colour: int, joins: tuple[bool, bool, bool, bool], last: bool, letter: bool
) -> Image.Image:
    """One block cell: top and the two front faces, outlined only where the block ends
    (``joins``: whether the same block goes on towards -y, +x, +y, -x), so a block reads
    as one piece; its colour letter on top where nothing covers it. Every cell of a
    colour and outline is the same picture, so each is drawn once per process."""
    swatch = PLAYER_COLOURS[colour]

    def p(x: int, y: int, h: int) -> Point:
        return (x - y) * ISO_A - _BOX_LEFT, -(x + y) * ISO_B - h * ISO_C - _BOX_TOP

    top = (p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1))
    west = (p(0, 0, 0), p(0, 1, 0), p(0, 1, 1), p(0, 0, 1))
    south = (p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1))
    sketches: list[Sketch] = [
        ("polygon", west, _shade(swatch.fill, 0.78), None, 0.5),
        ("polygon", south, _shade(swatch.fill, 0.6), None, 0.5),
        ("polygon", top, swatch.fill, None, 0.5),
    ]
    edge, width = (HIGHLIGHT, 3.2) if last else (swatch.edge, 1.6)
    toward_y, toward_x, back_y, back_x = joins
    rims = zip(top, top[1:] + top[:1], strict=True)
    lines = [pair for pair, joined in zip(rims, joins, strict=True) if not joined]
    if not toward_y:
        lines.append((south[0], south[1]))
        if not toward_x:
            lines.append((south[1], south[2]))
    if not back_x:
        lines.append((west[0], west[1]))
        if not back_y:
            lines.append((west[1], west[2]))
    if not toward_y or not back_x:
        lines.append((south[0], south[3]))
    sketches += [("line", pair, edge, None, width) for pair in lines]
    centre = (p(0, 0, 1)[0], (p(0, 0, 1)[1] + p(1, 1, 1)[1]) / 2)
    texts = [(centre, swatch.letter, 14, swatch.ink)]
    size = (1 - 2 * _BOX_LEFT, 1 - _BOX_TOP + _BOX_PAD)
    return glyph(size, sketches, texts if letter else ())


def _draw_iso(pen: Pen, view: View, plan: Layout) -> None:
    """Back to front, and bottom to top on each rod: boxes, and rods where no box is."""
    filled = _occupancy(view)
    for hole in _DEPTH_ORDER:
        if not view.rods[hole]:
            continue
        run = 0  # the level the rod is drawn up to so far
        for level in range(1, view.height + 1):
            if (hole, level) in filled:
                if run < level - 1:  # a gap: the block above bridges it
                    _draw_shadow(pen, plan, hole, run)
                    _draw_rod(pen, plan, hole, run, level - 1, tip=False)
                _draw_box(pen, view, plan, filled, hole, level)
                run = level
        if run < view.height:
            _draw_rod(pen, plan, hole, run, view.height, tip=True)
    if view.last is not None:
        _draw_pin(pen, plan, view.last)


#: the holes from the back of the board to the front
_DEPTH_ORDER = sorted(range(HOLES), key=lambda h: -sum(col_row(h)))


def _draw_shadow(pen: Pen, plan: Layout, hole: int, level: int) -> None:
    """The shadow a bridging block casts straight down, on whatever is under the gap: how
    far it is from the block shows the gap's height."""
    col, row = col_row(hole)
    corners = [project(plan, col + x, row + y, level) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))]
    pen.polygon(corners, SHADOW)


def _draw_pin(pen: Pen, plan: Layout, block: Placed) -> None:
    """A magenta arrow pointing down at the last block, findable at a glance."""
    points = [top_face_centre(plan, c, block.level) for c in block.cells]
    x = sum(p[0] for p in points) / len(points)
    y = min(p[1] for p in points) - 5
    arrow = [(x - 10.5, y - 24), (x + 10.5, y - 24), (x, y)]
    pen.polygon(arrow, HIGHLIGHT, CARD)


# -- the map from above -----------------------------------------------------------------


def _top_block(view: View) -> list[int]:
    """Per hole, the index in ``view.placed`` of its highest block, or -1."""
    tops = [-1] * HOLES
    for i, block in enumerate(view.placed):
        for c in block.cells:
            tops[c] = i  # blocks are listed in play order, so later ones are higher
    return tops


def _draw_map(pen: Pen, view: View, plan: Layout) -> None:
    """Each rod's top colour and level; thick lines where one top block meets another."""
    tops = _top_block(view)
    for hole in range(HOLES):
        if view.owner[hole] >= 0:
            x0, y0, _, _ = cell_box(plan, hole)
            pen.paste(_cell_glyph(view.owner[hole], view.tops[hole]), (round(x0), round(y0)))
    for hole in range(HOLES):
        col, row = col_row(hole)
        x0, y0, x1, y1 = cell_box(plan, hole)
        # 2 px on whole pixels, either side of the cells' edge: one paste each
        if col + 1 < SIZE and tops[hole] != tops[hole + 1]:
            pen.rect((x1 - 1, y0 - 1, x1 + 0.5, y1 + 0.5), INK)
        if row + 1 < SIZE and tops[hole] != tops[hole + SIZE]:
            pen.rect((x0 - 1, y0 - 1, x1 + 0.5, y0 + 0.5), INK)
    if any(owner >= 0 for owner in view.owner):  # a cell drawn over the frame's inner edge
        pen.rect(plan.map, None, INK, 2.5)
    if view.owner[BRASS] >= 0:
        _draw_brass(pen, plan)
    if view.last is not None:
        for c in view.last.cells:
            x0, y0, x1, y1 = cell_box(plan, c)
            pen.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), None, HIGHLIGHT, 3, 3)


def _draw_brass(pen: Pen, plan: Layout) -> None:
    """The brass rod's cell ringed in gold."""
    brass = cell_box(plan, BRASS)
    pen.rect((brass[0] + 2, brass[1] + 2, brass[2] - 2, brass[3] - 2), None, BRASS_ROD, 3, 3)


@lru_cache(maxsize=2)
def _empty_cell_glyph(rod: bool) -> Image.Image:
    """A map cell with no block: a rod's dot on white, or the grey of a corner without
    rods."""
    sketches: list[Sketch] = [
        ("rect", ((0, 0), (CELL, CELL)), EMPTY_ROD if rod else NO_ROD, GRID, 1)
    ]
    middle = CELL / 2
    dot = ((middle - 4, middle - 4), (middle + 4, middle + 4))
    return glyph((CELL + 1, CELL + 1), sketches + [("ellipse", dot, MAP_ROD, None, 0)] * rod)


@lru_cache(maxsize=128)
def _cell_glyph(owner: int, level: int) -> Image.Image:
    """A map cell in its top block's colour, lettered with the colour and the level."""
    swatch = PLAYER_COLOURS[owner]
    sketch: Sketch = ("rect", ((0, 0), (CELL, CELL)), swatch.fill, GRID, 1)
    texts = [
        ((4, 2), swatch.letter, 14, swatch.ink, "lt"),
        ((CELL - 4, CELL - 3), str(level), 22, swatch.ink, "rs"),
    ]
    # opaque, so pasted as a plain copy: its last row and column, half covered, lie
    # under the next cell or the map's frame, which are drawn after it
    return glyph((CELL + 1, CELL + 1), [sketch], texts).convert("RGB")


# -- players ----------------------------------------------------------------------------


def _ordinal(place: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def blocks_left(view: View, seat: int) -> int:
    return sum(view.stock[seat])


def stock_line(view: View, seat: int) -> str:
    """The blocks a seat still holds, e.g. ``I2×3 I3 L4×2``."""
    parts = []
    for k, block in enumerate(NAMES):
        n = view.stock[seat][k]
        if n and block != STARTER:
            parts.append(block if n == 1 else f"{block}×{n}")
    return " ".join(parts) or "none left"


def caption(view: View, names: Sequence[str]) -> tuple[str, str]:
    """The line above the picture: the last block, and whose turn it is or who won."""
    last = view.last
    if last is None:
        left = "New game: choose colours and corners"
    elif last.block == STARTER:
        who = fit_text(names[last.seat], font(20, True), 240)
        left = f"{who} took {COLOURS[last.colour]}, {view.corners[last.seat].upper()}"
    else:
        who = fit_text(names[last.seat], font(20, True), 160)
        left = f"{who}: {last.block} {last.orient} {name(last.anchor)}, level {last.level}"
    if view.over:
        assert view.places is not None
        winners = [names[s] for s, p in enumerate(view.places) if p == 1]
        return left, f"Game over: {' & '.join(winners)} {'wins' if len(winners) == 1 else 'tie'}"
    if view.setup:
        return left, f"{names[view.turn]} to choose"
    if view.final is not None:
        return left, f"Last round: {names[view.turn]} to play"
    return left, f"{names[view.turn]} to play"


def _draw_caption(pen: Pen, view: View, names: Sequence[str], plan: Layout) -> None:
    left, _ = caption(view, names)
    x0, x1 = MARGIN, WIDTH - MARGIN
    y = CAPTION_H / 2
    if view.last is not None:
        pen.rect((x0, y - 9, x0 + 18, y + 9), None, HIGHLIGHT, 4, radius=3)
        x0 += 26
    pen.text((x0, y), left, 20, INK, "lm")
    room = x1 - x0 - text_width(left, 20) - 24
    named = 1 if view.places is None else view.places.count(1)
    share = (room - text_width(caption(view, [""] * view.players)[1], 20)) / named
    short = [fit_text(n, font(20, True), max(share, 16)) for n in names]
    pen.text((x1, y), caption(view, short)[1], 20, INK, "rm")


def _wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width``."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size, False) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _draw_card(pen: Pen, view: View, seat: int, name_: str, box: Box) -> None:
    """Colour, name, score; corner and blocks left; which blocks; the turn or the place."""
    to_play = view.turn == seat and not view.over
    pen.rect(box, CARD, TURN if to_play else CARD_LINE, 3 if to_play else 2, radius=10)
    x, y = box[0] + 10, box[1] + 22
    colour = view.colours[seat]
    if colour >= 0:
        swatch = PLAYER_COLOURS[colour]
        pen.rect((x, y - 14, x + 29, y + 14), swatch.fill, swatch.edge, 2, radius=5)
        pen.text((x + 14.5, y), swatch.letter, 19, swatch.ink)
    else:
        pen.rect((x, y - 14, x + 29, y + 14), CARD, CARD_LINE, 2, radius=5)
        pen.text((x + 14.5, y), "?", 19, MUTED)
    x += 37
    if view.places is not None:
        place = view.places[seat]
        medal = MEDALS[place - 1] if place <= len(MEDALS) else CARD_LINE
        pen.rect((x, y - 12, x + 40, y + 12), medal, None, 0, radius=12)
        pen.text((x + 20, y), _ordinal(place), 15, INK)
        x += 46
    elif to_play:
        pen.polygon([(x, y - 10), (x + 14, y), (x, y + 10)], TURN, TURN)
        x += 21
    score = str(view.scores[seat])
    right = box[2] - 10
    pen.text((right, y), score, 27, INK, "rm")
    shown = fit_text(name_, font(19, True), right - text_width(score, 27) - 10 - x)
    pen.text((x, y), shown, 19, MUTED if seat in view.resigned else INK, "lm")
    y = box[1] + 46
    text, tag = status(view, seat)
    pen.text((box[0] + 10, y), text, 15, INK, "lm", bold=False)
    if tag:
        w = text_width(tag, 12) + 11
        pen.rect((right - w, y - 10, right, y + 10), TURN, None, 0, radius=10)
        pen.text((right - w / 2, y), tag, 12, CARD)
    if view.colours[seat] >= 0:
        for i, line in enumerate(_wrap(stock_line(view, seat), 14, box[2] - box[0] - 20)[:2]):
            # two lines of 14 px fit above the card's edge, even the 3 px edge of the turn
            pen.text((box[0] + 10, y + 17 + i * 14), line, 14, MUTED, "lm", bold=False)


def status(view: View, seat: int) -> tuple[str, str]:
    """The card's second line (corner and blocks left) and a tag for anything unusual."""
    if view.colours[seat] < 0:
        return ("gave up before choosing", "") if seat in view.resigned else ("choosing", "")
    text = f"{view.corners[seat].upper()} corner · {blocks_left(view, seat)} left"
    if seat in view.resigned:
        return text, "RESIGNED"
    if view.final is not None and seat in view.final and not view.over:
        return text, "LAST TURN"
    return text, ""


def legend_lines(view: View, width: float) -> list[str]:
    """How the map reads and scores, and how the game is ending or ended, wrapped."""
    texts = [
        "Each rod scores 1 for the colour on top, the brass f6 scores 5; "
        f"rods: {view.height} layers."
    ]
    if view.ending:
        texts.append(("Ended: " if view.over else "Last round: ") + view.ending + ".")
    return [line for text in texts for line in _wrap(text, 15, width)]


def _draw_legend(pen: Pen, view: View, plan: Layout) -> None:
    x, y = plan.legend[0] + 3, plan.legend[1] + 10
    for line in legend_lines(view, plan.legend[2] - x):
        pen.text((x, y), line, 15, INK, "lm", bold=False)
        y += 19
    if view.last is not None:
        pen.rect((x, y - 8, x + 16, y + 8), None, HIGHLIGHT, 3, radius=2)
        pen.text((x + 24, y), "the last block", 15, INK, "lm", bold=False)


def render(view: View, names: Sequence[str]) -> bytes:
    """The picture for ``view`` as PNG bytes; ``names[seat]`` labels each player."""
    plan = layout(view)
    # taller only for a legend longer than any game has made so far
    pen = Pen.on(_backdrop(view.height, view.rods).taller(plan.height))
    _draw_caption(pen, view, names, plan)
    _draw_iso(pen, view, plan)
    _draw_map(pen, view, plan)
    for seat, box in enumerate(plan.cards):
        _draw_card(pen, view, seat, names[seat], box)
    _draw_legend(pen, view, plan)
    return pen.png(plan.height)


def accent(view: View, seat: int) -> RGB | None:
    """The colour a seat chose; none before it has chosen one."""
    colour = view.colours[seat]
    return PLAYER_COLOURS[colour].fill if colour >= 0 else None


def warm() -> None:
    """The palette, before the first board (the blank board depends on the options)."""
    fixed_palette(NAMED)
