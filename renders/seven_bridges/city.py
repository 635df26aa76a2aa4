"""The map of Königsberg on a player's sheet: the printed map, then the player's marks.

The map data (engine.seven_bridges.board) says which arms every building and tree is seen
from, not where it stands; here each gets a place in one of the four quarters of its
square beside that arm (a corner building between its two arms), four places a quarter,
and each landmark letter a whole quarter beside its arm. Geometry is in output pixels
from ``grid``, the box of the 12x12 squares.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seven_bridges.board import CITY, QUADRANTS, SIZE
from engine.seven_bridges.legend import HIDDEN_RING, crossed, visited
from engine.seven_bridges.lines import SQUARE_ARM, bits
from engine.seven_bridges.view import View
from renders.palette import HIGHLIGHT, INK, MUTED, RGB, WHITE, Swatch
from renders.pen import Box, Pen, Point, box_centre
from renders.seven_bridges.pieces import DELTA

GUTTER = 28  # the coordinates round the map
CELL = 66  # one square

STREET_W = 5.0
PATH_W = 3.5  # footpaths, dashed
LINE_W = 9.0  # the player's line
CASING_W = 13.0  # its dark outline
HALO_W = 23.0  # the last move's glow

PAPER: RGB = (244, 237, 218)
WATER: RGB = (186, 218, 238)
WAVE: RGB = (120, 168, 204)
FIELD: RGB = (214, 230, 196)
GRID: RGB = (221, 208, 182)
QUADRANT_LINE: RGB = (120, 104, 80)
STREET: RGB = (148, 138, 126)
DECK: RGB = (196, 176, 140)
PARAPET: RGB = (104, 88, 64)
HOUSE: RGB = (252, 250, 244)
HOUSE_EDGE: RGB = (132, 100, 72)
HOUSE_SEEN: RGB = (112, 70, 38)
TREE: RGB = (214, 234, 208)
TREE_EDGE: RGB = (84, 140, 84)
TREE_SEEN: RGB = (36, 112, 56)
START: RGB = INK
#: the map's own colours, for the sheet's fixed palette
NAMED: tuple[RGB, ...] = (
    PAPER,
    WATER,
    WAVE,
    FIELD,
    GRID,
    QUADRANT_LINE,
    STREET,
    DECK,
    PARAPET,
    HOUSE,
    HOUSE_EDGE,
    HOUSE_SEEN,
    TREE,
    TREE_EDGE,
    TREE_SEEN,
)

# A square's quarters between its arms, as (x sign, y sign): NE, SE, SW, NW.
QUARTERS = ((1, -1), (1, 1), (-1, 1), (-1, -1))
FLANKS = ((3, 0), (0, 1), (1, 2), (2, 3))  # the two quarters beside an arm N, E, S, W
SLOT_AT = (13, 25)  # a slot's distance from the square's centre lines, along each axis
SLOT_ORDER = {  # slots (i, j), nearest the arm first: beside a N/S arm, an E/W arm, a corner
    "vertical": ((0, 1), (0, 0), (1, 1), (1, 0)),
    "horizontal": ((1, 0), (0, 0), (1, 1), (0, 1)),
    "corner": ((0, 0), (1, 0), (0, 1), (1, 1)),
}
LETTER_AT = 19  # a landmark letter's distance from the centre lines


@dataclass(frozen=True)
class Spot:
    """A building or tree: where it stands, and the arms it is seen from (a bit set)."""

    square: int
    quarter: int
    slot: tuple[int, int]
    arms: int


def _quarter_between(d1: int, d2: int) -> int:
    return next(q for q in range(4) if q in FLANKS[d1] and q in FLANKS[d2])


def _crowding(square: int, quarter: int) -> tuple[int, int]:
    """How hemmed in a quarter is: arms bounding it, and whether the square beside it
    (east or west) has streets. Landmark letters go where it is most open."""
    sx, _ = QUARTERS[quarter]
    bounding = sum(1 for d in CITY.arms[square] if quarter in FLANKS[d])
    col = square % SIZE + sx
    streets = 0 <= col < SIZE and bool(CITY.arms[square + sx])
    return bounding, int(streets)


def _place() -> tuple[dict[str, tuple[int, int]], tuple[Spot, ...], tuple[Spot, ...]]:
    """Landmark letters (square, quarter), then buildings and trees, in map.json order."""
    corner_items: dict[tuple[int, int], int] = {}
    for seen in CITY.buildings + CITY.trees:
        if len(seen) == 2:
            key = (seen[0][0], _quarter_between(seen[0][1], seen[1][1]))
            corner_items[key] = corner_items.get(key, 0) + 1
    taken: dict[tuple[int, int], list[tuple[int, int]]] = {}
    letters = {}
    for lm in CITY.landmarks:
        square, d = lm.arm
        quarter = min(
            FLANKS[d], key=lambda q: (corner_items.get((square, q), 0), *_crowding(square, q))
        )
        letters[lm.letter] = (square, quarter)
        taken[(square, quarter)] = list(SLOT_ORDER["corner"])

    def spot(seen: tuple[tuple[int, int], ...]) -> Spot:
        square = seen[0][0]
        dirs = [d for _, d in seen]
        beside = sorted(
            {q for d in dirs for q in FLANKS[d]}, key=lambda q: len(taken.get((square, q), []))
        )
        if len(dirs) == 2:
            between = _quarter_between(*dirs)
            quarters = [between, *(q for q in beside if q != between)]
            order = SLOT_ORDER["corner"]
        else:
            quarters = beside
            order = SLOT_ORDER["vertical" if dirs[0] % 2 == 0 else "horizontal"]
        for quarter in quarters:
            used = taken.setdefault((square, quarter), [])
            free = [slot for slot in order if slot not in used]
            if free:
                used.append(free[0])
                return Spot(square, quarter, free[0], sum(1 << SQUARE_ARM[s][d] for s, d in seen))
        raise ValueError(f"no room on the map for an item seen from {seen}")

    return letters, tuple(spot(s) for s in CITY.buildings), tuple(spot(s) for s in CITY.trees)


LETTER_SPOTS, BUILDING_SPOTS, TREE_SPOTS = _place()
EXITS = {(sq, d): (SQUARE_ARM[sq][d], value) for (sq, d), value in CITY.exits}


# -- geometry ------------------------------------------------------------------------------


def square_box(grid: Box, square: int) -> Box:
    x = grid[0] + (square % SIZE) * CELL
    y = grid[1] + (square // SIZE) * CELL
    return x, y, x + CELL, y + CELL


def square_centre(grid: Box, square: int) -> Point:
    return box_centre(square_box(grid, square))


def arm_ends(grid: Box, arm: int) -> tuple[Point, Point]:
    """An arm's two ends: its square's centre and the edge midpoint it reaches."""
    cx, cy = square_centre(grid, arm // 4)
    dx, dy = DELTA[arm % 4]
    return (cx, cy), (cx + dx * CELL / 2, cy + dy * CELL / 2)


def spot_centre(grid: Box, spot: Spot) -> Point:
    cx, cy = square_centre(grid, spot.square)
    sx, sy = QUARTERS[spot.quarter]
    return cx + sx * SLOT_AT[spot.slot[0]], cy + sy * SLOT_AT[spot.slot[1]]


def letter_centre(grid: Box, letter: str) -> Point:
    square, quarter = LETTER_SPOTS[letter]
    cx, cy = square_centre(grid, square)
    sx, sy = QUARTERS[quarter]
    return cx + sx * LETTER_AT, cy + sy * LETTER_AT


def bridge_badge(grid: Box, number: int) -> Point:
    """Where a bridge's number sits: on the water beside the deck."""
    square = CITY.bridges[number - 1].square
    cx, cy = square_centre(grid, square)
    return (cx - 22, cy) if 0 in CITY.arms[square] else (cx, cy - 22)


