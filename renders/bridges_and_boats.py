"""The Bridges and Boats table as a PNG: river, bridge, boats, dice and both sides' stores.

From the top: a caption (the last move, the turn, whose step it is); the river, the
attacker's bank on the left and the defender's on the right, with boats waiting at the
attacker's bank and boats arrived at the defender's above the bridge, the six sections
with their twelve spaces and soldiers, and under each section its number and the 2d6
sums that hit it; the dice of the last cannon fire and bombing run; one card per side
(coins, crossed soldiers, air base, cannons, reserve); then the pool, the discard pile
and a legend.

The renderer gets a *view*: a face-down domino the viewer may not see has no value in
the view at all, so a public picture cannot show one. A seat's own reserve (and, for
the attacker, its face-down boats) is drawn with its values only in that seat's view.

Everything is placed in output pixels by :func:`layout`, which the tests use to find
things, and drawn with :class:`renders.pen.Pen`. Discord shows the picture about
400 px wide on a phone, so shapes and text are big.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bridges_and_boats.board import SECTION_OF_SUM, SECTIONS
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import ATTACKER, DEFENDER, Roll
from engine.bridges_and_boats.view import BoatView, View
from renders.common import fit_text, font, text_width
from renders.ground import blank
from renders.palette import (
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
    WAITING,
    WHITE,
    WOOD,
    WOOD_EDGE,
    Swatch,
    fixed_palette,
)
from renders.pen import Box, Pen, Point

WIDTH = 900
MARGIN = 16
CAPTION_H = 88
LABEL_H = 36
BANK_W = 44
BOAT_ROW_H = 84
MAX_BOAT_ROWS = 2
BOATS_PER_ROW = 3
BOAT_W, BOAT_H = 100, 48
BRIDGE_H = 100
DECK_PAD = 10
TABLE_H = 60
GAP = 12
DICE_TITLE_H = 34
DICE_ROW_H = 48
DIE = 38
MAX_DICE_ROWS = 16
CARD_HEAD_H = 96
SHELF_LABEL_H = 28
DOM_W, DOM_H = 46, 84  # a reserve domino or a plane, standing
DOM_GAP = 10
DOM_TAG_H = 24
FOOTER_H = 104

WATER: RGB = (196, 226, 244)
WATER_LINE: RGB = (120, 170, 210)
LAND: RGB = (214, 204, 160)
LAND_EDGE: RGB = (150, 140, 96)
RUBBLE: RGB = (86, 82, 78)
RUBBLE_MARK: RGB = (240, 236, 230)
GAP_LINE: RGB = (60, 100, 140)
IVORY: RGB = (253, 250, 240)
DOMINO_EDGE: RGB = (60, 58, 54)
BACK: RGB = (62, 66, 82)
BACK_LINE: RGB = (140, 146, 170)
BACK_TEXT: RGB = (200, 206, 226)
COIN: RGB = (230, 159, 0)  # Okabe–Ito orange
COIN_EDGE: RGB = (150, 100, 0)
#: every colour a table names, for its fixed palette
NAMED: tuple[RGB, ...] = (
    *SHARED,
    WATER,
    WATER_LINE,
    LAND,
    LAND_EDGE,
    RUBBLE,
    RUBBLE_MARK,
    GAP_LINE,
    IVORY,
    DOMINO_EDGE,
    BACK,
    BACK_LINE,
    BACK_TEXT,
    COIN,
    COIN_EDGE,
)


def _side(seat: int, letter: str) -> Swatch:
    """A side's swatch: its seat colour, lettered by role (A, D) rather than by colour."""
    base = PLAYER_COLOURS[seat]
    return Swatch(("attacker", "defender")[seat], letter, base.fill, base.ink, base.edge)


SIDES: tuple[Swatch, ...] = (_side(ATTACKER, "A"), _side(DEFENDER, "D"))
SOLDIER = SIDES[ATTACKER]


