"""The Skybridge board as a PNG: every tower's stack, the bridges, the roofs and the players.

The board is drawn as a 3x3 grid seen from the front: each foundation shows its tower
as a column of pieces, bottom to top, each piece as tall as its stories and lettered
with its colour's initial. Bridges are planks between neighbouring towers at their
level, roofs are caps in their owner's colour. Below the board, one card per player
gives colours, score, pieces left and whose turn it is.

Everything is laid out in output pixels by :func:`layout` (which the tests also use
to find pieces), and drawn with :class:`renders.pen.Pen`'s cached stamps. The phone
is the target: Discord shows the picture about 400 px wide, so pieces, letters and
numbers are big.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engine.skybridge.board import KINDS, SQUARES, STORIES
from engine.skybridge.state import initial_stock, new, scoring_colours
from engine.skybridge.view import View
from engine.skybridge.view import view as view_of
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
    WOOD,
    WOOD_EDGE,
    Swatch,
    fixed_palette,
)
from renders.pen import SCALE, Box, Pen, Point

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

WOOD_TEXT: RGB = (255, 246, 226)
CELL: RGB = (245, 240, 229)
CELL_LINE: RGB = (212, 200, 180)
PLATE: RGB = (110, 106, 100)
EMPTY_PLATE: RGB = (200, 193, 182)


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
    wherever it stands and is drawn once (see :class:`Pen`)."""
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
    last = "New game" if view.last is None else f"Last: {view.last_move}"
    if not view.over:
        return last, f"{names[view.turn]} to play"
    assert view.places is not None
    winners = [names[seat] for seat, place in enumerate(view.places) if place == 1]
    verb = "wins" if len(winners) == 1 else "tie"
    return last, f"Game over: {' & '.join(winners)} {verb}"


def _centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _letter(pen: Pen, box: Box, swatch: Swatch, height: float) -> None:
    """The colour's initial on a piece, when there is room for a legible one."""
    size = round(min(height * 0.7, 30))
    if size >= 11:
        pen.text(_centre(box), swatch.letter, size, swatch.ink)


def _draw_board(pen: Pen, plan: Layout) -> None:
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


def _cell_line(pen: Pen, line: Box) -> None:
    """A line between cells: what each cell's 1 px outline gives on that edge, drawn
    once for the whole board (the cell on one side covers the pixel after the edge,
    the cell on the other half the pixel before it)."""
    x0, y0, x1, y1 = line
    half = 1 / SCALE
    pen.rect((x0, y0, x1 + half, y1 + half), CELL_LINE)
    pen.rect((x0 - half, y0 - half, x1, y1), CELL_LINE)


def _draw_rows(pen: Pen, plan: Layout) -> None:
    """The lines between rows and the row numbers on the wood: rows grow with their
    towers, so these move from board to board, once a tower outgrows its third of the
    board (the lines between columns never do, and are drawn with the wood)."""
    x0, x1 = plan.cells[6][0], plan.cells[8][2]
    for row in range(3):
        cell = plan.cells[row * 3]
        _cell_line(pen, (x0, cell[1], x1, cell[1]))
    _cell_line(pen, (x0, plan.cells[0][3], x1, plan.cells[0][3]))
    for row in range(3):
        cell = plan.cells[row * 3]
        pen.text((x0 - GUTTER / 2, (cell[1] + cell[3]) / 2), str(row + 1), 24, WOOD_TEXT)


def _draw_names(pen: Pen, plan: Layout) -> None:
    """Each square's name in its corner, over whatever a bridge's bracket put there."""
    for sq, cell in enumerate(plan.cells):
        pen.text((cell[0] + 14, cell[1] + 12), SQUARES[sq], 17, MUTED, "lt", bold=False)


def _draw_plates(pen: Pen, view: View, plan: Layout) -> None:
    """The foundations, each carrying its tower's height in stories; empty ones are pale."""
    for sq, cell in enumerate(plan.cells):
        cx = (cell[0] + cell[2]) / 2
        base = _base(cell)
        plate = (cx - BAR_W / 2 - 14, base, cx + BAR_W / 2 + 14, base + PLATE_H)
        if view.board[sq]:
            pen.rect(plate, PLATE, None, 0, radius=5)
            pen.text(_centre(plate), str(view.heights[sq]), 22, WHITE)
        else:
            pen.rect(plate, EMPTY_PLATE, None, 0, radius=5)


def _draw_stack(pen: Pen, view: View, sq: int, boxes: tuple[Box, ...]) -> None:
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


def _badge(pen: Pen, centre: Point, swatch: Swatch) -> None:
    """A bridge's letter in a disc mid-span, readable however thin the bridge is drawn."""
    pen.circle(centre, BADGE / 2, swatch.fill, swatch.edge, 2)
    pen.text(centre, swatch.letter, 24, swatch.ink)


