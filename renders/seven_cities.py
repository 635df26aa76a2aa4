"""The Battle for Seven Cities table as a PNG: the past and future boards side by side,
then a status panel.

Read on a phone, the picture is shown about 390 px wide, 0.39 of its size: its words are
drawn at 26 px or more (about 10 px there) and each hex's name at 0.58 of its radius
(13 px there at the largest hexes), the boards filling their half of the width.

Each hex shows its terrain by colour *and* by a letter (S soil, F forest, M mountain,
L light sea, D deep sea, V volcano), and its name (``7b``) which is also how moves
name it, so nobody needs to tell colours apart. Tile groups are outlined in thick ink.
Cities are discs in the owner's colour with the owner's letter (a Metropolis has a
second ring and "2"); shields, walls (brick outline), railways (tracks) and player
tokens (small lettered pawns) sit on the hexes; the last move is ringed in magenta.

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
    neighbours_of,
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
MIN_RADIUS = 22
PANEL_HEAD_H = 104  # the panel's first line, then the column names on two lines
ROW_H = 46
HAND_LINE = 40
LEGEND_H = 134
TEXT = 26  # the panel's words: about 10 px on a phone
SMALL = 24  # column names, the legend, the hand's heading
#: the middles of the panel's number columns, from its left edge: future cities first
COLUMNS = (430, 555, 680, 800, 915)
#: how far above a hex's middle its city and pawns stand, in radii: its name is below
RAISED = 0.18
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
    coords = _coords(view)
    x0, y0, x1, y1 = _extent(coords)
    board_w = (WIDTH - 2 * MARGIN - BOARD_GAP) / 2
    radius = min(MAX_RADIUS, (board_w - 8) / (x1 - x0), 600 / (y1 - y0))
    # on half pixels: boards whose extents differ a little share every hex's stamps
    radius = math.floor(max(MIN_RADIUS, radius) * 2) / 2
    board_h = (y1 - y0) * radius + 16
    top = CAPTION_H + BOARD_TITLE_H
    boards = []
    origins = []
    for i in range(2):
        left = MARGIN + i * (board_w + BOARD_GAP)
        box = (left, top - BOARD_TITLE_H, left + board_w, top + board_h)
        boards.append(box)
        ox = left + (board_w - (x1 - x0) * radius) / 2 - x0 * radius
        origins.append((ox, top + 8 - y0 * radius))
    panel_top = top + board_h + 14
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
        pen.text((x, y + r * 0.42), t.name[1:], max(14, round(r * 0.58)), ink)


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
    texts = [((half, half - radius * 0.68), letter, max(11, round(radius * 0.3)), ink)]
    return glyph((2 * half + 1, 2 * half + 1), sketches, texts)


def _draw_anchors(pen: Pen, view: View, plan: Layout) -> None:
    """While an Expedition's group is being laid: where its cell a may go, with q,r."""
    for q, r in view.anchors:
        c = centre(plan, (PAST, q, r))
        pen.polygon(_corners(c, plan.radius - 3), GHOST, MUTED)
        pen.text(c, f"{q},{r}", max(11, round(plan.radius * 0.34)), INK)


def _draw_tokens(pen: Pen, view: View, plan: Layout) -> None:
    r = plan.radius
    for tiles in view.railways:
        _draw_rail(pen, [centre(plan, t) for t in tiles], tiles, r)
    for tiles in view.walls:
        for t in tiles:
            pen.outline(_corners(centre(plan, t), r - 5), WALL, 5)
    for tile, _seat in view.shields:
        _shield(pen, _raised(plan, tile), r)