@dataclass(frozen=True)
class Layout:
    """Where things are, in output pixels."""

    width: int
    height: int
    water: Box
    banks: tuple[Box, Box]
    bridge: Box  # the band the six sections lie in
    sections: tuple[Box, ...]  # each section's deck, from the attacker's bank
    spaces: tuple[Point, ...]  # the centre of each of the twelve spaces
    boats: tuple[tuple[int, Box], ...]  # (boat number, box) for every boat drawn
    more_boats: tuple[tuple[Point, int], ...]  # where "+N" stands for boats not drawn
    dice: Box
    dice_rows: tuple[Box, ...]
    cards: tuple[Box, Box]
    reserve: tuple[Box, Box]  # each card's reserve shelf
    hands: tuple[tuple[Box, ...], tuple[Box, ...]]  # each reserve domino, in slot order
    air_base: Box
    planes: tuple[Box, ...]
    cannons: Box
    footer: Box


def _shelf(span: tuple[float, float], y0: float, count: int) -> tuple[tuple[Box, ...], float]:
    """Standing dominoes in rows across ``span`` from ``y0``; returns them and the bottom."""
    x0, x1 = span
    per_row = max(1, int((x1 - x0 + DOM_GAP) // (DOM_W + DOM_GAP)))
    boxes = []
    for i in range(count):
        row, col = divmod(i, per_row)
        x = x0 + col * (DOM_W + DOM_GAP)
        y = y0 + row * (DOM_H + DOM_TAG_H)
        boxes.append((x, y, x + DOM_W, y + DOM_H))
    rows = max(1, math.ceil(count / per_row))
    return tuple(boxes), y0 + rows * (DOM_H + DOM_TAG_H)


def boat_rows(view: View) -> int:
    """One row of boats, or two when either bank has more than a row's worth."""
    most = max(sum(b.launched == side for b in view.boats) for side in (False, True))
    return min(MAX_BOAT_ROWS, max(1, math.ceil(most / BOATS_PER_ROW)))


def _boat_slots(view: View, area: Box, launched: bool) -> tuple[list, list]:
    """Boxes for one bank's boats, three to a row; if they do not fit, the last cell says +N."""
    boats = [b for b in view.boats if b.launched == launched]
    cells = boat_rows(view) * BOATS_PER_ROW
    shown = boats if len(boats) <= cells else boats[: cells - 1]
    cell_w = (area[2] - area[0]) / BOATS_PER_ROW
    placed, more = [], []
    for i in range(len(shown) + (len(boats) > len(shown))):
        row, col = divmod(i, BOATS_PER_ROW)
        cx = area[0] + (col + 0.5) * cell_w
        top = area[1] + row * BOAT_ROW_H + 30
        if i < len(shown):
            box = (cx - BOAT_W / 2, top, cx + BOAT_W / 2, top + BOAT_H)
            placed.append((shown[i].number, box))
        else:
            more.append(((cx, top + BOAT_H / 2), len(boats) - len(shown)))
    return placed, more


def _dice_lines(view: View) -> int:
    return min(len(view.dice) + (view.pending is not None), MAX_DICE_ROWS) or 1


def layout(view: View) -> Layout:
    """The geometry of the picture for ``view``."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    top = CAPTION_H + LABEL_H
    bridge_top = top + boat_rows(view) * BOAT_ROW_H + 6
    bottom = bridge_top + BRIDGE_H + TABLE_H
    banks = ((x0, top, x0 + BANK_W, bottom), (x1 - BANK_W, top, x1, bottom))
    water = (x0 + BANK_W, top, x1 - BANK_W, bottom)
    bridge = (water[0], bridge_top, water[2], bridge_top + BRIDGE_H)
    width = (water[2] - water[0]) / SECTIONS
    sections = tuple(
        (
            water[0] + i * width + 3,
            bridge_top + DECK_PAD,
            water[0] + (i + 1) * width - 3,
            bridge_top + BRIDGE_H - DECK_PAD,
        )
        for i in range(SECTIONS)
    )
    cy = bridge_top + BRIDGE_H / 2
    spaces = tuple((water[0] + (s + 0.5) * width / 2, cy) for s in range(2 * SECTIONS))
    mid = (water[0] + water[2]) / 2
    area_bottom = top + boat_rows(view) * BOAT_ROW_H
    waiting, more_w = _boat_slots(view, (water[0], top, mid, area_bottom), launched=False)
    landed, more_l = _boat_slots(view, (mid, top, water[2], area_bottom), launched=True)

    lines = _dice_lines(view)
    columns = 2 if lines > 4 else 1
    dice_top = bottom + GAP
    col_w = (x1 - x0 - 24) / columns
    dice_rows = tuple(
        (
            x0 + 12 + (i // math.ceil(lines / columns)) * col_w,
            dice_top + DICE_TITLE_H + (i % math.ceil(lines / columns)) * DICE_ROW_H,
            x0 + 12 + (i // math.ceil(lines / columns) + 1) * col_w,
            dice_top + DICE_TITLE_H + (i % math.ceil(lines / columns) + 1) * DICE_ROW_H,
        )
        for i in range(lines)
    )
    dice = (x0, dice_top, x1, dice_top + DICE_TITLE_H + math.ceil(lines / columns) * DICE_ROW_H + 8)

    card_top = dice[3] + GAP
    card_w = (x1 - x0 - GAP) / 2
    lefts = (x0, x0 + card_w + GAP)
    inner = [(left + 16, left + card_w - 16) for left in lefts]
    # the attacker's card: heading, then the reserve
    a_reserve_top = card_top + CARD_HEAD_H
    a_hand, a_end = _shelf(inner[0], a_reserve_top + SHELF_LABEL_H, view.hand_counts[0])
    # the defender's card: heading, cannons, the air base, then the reserve
    cannons = (inner[1][0], card_top + CARD_HEAD_H - 40, inner[1][1], card_top + CARD_HEAD_H)
    base_top = card_top + CARD_HEAD_H + 4
    planes, base_end = _shelf(inner[1], base_top + SHELF_LABEL_H, len(view.planes))
    d_reserve_top = base_end + 2
    d_hand, d_end = _shelf(inner[1], d_reserve_top + SHELF_LABEL_H, view.hand_counts[1])
    card_bottom = max(a_end, d_end) + 6
    cards = (
        (lefts[0], card_top, lefts[0] + card_w, card_bottom),
        (lefts[1], card_top, lefts[1] + card_w, card_bottom),
    )
    reserve = (
        (inner[0][0] - 8, a_reserve_top, inner[0][1] + 8, a_end),
        (inner[1][0] - 8, d_reserve_top, inner[1][1] + 8, d_end),
    )
    air_base = (inner[1][0] - 8, base_top, inner[1][1] + 8, base_end)
    footer = (x0, card_bottom + GAP, x1, card_bottom + GAP + FOOTER_H)
    return Layout(
        width=WIDTH,
        height=round(footer[3] + MARGIN),
        water=water,
        banks=banks,
        bridge=bridge,
        sections=sections,
        spaces=spaces,
        boats=tuple(waiting + landed),
        more_boats=tuple(more_w + more_l),
        dice=dice,
        dice_rows=dice_rows,
        cards=cards,
        reserve=reserve,
        hands=(a_hand, d_hand),
        air_base=air_base,
        planes=planes,
        cannons=cannons,
        footer=footer,
    )


# -- drawing primitives ----------------------------------------------------------------


def _dashed(pen: Pen, box: Box, fill: RGB, width: float, dash: float = 10) -> None:
    """A dashed outline: what is missing is drawn as its empty place."""
    x0, y0, x1, y1 = box
    sides = (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0)))
    for a, b in sides:
        length = math.dist(a, b)
        steps = max(1, int(length // (2 * dash)))
        for i in range(steps + 1):
            t0 = min(1.0, i * 2 * dash / length)
            t1 = min(1.0, (i * 2 + 1) * dash / length)
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            pen.line(p0, p1, fill, width)


def _centre(box: Box) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _outline(pen: Pen, box: Box) -> None:
    """The last move's mark: a thick magenta frame."""
    pen.rect(_grow(box, 5), None, HIGHLIGHT, 5, radius=8)


def _domino(pen: Pen, box: Box, domino: Domino | None, face_up: bool = True) -> None:
    """A domino, standing or lying as its box is shaped.

    Face up: ivory with its two numbers (a blank end shows a grey 0, so it never looks
    unfinished). Face down: a dark back; if the viewer owns it (``domino`` given,
    ``face_up`` false) its numbers are printed faintly on the back.
    """
    x0, y0, x1, y1 = box
    standing = (y1 - y0) > (x1 - x0)
    if standing:
        halves = ((x0, y0, x1, (y0 + y1) / 2), (x0, (y0 + y1) / 2, x1, y1))
    else:
        halves = ((x0, y0, (x0 + x1) / 2, y1), ((x0 + x1) / 2, y0, x1, y1))
    if face_up and domino is not None:
        pen.rect(box, IVORY, DOMINO_EDGE, 2.5, radius=6)
        if standing:
            pen.line((x0 + 6, (y0 + y1) / 2), (x1 - 6, (y0 + y1) / 2), DOMINO_EDGE, 2)
        else:
            pen.line(((x0 + x1) / 2, y0 + 6), ((x0 + x1) / 2, y1 - 6), DOMINO_EDGE, 2)
        colour_of = (MUTED, INK)
    else:
        pen.rect(box, BACK, DOMINO_EDGE, 2.5, radius=6)
        pen.rect(_grow(box, -5), None, BACK_LINE, 1.5, radius=4)
        colour_of = (BACK_TEXT, BACK_TEXT)
        if domino is None:
            return
    half = min(halves[0][2] - halves[0][0], halves[0][3] - halves[0][1])
    size = round(half * 0.72)
    for end, part in zip((domino.low, domino.high), halves, strict=True):
        pen.text(_centre(part), str(end), size, colour_of[end > 0])


def _die(pen: Pen, box: Box, value: int) -> None:
    """A white die with its pips, the way dice look on a table."""
    pen.rect(box, WHITE, DOMINO_EDGE, 2, radius=7)
    x0, y0, x1, y1 = box
    step = (x1 - x0) / 4
    spots = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }[value]
    for cx, cy in spots:
        pen.circle((x0 + cx * step, y0 + cy * step), step * 0.38, INK, INK, 0)


def _soldier(pen: Pen, centre: Point, radius: float) -> None:
    pen.circle(centre, radius, SOLDIER.fill, SOLDIER.edge, 2)
    if radius >= 12:
        pen.text(centre, "S", round(radius * 1.1), SOLDIER.ink)


def _coin(pen: Pen, centre: Point, radius: float) -> None:
    pen.circle(centre, radius, COIN, COIN_EDGE, 2)
    pen.text(centre, "c", round(radius * 1.2), INK)


def _rubble(pen: Pen, box: Box, mark: float) -> None:
    """A destroyed section: dark, crossed out."""
    pen.rect(box, RUBBLE, INK, 2, radius=6)
    cx, cy = _centre(box)
    for dx, dy in ((mark, mark), (mark, -mark)):
        pen.line((cx - dx, cy - dy), (cx + dx, cy + dy), RUBBLE_MARK, 5)


def _deck(pen: Pen, box: Box) -> None:
    """A standing section: a wooden plank split into its two spaces."""
    pen.rect(box, WOOD, WOOD_EDGE, 3, radius=6)
    mid = (box[0] + box[2]) / 2
    pen.line((mid, box[1] + 8), (mid, box[3] - 8), WOOD_EDGE, 2)


# -- the parts of the picture ----------------------------------------------------------


def _ranges() -> list[str]:
    """The 2d6 sums that hit each section, as printed under it: 2, 3–4, … 11–12."""
    sums: list[list[int]] = [[] for _ in range(SECTIONS)]
    for total, section in SECTION_OF_SUM.items():
        sums[section].append(total)
    return [str(s[0]) if len(s) == 1 else f"{s[0]}–{s[-1]}" for s in sums]


def _last_token(view: View) -> str:
    return "" if view.last is None else view.last[1].split()[0]


def _status(view: View, names: Sequence[str]) -> str:
    if view.over:
        assert view.places is not None and view.reason is not None
        why = {"pool": "the pool is empty", "cap": "turn limit", "resign": "resigned"}
        if view.places[0] == view.places[1]:
            return f"Game over ({why[view.reason]}): a tie"
        winner = view.places.index(1)
        return f"Game over ({why[view.reason]}): {names[winner]} wins"
    if view.pending is not None:
        return f"{names[view.turn]}: ghost re-roll or keep"
    if view.fire_due:
        return f"{names[view.turn]}: the cannons must fire"
    return f"{names[view.turn]} to play: {view.stage}"


def caption(view: View, names: Sequence[str]) -> tuple[str, str, str]:
    """The last move, the turn count, and whose step it is (or the result)."""
    last = "New game" if view.last is None else f"Last: {names[view.last[0]]} {view.last[1]}"
    turn = f"Turn {min(view.turns + 1, view.turn_cap)}/{view.turn_cap}"
    return last, turn, _status(view, names)


def _draw_caption(pen: Pen, view: View, names: Sequence[str]) -> None:
    x0, x1 = MARGIN, WIDTH - MARGIN
    turn_w = text_width(caption(view, names)[1], 22, bold=False)
    short = [fit_text(n, font(26, True), 220) for n in names]
    last, turn, status = caption(view, short)
    pen.text((x1, 26), turn, 22, MUTED, "rm", bold=False)
    pen.text((x0, 26), fit_text(last, font(26, True), x1 - x0 - turn_w - 20), 26, INK, "lm")
    pen.text((x0, 66), fit_text(status, font(26, True), x1 - x0), 26, INK, "lm")


def _draw_river(pen: Pen, view: View, names: Sequence[str], plan: Layout) -> None:
    water = plan.water
    pen.rect(water, WATER)
    mid = (water[0] + water[2]) / 2
    pen.line((mid, water[1] + 6), (mid, plan.bridge[1] - 4), WATER_LINE, 2)
    for bank, side in zip(plan.banks, SIDES, strict=True):
        pen.rect(bank, LAND, LAND_EDGE, 2, radius=4)
        centre = ((bank[0] + bank[2]) / 2, bank[1] + 26)
        pen.circle(centre, 17, side.fill, side.edge, 2)
        pen.text(centre, side.letter, 20, side.ink)
    y = CAPTION_H + LABEL_H / 2
    room = (water[2] - water[0]) / 2 - 10
    left = fit_text(f"◀ {names[ATTACKER]}'s bank: boats", font(19, True), room)
    right = fit_text(f"boats landed: {names[DEFENDER]}'s bank ▶", font(19, True), room)
    pen.text((MARGIN, y), left, 19, INK, "lm")
    pen.text((WIDTH - MARGIN, y), right, 19, INK, "rm")


def _draw_bridge(pen: Pen, view: View, plan: Layout) -> None:
    for status, box in zip(view.sections, plan.sections, strict=True):
        if status == "built":
            _deck(pen, box)
        elif status == "destroyed":
            _rubble(pen, box, 22)
        else:
            _dashed(pen, box, GAP_LINE, 3)
    for occupied, centre in zip(view.spaces, plan.spaces, strict=True):
        if occupied:
            _soldier(pen, centre, 23)
    y = plan.bridge[3]
    for i, (box, sums) in enumerate(zip(plan.sections, _ranges(), strict=True)):
        cx = (box[0] + box[2]) / 2
        pen.text((cx, y + 17), str(i + 1), 24, INK)
        face = view.faces[i]  # match bombing: planes aim at the numbers, not the dice
        under = f"dice {sums}" if not view.rules.match_bombing else f"{face or ''}"
        pen.text((cx, y + 43), under, 19, MUTED, bold=False)


def _draw_boats(pen: Pen, view: View, plan: Layout) -> None:
    boats = {b.number: b for b in view.boats}
    for number, box in plan.boats:
        boat: BoatView = boats[number]
        pen.text((box[0], box[1] - 15), f"b{number}", 21, INK, "lm")
        for k in range(boat.soldiers):
            x = box[0] + text_width(f"b{number}", 21) + 16 + 22 * k
            _soldier(pen, (x, box[1] - 15), 9)
        _domino(pen, box, boat.domino, face_up=boat.face_up)
        if boat.domino is None:
            pen.text(_centre(box), "?", 26, BACK_TEXT)
    for centre, count in plan.more_boats:
        pen.text(centre, f"+{count}", 26, INK)


def _roll_label(roll: Roll) -> str:
    return roll.who if roll.purpose == "fire" else f"{roll.who} {roll.purpose}"


def die_box(plan: Layout, row: int, k: int) -> Box:
    """Where the ``k``-th die of dice row ``row`` is drawn."""
    x0, y0, _, y1 = plan.dice_rows[row]
    x = x0 + (150 if len(plan.dice_rows) > 4 else 190) + k * (DIE + 6)
    cy = (y0 + y1) / 2
    return x, cy - DIE / 2, x + DIE, cy + DIE / 2


def _draw_dice(pen: Pen, view: View, plan: Layout) -> None:
    box = plan.dice
    pen.rect(box, CARD, CARD_LINE, 2, radius=12)
    title = "Dice of the last cannon fire and bombing run" if view.dice else "Dice"
    pen.text((box[0] + 16, box[1] + 20), title, 19, MUTED, "lm", bold=False)
    rows: list[tuple[str, tuple[int, ...], str, bool]] = [
        (_roll_label(r), r.dice, r.outcome + (" (re-rolled)" if r.rerolled else ""), False)
        for r in view.dice
    ]
    if view.pending is not None:
        p = view.pending
        label = f"{p.name} {'to hit' if p.stage == 'hit' else 'aim'}"
        rows.append((label, p.dice, "re-roll or keep?", True))
    if not rows:
        pen.text(
            (plan.dice_rows[0][0] + 4, _centre(plan.dice_rows[0])[1]),
            "none rolled yet",
            20,
            MUTED,
            "lm",
            bold=False,
        )
        return
    if len(rows) > MAX_DICE_ROWS:
        rows = rows[-MAX_DICE_ROWS:]
    for i, (label, dice, outcome, waiting) in enumerate(rows):
        row = plan.dice_rows[i]
        cy = _centre(row)[1]
        if waiting:
            pen.rect((row[0] - 6, row[1] + 2, row[2] - 6, row[3] - 2), WAITING, HIGHLIGHT, 2, 8)
        pen.text((row[0] + 4, cy), label, 20, INK, "lm")
        for k, value in enumerate(dice):
            _die(pen, die_box(plan, i, k), value)
        x = die_box(plan, i, len(dice))[0]
        room = row[2] - x - 14
        pen.text((x + 6, cy), fit_text(outcome, font(19, False), room), 19, INK, "lm", False)


def _draw_marker(pen: Pen, view: View, seat: int, x: float, y: float) -> float:
    """Before a side's name: its result once the game is over, else an arrow on its turn."""
    if view.places is not None:
        won = view.places[seat] == 1
        tie = view.places[0] == view.places[1]
        word = "tie" if tie else ("won" if won else "lost")
        colour = MEDALS[0] if won else CARD_LINE
        w = text_width(word, 18) + 20
        pen.rect((x, y - 15, x + w, y + 15), colour, None, 0, radius=15)
        pen.text((x + w / 2, y), word, 18, INK)
        return x + w + 10
    if view.turn == seat:
        pen.polygon([(x, y - 13), (x + 20, y), (x, y + 13)], TURN, TURN, 1)
        return x + 30
    return x


def _draw_head(pen: Pen, view: View, seat: int, name: str, box: Box) -> None:
    """A side's name and role, then its coins and its score or cannons."""
    side = SIDES[seat]
    to_play = view.turn == seat and not view.over
    pen.rect(box, CARD, TURN if to_play else CARD_LINE, 4 if to_play else 2, radius=12)
    x0, y0, x1, _ = box
    y = y0 + 28
    x = _draw_marker(pen, view, seat, x0 + 16, y)
    role = side.name
    role_w = text_width(role, 17) + 46
    pen.rect((x1 - 16 - role_w, y - 16, x1 - 16, y + 16), side.fill, side.edge, 2, radius=16)
    pen.circle((x1 - 16 - role_w + 16, y), 11, CARD, side.edge, 1.5)
    pen.text((x1 - 16 - role_w + 16, y), side.letter, 15, INK)
    pen.text((x1 - 16 - role_w + 32, y), role, 17, side.ink, "lm")
    room = x1 - 16 - role_w - 10 - x
    pen.text((x, y), fit_text(name, font(26, True), room), 26, INK, "lm")
    y = y0 + 70
    _coin(pen, (x0 + 32, y), 15)
    coins = str(view.coins[seat])
    pen.text((x0 + 56, y), coins, 30, INK, "lm")
    pen.text((x0 + 62 + text_width(coins, 30), y + 3), "coins", 20, MUTED, "lm", False)


def _draw_attacker(pen: Pen, view: View, plan: Layout) -> None:
    x1, y = plan.cards[ATTACKER][2] - 16, plan.cards[ATTACKER][1] + 70
    score = str(view.crossed)
    pen.text((x1, y + 3), "crossed", 20, MUTED, "rm", False)
    x = x1 - text_width("crossed", 20, False) - 8
    pen.text((x, y), score, 30, INK, "rm")
    _soldier(pen, (x - text_width(score, 30) - 22, y), 15)


def _draw_defender(pen: Pen, view: View, plan: Layout) -> None:
    x1, y = plan.cannons[2], _centre(plan.cannons)[1]
    word = "cannon" if view.cannons == 1 else "cannons"
    pen.text((x1, y + 3), word, 20, MUTED, "rm", False)
    x = x1 - text_width(word, 20, False) - 8
    count = str(view.cannons)
    pen.text((x, y), count, 30, INK, "rm")
    x -= text_width(count, 30) + 8
    _domino(pen, (x - 44, y - 11, x, y + 11), None, face_up=False)
    base = plan.air_base
    face = "face down" if view.rules.secret_pilots else "face up"
    if view.declared:
        label = "Air base: framed planes fly today"
    else:
        label = f"Air base: planes, {face}" if view.planes else "Air base: no planes yet"
    pen.text((base[0] + 8, base[1] + 14), label, 20, MUTED, "lm", False)
    flying = SIDES[DEFENDER]
    for i, (plane, box) in enumerate(zip(view.planes, plan.planes, strict=True)):
        if i in view.declared:
            pen.rect(_grow(box, 5), flying.fill, flying.edge, 2, radius=9)
        up = view.planes_up[i]
        _domino(pen, box, plane, face_up=up)
        tag = "ghost" if plane and plane.is_ghost else "ace" if plane and plane.is_ace else ""
        if not up:  # secret pilots: named by place, its ends on its back for its owner
            tag = f"p{i + 1}"
        if tag:
            pen.text(((box[0] + box[2]) / 2, box[3] + 14), tag, 16, INK)


def _draw_reserve(pen: Pen, view: View, seat: int, plan: Layout) -> None:
    shelf = plan.reserve[seat]
    count = view.hand_counts[seat]
    own = view.seat == seat and view.hand is not None
    if count == 0:
        label = "Reserve: empty"
    elif own:
        label = "Reserve: only you see these"
    else:
        label = f"Reserve: {count} face down"
    pen.text((shelf[0] + 8, shelf[1] + 14), label, 20, MUTED, "lm", False)
    for slot, box in enumerate(plan.hands[seat]):
        if own:
            assert view.hand is not None
            _domino(pen, box, view.hand[slot])
            pen.text(((box[0] + box[2]) / 2, box[3] + 12), f"d{slot + 1}", 17, INK)
        else:
            _domino(pen, box, None, face_up=False)


def _draw_footer(pen: Pen, view: View, plan: Layout) -> None:
    x0, y0, x1, _ = plan.footer
    y = y0 + 22
    for k in range(3):
        _domino(pen, (x0 + 4 + 6 * k, y - 14 - 3 * k, x0 + 48 + 6 * k, y + 8 - 3 * k), None, False)
    pen.text((x0 + 72, y), f"Pool: {view.pool} face down", 22, INK, "lm")
    pen.text((x1, y), f"Discard: {view.discard}", 22, INK, "rm")
    y = y0 + 72
    items = (
        ("built", lambda b: _deck(pen, b)),
        ("destroyed", lambda b: _rubble(pen, b, 8)),
        ("missing", lambda b: _dashed(pen, b, GAP_LINE, 2, 5)),
        ("soldier", lambda b: _soldier(pen, _centre(b), 12)),
        ("face down", lambda b: _domino(pen, b, None, False)),
    )
    step = (x1 - x0) / len(items)
    for i, (word, draw) in enumerate(items):
        x = x0 + i * step
        draw((x, y - 13, x + 44, y + 13))
        pen.text((x + 52, y), word, 18, INK, "lm", False)


def _draw_last(pen: Pen, view: View, plan: Layout) -> None:
    """Frame what the last move changed."""
    if view.last is None:
        return
    seat, notation = view.last
    token = notation.split()[0]
    if token in ("bridge", "advance", "enter"):
        _outline(pen, plan.bridge)
    elif token in ("boat", "board", "launch"):
        number = int(notation.split()[1][1:])
        for n, box in plan.boats:
            if n == number:
                _outline(pen, _grow((box[0], box[1] - 28, box[2], box[3]), 2))
    elif token in ("plane", "fly"):
        _outline(pen, plan.air_base)
    elif token == "cannon":
        _outline(pen, plan.cannons)
    elif token == "buy":
        _outline(pen, plan.reserve[seat])
    elif token in ("fire", "bomb", "reroll", "keep"):
        _outline(pen, _grow(plan.dice, -4))


def render(view: View, names: Sequence[str]) -> bytes:
    """The table for ``view`` as PNG bytes; ``names[seat]`` labels each side."""
    plan = layout(view)
    pen = Pen.on(blank(plan.width, plan.height, NAMED))
    _draw_caption(pen, view, names)
    _draw_river(pen, view, names, plan)
    _draw_bridge(pen, view, plan)
    _draw_boats(pen, view, plan)
    _draw_dice(pen, view, plan)
    for seat in (ATTACKER, DEFENDER):
        _draw_head(pen, view, seat, names[seat], plan.cards[seat])
        _draw_reserve(pen, view, seat, plan)
    _draw_attacker(pen, view, plan)
    _draw_defender(pen, view, plan)
    _draw_footer(pen, view, plan)
    _draw_last(pen, view, plan)
    return pen.png(plan.height)


def accent(view: View, seat: int) -> RGB:
    """The side's colour: the attacker's soldiers, the defender's coins."""
    return SIDES[seat].fill


def warm() -> None:
    """The palette, before the first board (the plain ground waits for one: a worker
    holds it only for the games it draws)."""
    fixed_palette(NAMED)