def hidden_trees(grid: Box) -> list[Point]:
    """Landmark H's hidden trees: a copse of nine in its block."""
    cx, cy = square_centre(grid, CITY.hidden_block)
    return [(cx + dx * 15, cy + dy * 15) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def label_spots(grid: Box) -> list[tuple[Point, int, int, str]]:
    """Every coordinate label round the frame: (centre, square, edge direction, label)."""
    gx0, gy0, gx1, gy1 = grid
    half = GUTTER / 2
    spots = []
    for k in range(SIZE):
        label = str(k % 6 + 1)
        x, y = gx0 + (k + 0.5) * CELL, gy0 + (k + 0.5) * CELL
        spots += [
            ((x, gy0 - half), k, 0, label),
            ((x, gy1 + half), (SIZE - 1) * SIZE + k, 2, label),
            ((gx0 - half, y), k * SIZE, 3, label),
            ((gx1 + half, y), k * SIZE + SIZE - 1, 1, label),
        ]
    return spots


# -- the printed map -----------------------------------------------------------------------


def _waves(pen: Pen, box: Box) -> None:
    """Two rows of little waves: water is told by pattern as well as by colour."""
    x0, y0, _, y1 = box
    for row, fy in enumerate((0.32, 0.72)):
        y = y0 + (y1 - y0) * fy
        for k in range(3):
            a = x0 + (12 if row == 0 else 26) + k * 10
            down = k % 2 == 0
            pen.arc((a, y - 4, a + 10, y + 4), 200 if down else 20, 340 if down else 160, WAVE, 2)


def house(pen: Pen, centre: Point, fill: RGB, edge: RGB) -> None:
    """A house a phone can show: as wide as its slot allows, its outline two pixels."""
    x, y = centre
    pen.polygon([(x - 7, y - 1), (x, y - 8), (x + 7, y - 1), (x + 7, y + 7), (x - 7, y + 7)], edge)
    inner = [(x - 5, y - 0.2), (x, y - 5.2), (x + 5, y - 0.2), (x + 5, y + 5), (x - 5, y + 5)]
    pen.polygon(inner, fill)


def tree(pen: Pen, centre: Point, fill: RGB, edge: RGB) -> None:
    pen.circle(centre, 6.5, fill, edge, 2)


def draw_printed(pen: Pen, grid: Box) -> None:
    """Land, river, fields, the square grid, bridges, streets, footpaths, buildings and
    trees, quadrant lines: everything that is the same on every sheet."""
    pen.rect(grid, PAPER)
    for square, kind in enumerate(CITY.kinds):
        box = square_box(grid, square)
        if kind == "water":
            pen.rect(box, WATER)
            _waves(pen, box)
        elif kind == "bridge":
            pen.rect(box, WATER)
        elif kind == "field":
            pen.rect(box, FIELD)
    gx0, gy0, gx1, gy1 = grid
    for k in range(1, SIZE):
        pen.bar((gx0 + k * CELL, gy0), (gx0 + k * CELL, gy1), 1, GRID)
        pen.bar((gx0, gy0 + k * CELL), (gx1, gy0 + k * CELL), 1, GRID)
    for bridge in CITY.bridges:
        x0, y0, x1, y1 = square_box(grid, bridge.square)
        cx, cy = box_centre((x0, y0, x1, y1))
        if 0 in CITY.arms[bridge.square]:  # runs north-south
            pen.rect((cx - 14, y0 - 2, cx + 14, y1 + 2), DECK, PARAPET, 2.5)
        else:
            pen.rect((x0 - 2, cy - 14, x1 + 2, cy + 14), DECK, PARAPET, 2.5)
    x0, y0, x1, y1 = square_box(grid, CITY.hidden_block)
    pen.rect((x0 + 6, y0 + 6, x1 - 6, y1 - 6), None, TREE_EDGE, 1.5, 8)
    for square in range(SIZE * SIZE):
        for d, footpath in CITY.arms[square].items():
            a, b = arm_ends(grid, 4 * square + d)
            if footpath:
                pen.dashes(a, b, PATH_W, STREET)
            else:
                pen.bar(a, b, STREET_W, STREET)
    for spot in BUILDING_SPOTS:
        house(pen, spot_centre(grid, spot), HOUSE, HOUSE_EDGE)
    for spot in TREE_SPOTS:
        tree(pen, spot_centre(grid, spot), TREE, TREE_EDGE)
    for centre in hidden_trees(grid):
        tree(pen, centre, TREE, TREE_EDGE)
    mx, my = gx0 + 6 * CELL, gy0 + 6 * CELL
    pen.bar((mx, gy0), (mx, gy1), 2.5, QUADRANT_LINE)
    pen.bar((gx0, my), (gx1, my), 2.5, QUADRANT_LINE)
    pen.rect(grid, None, QUADRANT_LINE, 2.5)


# -- the player's marks --------------------------------------------------------------------


def _draw_seen(pen: Pen, grid: Box, drawn: int) -> None:
    """Buildings and trees passed are coloured in, as on the paper sheet; H's hidden
    trees once the whole ring round its block is drawn."""
    for spot in BUILDING_SPOTS:
        if drawn & spot.arms:
            house(pen, spot_centre(grid, spot), HOUSE_SEEN, HOUSE_SEEN)
    for spot in TREE_SPOTS:
        if drawn & spot.arms:
            tree(pen, spot_centre(grid, spot), TREE_SEEN, TREE_SEEN)
    if drawn & HIDDEN_RING == HIDDEN_RING:
        for centre in hidden_trees(grid):
            tree(pen, centre, TREE_SEEN, TREE_SEEN)


def _draw_start(pen: Pen, grid: Box, square: int) -> None:
    """The starting square: a heavy black frame with a white rim inside."""
    x0, y0, x1, y1 = square_box(grid, square)
    pen.rect((x0 - 2, y0 - 2, x1 + 2, y1 + 2), None, START, 4)
    pen.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), None, WHITE, 2)