def _draw_rail(pen: Pen, points: list[Point], tiles: tuple[Tile, ...], r: float) -> None:
    """Tracks between the centres of neighbouring railway tiles, with sleepers."""
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            a, b = tiles[i], tiles[j]
            if (b[1], b[2]) not in neighbours_of((a[1], a[2])):
                continue
            p, s = points[i], points[j]
            length = math.dist(p, s)
            ux, uy = (s[0] - p[0]) / length, (s[1] - p[1]) / length
            for k in range(1, 6):
                mx, my = p[0] + ux * length * k / 6, p[1] + uy * length * k / 6
                pen.line((mx - uy * r * 0.22, my + ux * r * 0.22),
                                 (mx + uy * r * 0.22, my - ux * r * 0.22), INK, 2.5)  # fmt: skip
            for side in (-1, 1):
                off = side * r * 0.12
                pen.line((p[0] - uy * off, p[1] + ux * off),
                                 (s[0] - uy * off, s[1] + ux * off), INK, 2)  # fmt: skip


def _shield(pen: Pen, c: Point, r: float) -> None:
    x, y = c[0] + r * 0.5, c[1] - r * 0.2
    s = r * 0.26
    shape = [
        (x - s, y - s),
        (x + s, y - s),
        (x + s, y + s * 0.2),
        (x, y + s * 1.2),
        (x - s, y + s * 0.2),
    ]
    pen.polygon(shape, SHIELD, INK)
    pen.outline(shape, INK, 2)


def _raised(plan: Layout, tile: Tile) -> Point:
    """Where a hex's city, pawns and shield stand: above its middle, its name below."""
    x, y = centre(plan, tile)
    return x, y - plan.radius * RAISED


def _pawns(view: View) -> dict[Tile, list[int]]:
    by_tile: dict[Tile, list[int]] = {}
    for seat, tile in enumerate(view.positions):
        if tile is not None and seat not in view.resigned:
            by_tile.setdefault(tile, []).append(seat)
    return by_tile


def _draw_cities(pen: Pen, view: View, plan: Layout) -> None:
    """A disc in the owner's colour with the owner's letter; a Metropolis has a second
    ring and a 2. With player tokens on the tile too, the city moves to the right."""
    r = plan.radius
    pawns = _pawns(view)
    for city in view.cities:
        c = _raised(plan, city.tile)
        if city.tile in pawns:
            c = (c[0] + r * 0.36, c[1])
        colour = swatch(city.owner)
        size = r * 0.32
        if city.size > 1:
            pen.circle(c, size + 5, colour.fill, colour.edge, 2)
        pen.circle(c, size, colour.fill, colour.edge, 2.5)
        label = colour.letter + ("2" if city.size > 1 else "")
        pen.text(c, label, max(13, round(r * 0.38)), colour.ink)


def _draw_players(pen: Pen, view: View, plan: Layout) -> None:
    """Player tokens: lettered pawns, side by side (to the left of a city)."""
    r = plan.radius
    built = {c.tile for c in view.cities}
    for tile, seats in _pawns(view).items():
        c = _raised(plan, tile)
        span = r * (0.75 if tile in built else 1.3)
        h = r * 0.42
        step = min(h * 1.05, (span - h) / max(1, len(seats) - 1)) if len(seats) > 1 else 0
        mid = c[0] - r * 0.36 if tile in built else c[0]
        start = mid - step * (len(seats) - 1) / 2
        for i, seat in enumerate(seats):
            colour = swatch(seat)
            x, y = start + i * step, c[1]
            pawn = [(x, y - h * 0.6), (x + h * 0.5, y + h * 0.5), (x - h * 0.5, y + h * 0.5)]
            pen.polygon(pawn, colour.fill, INK)
            pen.outline(pawn, INK, 1.5)
            if step == 0 or step >= h * 0.9:
                pen.text((x, y + h * 0.18), colour.letter, max(10, round(r * 0.26)), colour.ink)


def _draw_marks(pen: Pen, view: View, plan: Layout) -> None:
    for tile in view.marks:
        pen.outline(_corners(centre(plan, tile), plan.radius - 2), HIGHLIGHT, 4)
    if view.window is not None and view.window.tile is not None:
        pen.outline(_corners(centre(plan, view.window.tile), plan.radius - 2), HIGHLIGHT, 4)


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
