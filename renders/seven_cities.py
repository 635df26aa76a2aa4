"""The Battle for Seven Cities table as a PNG: the past and future boards, then a status
panel.

Read on a phone, the picture is shown about 390 px wide, 0.39 of its size: its words are
drawn at 26 px or more (about 10 px there) and each hex's name at 0.72 of its radius. A
hex is never drawn smaller than :data:`READABLE` (46 px), where its name stands 9 px tall
on a phone. While the two boards side by side keep that radius they stand side by side
(the picture stays short: Discord shows a tall one small until it is tapped); once the
past groups laid make the board too wide for half the picture, the past is drawn above
the future, each the full width, and a board grows taller rather than its hexes smaller.

Each hex shows its terrain by colour *and* by a letter (S soil, F forest, M mountain,
L light sea, D deep sea, V volcano), and its name (``7b``) which is also how moves
name it, so nobody needs to tell colours apart. Tile groups are outlined in thick ink.
Cities are discs in the owner's colour with the owner's letter (a Metropolis has a
second ring and "2"), player tokens small lettered pawns to their left, a shield to
their right; a wall's tiles have a brick band inside their edge and a railway's a track
(drawn from centre to centre, it ran through the names); the last move is ringed in
magenta.

The renderer gets a *view*: a spectator's view has no hand in it, so a public picture
cannot show one; a seat's own view adds its hand to the panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engine.seven_cities.board import (
    COSTS,
    DEEP,
    FOREST,
    FUTURE,
    LIGHT,
    MOUNTAIN,
    PAST,
    SOIL,
    VOLCANO,
    Coord,
    Tile,
)
from engine.seven_cities.cards import BY_SLUG, clock_text
from engine.seven_cities.view import View
from renders.common import fit_text, font, text_width
from renders.ground import blank
from renders.palette import (
    BACKGROUND,
    CARD,
    CARD_LINE,
    HIGHLIGHT,
    INK,
    MUTED,
    RGB,
    SHARED,
    SIX_COLOURS,
    WAITING,
    WHITE,
    Swatch,
    fixed_palette,
)
from renders.pen import Box, Pen, Point, Sketch, glyph

WIDTH = 1000
MARGIN = 14
CAPTION_H = 92
BOARD_TITLE_H = 36
BOARD_GAP = 16
MAX_RADIUS = 58
#: the smallest hex a board is drawn with while the picture's width allows: a board
#: more than 21 radii (12 hexes) across gets smaller ones (1 random game in 60 reached
#: 22.7 radii for a while: hexes of 42.5 px, names 8.6 px tall on a phone)
READABLE = 46
MIN_RADIUS = 22
#: a board's height in px beyond which its hexes shrink, down to READABLE
BOARD_H = 600
PANEL_HEAD_H = 104  # the panel's first line, then the column names on two lines
ROW_H = 46
HAND_LINE = 40
LEGEND_H = 134
TEXT = 26  # the panel's words: about 10 px on a phone
SMALL = 24  # column names, the legend, the hand's heading
#: the middles of the panel's number columns, from its left edge: future cities first
COLUMNS = (430, 555, 680, 800, 915)
# Where things stand on a hex, in radii from its middle (y down), as drawn at
# READABLE: the name in the wide middle band, the city, pawns and shield in a row
# above it, the terrain letter in the bottom corner. Each size is a share of the radius,
# so a bigger hex is the same picture enlarged and nothing overlaps at any size.
#: the name's size (33 px at READABLE: 9.4 px tall on a phone) and its middle
NAME = 0.72
NAME_Y = 0.2
#: the terrain letter's size and middle
LETTER = 0.36
LETTER_Y = 0.64
#: the middle of the row of city, pawns and shield, and where each stands across it
ROW = -0.42
PAWNS_X = -0.52
SHIELD_X = 0.48
#: a wall's or a railway's band inside a hex's edge, in px: inside the last move's ring
RING = 3
BAND = 4
WALL: RGB = (150, 40, 20)
SHIELD: RGB = (230, 230, 236)
GHOST: RGB = (235, 232, 226)

#: terrain -> (fill, letter, letter colour); fills differ in lightness as well as hue
TERRAIN: dict[str, tuple[RGB, str, RGB]] = {
    SOIL: ((222, 200, 140), "S", INK),
    FOREST: ((92, 140, 80), "F", WHITE),
    MOUNTAIN: ((158, 150, 140), "M", INK),
    LIGHT: ((170, 214, 240), "L", INK),
    DEEP: ((40, 90, 160), "D", WHITE),
    VOLCANO: ((120, 50, 40), "V", WHITE),
}
#: every colour a table names, for its fixed palette
NAMED: tuple[RGB, ...] = (
    *SHARED,
    WALL,
    SHIELD,
    GHOST,
    *(c for fill, _, ink in TERRAIN.values() for c in (fill, ink)),
)
ERA_TITLES = ("PAST", "FUTURE")
STAGES = {
    "start": "choosing a starting tile",
    "turn": "playing cards",
    "place": "laying past tile group",
    "found": "placing the Expedition's free city",
    "discard": "discarding down to 2",
}
REACTIONS = {"defend": "Defend City", "sands": "Sands of Time", "metropolis": "Metropolis"}


def swatch(seat: int) -> Swatch:
    return SIX_COLOURS[seat]


@dataclass(frozen=True)
class Layout:
    """Where things are, in output pixels."""

    width: int
    height: int
    radius: float
    boards: tuple[Box, Box]  # past, future
    origin: tuple[Point, Point]  # pixel position of axial (0, 0) on each board
    panel: Box
    rows: tuple[Box, ...]  # one per seat in the panel
    hand: Box | None


def _pixel(q: float, r: float, radius: float) -> Point:
    """Pointy-top axial to pixels, relative to (0, 0)."""
    return radius * math.sqrt(3) * (q + r / 2), radius * 1.5 * r


def _extent(coords: Sequence[Coord]) -> tuple[float, float, float, float]:
    """The board's bounding box in units of the hex radius."""
    xs = [_pixel(q, r, 1)[0] for q, r in coords]
    ys = [_pixel(q, r, 1)[1] for q, r in coords]
    half = math.sqrt(3) / 2
    return min(xs) - half, min(ys) - 1, max(xs) + half, max(ys) + 1