def _draw_last(pen: Pen, grid: Box, view: View) -> None:
    """The viewer's own last move: a magenta glow under its lines and a dashed magenta
    frame on each square it touched (a pattern, for anyone who cannot see magenta)."""
    if view.last_seat != view.seat or not view.last_arms:
        return
    for a in view.last_arms:
        pen.bar(*arm_ends(grid, a), HALO_W, HIGHLIGHT)
    dash = CELL / 8
    for square in sorted({a // 4 for a in view.last_arms}):
        x0, y0, x1, y1 = square_box(grid, square)
        for k in range(4):
            t = k * CELL / 4 + 2
            for start, end in (
                ((x0 + t, y0 + 2), (x0 + t + dash, y0 + 2)),
                ((x0 + t, y1 - 2), (x0 + t + dash, y1 - 2)),
                ((x0 + 2, y0 + t), (x0 + 2, y0 + t + dash)),
                ((x1 - 2, y0 + t), (x1 - 2, y0 + t + dash)),
            ):
                pen.bar(start, end, 3.5, HIGHLIGHT)


def _draw_lines(pen: Pen, grid: Box, drawn: tuple[int, ...], colour: Swatch) -> None:
    """The player's lines: a dark casing under the colour, so even yellow stands out."""
    ends = [arm_ends(grid, a) for a in drawn]
    for a, b in ends:
        pen.bar(a, b, CASING_W, colour.edge)
    for a, b in ends:
        pen.bar(a, b, LINE_W, colour.fill)


def _draw_loop(pen: Pen, grid: Box, loop_arms: int, colour: Swatch) -> None:
    """The best closed loop, the one the Loop item scores: dots along its middle."""
    for a in bits(loop_arms):
        (cx, cy), (ex, ey) = arm_ends(grid, a)
        for k in (0.25, 0.75):
            pen.circle((cx + k * (ex - cx), cy + k * (ey - cy)), 2.2, colour.ink, None)


def _draw_bridges(pen: Pen, grid: Box, drawn: int, colour: Swatch) -> None:
    done = crossed(drawn)
    for bridge in CITY.bridges:
        on = bridge.number in done
        x, y = bridge_badge(grid, bridge.number)
        box = (x - 11, y - 11, x + 11, y + 11)
        pen.rect(box, colour.fill if on else WHITE, colour.edge if on else INK, 2, 4)
        pen.text((x, y), str(bridge.number), 16, colour.ink if on else INK)


def _draw_landmarks(pen: Pen, grid: Box, drawn: int, colour: Swatch) -> None:
    done = visited(drawn)
    for lm in CITY.landmarks:
        on = lm.letter in done
        centre = letter_centre(grid, lm.letter)
        pen.circle(centre, 13, colour.fill if on else WHITE, colour.edge if on else INK, 2.5)
        pen.text(centre, lm.letter, 17, colour.ink if on else INK)


def _draw_frame(pen: Pen, grid: Box, drawn: int, colour: Swatch) -> None:
    """Row and column numbers (1–6 within each quadrant) on every side, the quadrant
    names in the corners, and each map-edge exit's value in a circle, filled once the
    player's line reaches it."""
    for centre, square, d, label in label_spots(grid):
        exit_ = EXITS.get((square, d))
        if exit_ is None:
            pen.text(centre, label, 16, MUTED, bold=False)
            continue
        arm, value = exit_
        on = bool(drawn >> arm & 1)
        pen.circle(centre, 12, colour.fill if on else WHITE, colour.edge if on else INK, 2)
        pen.text(centre, str(value), 16, colour.ink if on else INK)
    gx0, gy0, gx1, gy1 = grid
    half = GUTTER / 2
    corners: tuple[Point, ...] = ((gx0 - half, gy0 - half), (gx1 + half, gy0 - half))
    corners += ((gx0 - half, gy1 + half), (gx1 + half, gy1 + half))
    for name, centre in zip(QUADRANTS, corners, strict=True):
        pen.text(centre, name, 17, QUADRANT_LINE)


def own_seat(view: View) -> int:
    """The seat whose sheet is drawn: only a seat's view has one (``render`` sends a
    spectator's to the public card)."""
    assert view.seat is not None, "a sheet is drawn for a seat's view, not a spectator's"
    return view.seat


def draw_player(pen: Pen, grid: Box, view: View, colour: Swatch) -> None:
    """Everything the viewer has done, over the printed map."""
    player = view.seats[own_seat(view)]
    drawn = sum(1 << a for a in player.drawn)
    _draw_seen(pen, grid, drawn)
    _draw_start(pen, grid, view.start)
    _draw_last(pen, grid, view)
    _draw_lines(pen, grid, player.drawn, colour)
    _draw_loop(pen, grid, player.card.loop.arms, colour)
    _draw_bridges(pen, grid, drawn, colour)
    _draw_landmarks(pen, grid, drawn, colour)
    _draw_frame(pen, grid, drawn, colour)