def _bridge_box(view: View, plan: Layout, sq: int, colour: int) -> Box:
    """Where ``colour``'s bridge sits in the tower on ``sq``."""
    index = next(
        i for i, p in enumerate(view.board[sq]) if p.kind == "bridge" and p.colour == colour
    )
    return plan.pieces[sq][index]


def _draw_plank(pen: Pen, left: Box, right: Box, swatch: Swatch) -> None:
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


def _draw_vertical(pen: Pen, ends: tuple[Box, Box], swatch: Swatch, side: int, lane: int) -> None:
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


def _draw_bridges(pen: Pen, view: View, plan: Layout) -> None:
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


def _draw_last(pen: Pen, view: View, plan: Layout) -> None:
    """Outline the cell (both cells, for a bridge) where the last piece went."""
    if view.last is None:
        return
    for sq in view.last.squares:
        x0, y0, x1, y1 = plan.cells[sq]
        pen.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3), None, HIGHLIGHT, 6, radius=6)


def _draw_caption(pen: Pen, view: View, names: Sequence[str], plan: Layout) -> None:
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


def _draw_icon(pen: Pen, x: float, y: float, kind: str, swatch: Swatch) -> float:
    """A small piece shape for the stock line; returns its width."""
    w, h = {"tall": (12, 28), "cube": (18, 18), "bridge": (26, 9), "roof": (24, 16)}[kind]
    box = (x, y - h / 2, x + w, y + h / 2)
    if kind == "roof":
        corners = [(x, box[3]), (x + w / 2, box[1]), (x + w, box[3])]
        pen.polygon(corners, swatch.fill, swatch.edge, 1.5)
    else:
        pen.rect(box, swatch.fill, swatch.edge, 1.5, radius=2)
    return w


def _draw_stock(pen: Pen, view: View, seat: int, x: float, y: float) -> None:
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


def _draw_marker(pen: Pen, view: View, seat: int, x: float, y: float) -> float:
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


def _draw_card(pen: Pen, view: View, seat: int, name: str, box: Box) -> None:
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


def _draw_neutral_note(pen: Pen, view: View, plan: Layout) -> None:
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
def _backdrop(players: int, even: bool) -> Ground:
    """What every board for ``players`` shares: the wood, the cells' ground, the column
    letters, each player's blank card and the neutral note; with ``even`` rows (each a
    third of the board, as they are until a tower outgrows one: most of a game) the rows'
    lines and numbers too. Drawn once per process."""
    view = _blank_view(players)
    plan = layout(view)  # no tower yet: even rows
    pen = Pen(Image.new("RGB", (plan.width, plan.height), BACKGROUND))
    _draw_board(pen, plan)
    if even:
        _draw_rows(pen, plan)
    for box in plan.cards:
        pen.rect(box, CARD, CARD_LINE, 2, radius=12)
    _draw_neutral_note(pen, view, plan)
    return Ground(pen.finish(), palette())


def _blank_view(players: int) -> View:
    return view_of(new(players, 0), None)


@lru_cache(maxsize=1)
def _even_cells() -> tuple[Box, ...]:
    """Where the cells are while every row is a third of the board."""
    return layout(_blank_view(2)).cells


def render(view: View, names: Sequence[str]) -> bytes:
    """The board for ``view`` as PNG bytes; ``names[seat]`` labels each player."""
    plan = layout(view)
    even = plan.cells == _even_cells()
    pen = Pen.on(_backdrop(view.players, even))
    _draw_caption(pen, view, names, plan)
    if not even:
        _draw_rows(pen, plan)
    _draw_names(pen, plan)
    _draw_last(pen, view, plan)
    _draw_bridges(pen, view, plan)
    for sq in range(9):
        _draw_stack(pen, view, sq, plan.pieces[sq])
    _draw_plates(pen, view, plan)
    for seat, box in enumerate(plan.cards):
        _draw_card(pen, view, seat, names[seat], box)
    return pen.png()


#: every colour a board names, for its fixed palette
NAMED: tuple[RGB, ...] = (
    *SHARED,
    WOOD_TEXT,
    CELL,
    CELL_LINE,
    PLATE,
    EMPTY_PLATE,
)


def palette() -> Image.Image:
    """The palette every Skybridge board is mapped onto (see :func:`fixed_palette`)."""
    return fixed_palette(NAMED)


def accent(view: View, seat: int) -> RGB:
    """A seat's first colour: a seat of a two-player game plays two, its first names it."""
    return PLAYER_COLOURS[view.seat_colours[seat][0]].fill


def warm() -> None:
    """The palette and every player count's blank board, before the first board."""
    for players in (2, 3, 4):
        _backdrop(players, even=True)