def _coords(view: View) -> list[Coord]:
    coords = [(t.tile[1], t.tile[2]) for t in view.tiles if t.tile[0] == PAST]
    return coords + list(view.anchors)


def layout(view: View) -> Layout:
    """Past and future side by side while their half widths keep hexes READABLE, else
    one above the other at the full width; each board up to BOARD_H tall, taller if its
    hexes would otherwise be smaller than READABLE."""
    coords = _coords(view)
    x0, y0, x1, y1 = _extent(coords)
    full = WIDTH - 2 * MARGIN
    half = (full - BOARD_GAP) / 2
    beside = (half - 8) / (x1 - x0) >= READABLE
    board_w = half if beside else full
    # one above the other, hexes bigger than READABLE would only make the picture taller
    most = MAX_RADIUS if beside else READABLE
    radius = min(most, (board_w - 8) / (x1 - x0), max(READABLE, BOARD_H / (y1 - y0)))
    # on half pixels: boards whose extents differ a little share every hex's stamps
    radius = math.floor(max(MIN_RADIUS, radius) * 2) / 2
    board_h = (y1 - y0) * radius + 16
    boards = []
    origins = []
    for era in range(2):
        left = MARGIN + (era * (board_w + BOARD_GAP) if beside else 0)
        top: float = CAPTION_H + BOARD_TITLE_H
        if not beside:
            top += era * (board_h + BOARD_GAP + BOARD_TITLE_H)
        box = (left, top - BOARD_TITLE_H, left + board_w, top + board_h)
        boards.append(box)
        ox = left + (board_w - (x1 - x0) * radius) / 2 - x0 * radius
        origins.append((ox, top + 8 - y0 * radius))
    panel_top = boards[1][3] + 14
    rows = tuple(
        (
            MARGIN + 10,
            panel_top + PANEL_HEAD_H + i * ROW_H,
            WIDTH - MARGIN - 10,
            panel_top + PANEL_HEAD_H + (i + 1) * ROW_H,
        )
        for i in range(view.players)
    )
    bottom = rows[-1][3] + 8
    hand = None
    if view.hand is not None:
        lines = 1 + _hand_lines(view)
        hand = (MARGIN + 10, bottom, WIDTH - MARGIN - 10, bottom + 6 + HAND_LINE * lines)
        bottom = hand[3]
    legend_bottom = bottom + LEGEND_H
    panel = (MARGIN, panel_top, WIDTH - MARGIN, legend_bottom)
    return Layout(
        width=WIDTH,
        height=round(legend_bottom + MARGIN),
        radius=radius,
        boards=(boards[0], boards[1]),
        origin=(origins[0], origins[1]),
        panel=panel,
        rows=rows,
        hand=hand,
    )


def _hand_lines(view: View) -> int:
    return max(1, math.ceil(len(view.hand or ()) / 2))


def centre(plan: Layout, tile: Tile) -> tuple[int, int]:
    """A hex's centre, on a whole pixel: every hex of a terrain is then the same picture,
    and so is each of its edges, drawn once (half a pixel either way does not show)."""
    ox, oy = plan.origin[tile[0]]
    dx, dy = _pixel(tile[1], tile[2], plan.radius)
    return round(ox + dx), round(oy + dy)


def _corners(c: Point, radius: float) -> list[Point]:
    return [
        (c[0] + radius * math.cos(math.radians(60 * k - 30)),
         c[1] + radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]  # fmt: skip


# corner k to k+1 faces the neighbour in this axial direction (pointy-top, y down)
_EDGE_DIRECTION: tuple[Coord, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _draw_tiles(pen: Pen, view: View, plan: Layout) -> None:
    """Each hex as one stamp (:func:`_hex_glyph`), its name over it."""
    group_of = {(t.tile[1], t.tile[2]): t.group for t in view.tiles}
    r = plan.radius
    for t in view.tiles:
        q, rr = t.tile[1], t.tile[2]
        edges = sum(
            1 << k
            for k, (dq, dr) in enumerate(_EDGE_DIRECTION)
            if group_of.get((q + dq, rr + dr)) != t.group
        )
        stamp = _hex_glyph(t.terrain, r, edges)
        x, y = centre(plan, t.tile)
        half = stamp.width // 2
        pen.paste(stamp, (x - half, y - half))
        ink = TERRAIN[t.terrain][2]
        pen.text((x, y + r * NAME_Y), t.name[1:], round(r * NAME), ink)


@lru_cache(maxsize=1024)
def _hex_glyph(terrain: str, radius: float, edges: int) -> Image.Image:
    """A hex of ``terrain`` with its letter, outlined in thick ink on each side ``k``
    set in ``edges`` (where its tile group ends). Its neighbour across such a side has
    the same line, so whichever is drawn last, the line is whole."""
    fill, letter, ink = TERRAIN[terrain]
    half = math.ceil(radius) + 3
    middle = (half, half)
    sketches: list[Sketch] = [
        ("polygon", tuple(_corners(middle, radius - 1)), fill, BACKGROUND, 0.5)
    ]
    corners = _corners(middle, radius)
    sketches += [
        ("line", (corners[k], corners[(k + 1) % 6]), INK, None, 3.2)
        for k in range(6)
        if edges >> k & 1
    ]
    texts = [((half, half + radius * LETTER_Y), letter, round(radius * LETTER), ink)]
    return glyph((2 * half + 1, 2 * half + 1), sketches, texts)


def _draw_anchors(pen: Pen, view: View, plan: Layout) -> None:
    """While an Expedition's group is being laid: where its cell a may go, with q,r."""
    for q, r in view.anchors:
        c = centre(plan, (PAST, q, r))
        pen.polygon(_corners(c, plan.radius - 3), GHOST, MUTED)
        pen.text(c, f"{q},{r}", round(plan.radius * 0.58), INK)


def _draw_tokens(pen: Pen, view: View, plan: Layout) -> None:
    """Walls and railways lie on tiles (never the same one): each tile of a wall has a
    brick band inside its edge, each tile of a railway a track, clear of what stands on
    the hex; then shields."""
    r = plan.radius
    for tiles in view.railways:
        for t in tiles:
            _track(pen, centre(plan, t), r)
    for tiles in view.walls:
        for t in tiles:
            pen.outline(_corners(centre(plan, t), r - RING - BAND / 2), WALL, BAND)
    for tile, _seat in view.shields:
        _shield(pen, _row(plan, tile), r)


def _track(pen: Pen, c: Point, r: float) -> None:
    """A railway's track around the inside of a hex's edge: two rails and sleepers."""
    outer, inner = _corners(c, r - RING), _corners(c, r - RING - BAND)
    pen.outline(_corners(c, r - RING - 0.75), INK, 1.5)
    pen.outline(_corners(c, r - RING - BAND + 0.75), INK, 1.5)
    for k in range(6):
        a, b, p, q = outer[k], outer[(k + 1) % 6], inner[k], inner[(k + 1) % 6]
        for t in (0.2, 0.4, 0.6, 0.8):
            pen.line(
                (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t),
                (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t),
                INK,
                2,
            )


def _shield(pen: Pen, c: Point, r: float) -> None:
    """A shield at the right of the hex's row, clear of its city."""
    x, y = c[0] + r * SHIELD_X, c[1]
    s = r * 0.16
    shape = [
        (x - s, y - s * 1.1),
        (x + s, y - s * 1.1),
        (x + s, y + s * 0.1),
        (x, y + s * 1.1),
        (x - s, y + s * 0.1),
    ]
    pen.polygon(shape, SHIELD, INK)
    pen.outline(shape, INK, 2)


def _row(plan: Layout, tile: Tile) -> Point:
    """The middle of a hex's row of city, pawns and shield: above its name."""
    x, y = centre(plan, tile)
    return x, y + plan.radius * ROW


def _pawns(view: View) -> dict[Tile, list[int]]:
    by_tile: dict[Tile, list[int]] = {}
    for seat, tile in enumerate(view.positions):
        if tile is not None and seat not in view.resigned:
            by_tile.setdefault(tile, []).append(seat)
    return by_tile


def _draw_cities(pen: Pen, view: View, plan: Layout) -> None:
    """A disc in the owner's colour with the owner's letter, in the middle of the row; a
    Metropolis has a second ring and a 2."""
    r = plan.radius
    for city in view.cities:
        c = _row(plan, city.tile)
        colour = swatch(city.owner)
        size = r * 0.23
        if city.size > 1:
            pen.circle(c, r * 0.3, colour.fill, colour.edge, 2)
        pen.circle(c, size, colour.fill, colour.edge, 2.5)
        big = city.size > 1
        label = colour.letter + ("2" if big else "")
        pen.text(c, label, round(r * (0.28 if big else 0.36)), colour.ink)


def _draw_players(pen: Pen, view: View, plan: Layout) -> None:
    """Player tokens: lettered pawns side by side, left of a city and of a shield."""
    r = plan.radius
    built = {c.tile for c in view.cities}
    shielded = {tile for tile, _ in view.shields}
    for tile, seats in _pawns(view).items():
        c = _row(plan, tile)
        # the pawns' middles stay where a pawn's point is inside the hex
        left = PAWNS_X - 0.06 if tile in built else -0.55
        right = PAWNS_X + 0.06 if tile in built else (0.1 if tile in shielded else 0.55)
        h = r * 0.4
        step = min(h * 1.05, r * (right - left) / max(1, len(seats) - 1))
        start = c[0] + r * (left + right) / 2 - step * (len(seats) - 1) / 2
        for i, seat in enumerate(seats):
            colour = swatch(seat)
            x, y = start + i * step, c[1]
            pawn = [(x, y - h * 0.6), (x + h * 0.5, y + h * 0.5), (x - h * 0.5, y + h * 0.5)]
            pen.polygon(pawn, colour.fill, INK)
            pen.outline(pawn, INK, 1.5)
            if len(seats) == 1 or step >= h * 0.9:
                pen.text((x, y + h * 0.18), colour.letter, round(r * 0.3), colour.ink)


def _draw_marks(pen: Pen, view: View, plan: Layout) -> None:
    """The last move's tiles and an open window's tile, ringed along their edge."""
    tiles = list(view.marks)
    if view.window is not None and view.window.tile is not None:
        tiles.append(view.window.tile)
    for tile in tiles:
        pen.outline(_corners(centre(plan, tile), plan.radius - RING / 2), HIGHLIGHT, RING)


def _turn_line(view: View, names: Sequence[str]) -> str:
    if view.over:
        winners = [names[s] for s in range(view.players) if view.places and view.places[s] == 1]
        return f"Game over — {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share 1st'}"
    if view.window is not None:
        waiting = ", ".join(names[s] for s in view.window.waiting)
        return f"Waiting for {waiting}: {REACTIONS[view.window.kind]} or pass"
    who = names[view.turn]
    line = f"{who} to play: {STAGES.get(view.stage, view.stage)}"
    if view.stage == "place":
        line += f" {view.expedition} (grey: where its cell a may go)"
    if view.stage == "turn":
        line += f" · {view.ap} AP"
    return line


def _draw_caption(pen: Pen, view: View, names: Sequence[str], plan: Layout) -> None:
    last = "Game start"
    if view.last is not None:
        last = f"Last: {names[view.last[0]]} — {view.last[1]}"
    title = "Round 0 (starting tiles)" if view.round == 0 else f"Round {view.round}"
    pen.text((MARGIN, 22), title, 28, INK, anchor="lm")
    room = WIDTH - 2 * MARGIN - text_width(title, 28) - 24
    pen.text(
        (WIDTH - MARGIN, 22), fit_text(last, font(TEXT, True), room), TEXT, HIGHLIGHT, anchor="rm"
    )
    pen.text(
        (MARGIN, 64),
        fit_text(_turn_line(view, names), font(28, True), WIDTH - 2 * MARGIN),
        28,
        INK,
        anchor="lm",
    )
    for era, box in enumerate(plan.boards):
        pen.text((box[0] + 8, box[1] + BOARD_TITLE_H / 2), ERA_TITLES[era], 24, MUTED, anchor="lm")


def _draw_panel(pen: Pen, view: View, names: Sequence[str], plan: Layout) -> None:
    pen.rect(plan.panel, CARD, CARD_LINE, 2, 8)
    x0, y0, x1, _ = plan.panel
    head = (
        f"Draw pile {view.deck} · blue {view.blue} · red {view.red} · "
        f"past groups {view.past_deck} · clock {clock_text(view.clock)}"
    )
    pen.text(
        (x0 + 12, y0 + 26), fit_text(head, font(TEXT, True), x1 - x0 - 24), TEXT, INK, anchor="lm"
    )
    columns = tuple(x0 + x for x in COLUMNS)
    labels = (
        ("future", "cities"),
        ("all", "cities"),
        ("cards", ""),
        ("tokens", "left"),
        ("shields", ""),
    )
    for x, (top, below) in zip(columns, labels, strict=True):
        pen.text((x, y0 + (64 if below else 76)), top, SMALL, MUTED, anchor="mm")
        if below:
            pen.text((x, y0 + 88), below, SMALL, MUTED, anchor="mm")
    for seat, row in enumerate(plan.rows):
        colour = swatch(seat)
        cy = (row[1] + row[3]) / 2
        if seat in view.to_play and not view.over:
            pen.rect((row[0] - 4, row[1] + 1, row[2] + 4, row[3] - 1), WAITING, None, 0, 6)
        pen.circle((row[0] + 19, cy), 17, colour.fill, colour.edge, 2)
        pen.text((row[0] + 19, cy), colour.letter, 20, colour.ink)
        label = f"{seat + 1} {names[seat]}"
        if seat == view.first and view.round:
            label += " (first)"
        if seat in view.resigned:
            label += " (resigned)"
        # a finished game's place ends where the widest cities count could begin
        place = "" if view.places is None else f"#{view.places[seat]}"
        place_end = columns[0] - text_width(f"{2 * view.goal}/{view.goal}", TEXT) / 2 - 8
        room = place_end - (text_width(place, TEXT) + 10 if place else 0) - (row[0] + 46)
        pen.text((row[0] + 46, cy), fit_text(label, font(TEXT, True), room), TEXT, INK, anchor="lm")
        future_shields = sum(1 for _, s in view.shields if s == seat)
        values = (
            f"{view.future_cities[seat]}/{view.goal}",
            str(view.all_cities[seat]),
            str(view.hand_counts[seat]),
            str(view.supply[seat]),
            str(future_shields),
        )
        for x, value in zip(columns, values, strict=True):
            pen.text((x, cy), value, TEXT, INK, anchor="mm")
        if place:
            pen.text((place_end, cy), place, TEXT, HIGHLIGHT, anchor="rm")
    if plan.hand is not None and view.hand is not None:
        hx, hy = plan.hand[0], plan.hand[1]
        heading = "Your hand (only you see this):"
        pen.text((hx, hy + HAND_LINE / 2), heading, SMALL, MUTED, anchor="lm")
        width = (plan.hand[2] - hx) / 2
        if not view.hand:
            pen.text((hx, hy + HAND_LINE * 1.5), "no cards", TEXT, MUTED, anchor="lm")
        for i, slug in enumerate(view.hand):
            card = BY_SLUG[slug]
            line, col = divmod(i, 2)
            text = (
                f"{card.points} Action Points" if card.plain else f"{card.name} · {card.points} AP"
            )
            pen.text(
                (hx + col * width, hy + HAND_LINE * (1.5 + line)),
                fit_text(text, font(TEXT, True), width - 12),
                TEXT,
                INK,
                anchor="lm",
            )
    _draw_legend(pen, view, plan)


def _costs(terrain: str) -> str:
    """Build/travel AP in the future, then in the past, from the engine's table: "4/1 · 5/1"."""
    eras = []
    for era in (FUTURE, PAST):
        if terrain in COSTS[era]:
            build, travel = COSTS[era][terrain]
            eras.append(f"{'–' if build is None else build}/{travel}")
    return " · ".join(eras)


def _draw_legend(pen: Pen, view: View, plan: Layout) -> None:
    """The six terrains, three a line: swatch and letter, name, and what each costs."""
    x0, _, x1, y1 = plan.panel
    top = y1 - LEGEND_H + 14
    title = "Terrain — build/travel AP: future · past"
    pen.text((x0 + 12, top + 12), title, SMALL, MUTED, anchor="lm")
    step = (x1 - x0 - 24) / 3
    for i, (terrain, (fill, letter, ink)) in enumerate(TERRAIN.items()):
        row, col = divmod(i, 3)
        x, y = x0 + 12 + col * step, top + 34 + row * 42
        pen.rect((x, y, x + 32, y + 32), fill, INK, 1, 4)
        pen.text((x + 16, y + 16), letter, 20, ink)
        pen.text((x + 40, y + 16), terrain, SMALL, INK, anchor="lm")
        pen.text((x + 190, y + 16), _costs(terrain), SMALL, INK, anchor="lm", bold=False)


def render(view: View, names: Sequence[str]) -> bytes:
    plan = layout(view)
    pen = Pen.on(blank(plan.width, plan.height, NAMED))
    _draw_caption(pen, view, names, plan)
    _draw_anchors(pen, view, plan)
    _draw_tiles(pen, view, plan)
    _draw_tokens(pen, view, plan)
    _draw_cities(pen, view, plan)
    _draw_players(pen, view, plan)
    _draw_marks(pen, view, plan)
    _draw_panel(pen, view, names, plan)
    return pen.png(plan.height)


def accent(view: View, seat: int) -> RGB:
    """The seat's colour, as its cities and tokens are drawn."""
    return swatch(seat).fill


def warm() -> None:
    """The palette, before the first board (the plain ground waits for one: a worker
    holds it only for the games it draws)."""
    fixed_palette(NAMED)
