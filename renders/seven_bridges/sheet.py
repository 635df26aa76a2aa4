"""A player's own sheet: the map with their lines, then the bridge legend, the dice, the
bonus columns and the score sheet.

The printed map is the same on every sheet, so it is drawn once and copied for each
picture: the map is most of the drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.seven_bridges.board import CITY, SIZE
from engine.seven_bridges.bonuses import (
    FOOTPATHS_VALUE,
    IMMEDIATE_VALUES,
    NOT_TAKEN,
    REROLL_VALUES,
    USED,
    Bonuses,
)
from engine.seven_bridges.legend import (
    ITEMS,
    TOTAL_BUILDINGS,
    TOTAL_GRID,
    TOTAL_TREES,
    Scorecard,
    crossed,
)
from engine.seven_bridges.state import PICKS
from engine.seven_bridges.view import View
from renders.common import fit_text, font
from renders.ground import Ground
from renders.palette import CARD_LINE, INK, MUTED, RGB, WHITE, Swatch, fixed_palette
from renders.pen import Box, Pen, box_centre
from renders.seven_bridges import city
from renders.seven_bridges.city import CELL, GUTTER, own_seat
from renders.seven_bridges.pieces import (
    CAPTION_H,
    DICE_W,
    DIE,
    DIE_GAP,
    EULER,
    GAP,
    MARGIN,
    PANEL_HEAD,
    USED_CELL,
    draw_caption,
    draw_dice,
    face,
    swatch,
)

WIDTH = 900
LEGEND_H = 40
BONUS_H = 76  # an IMMEDIATE cell: the shape, its points
RESERVED_H = 66  # a RESERVED cell: points, name, state
ROW_H = 31  # a score-sheet row
LABELS_H = 18  # the band over a solo score sheet naming its columns, "you" and "Euler"
COUNTED: RGB = (255, 244, 200)  # score rows that make the total

ITEM_LABELS = ("Loop", "Bridges", "Landmarks", "Buildings", "Trees", "Map edges", "Drafting")
BRIDGE_NAMES = tuple(b.name.removesuffix(" Bridge") for b in CITY.bridges)
RESERVED_NAMES = (*(f"re-roll {k + 1}" for k in range(len(REROLL_VALUES))), "footpaths")
RESERVED_VALUES = (*REROLL_VALUES, FOOTPATHS_VALUE)


@dataclass(frozen=True)
class SheetLayout:
    """Where the parts of a sheet are, in output pixels."""

    width: int
    height: int
    grid: Box  # the 12x12 squares
    legend: tuple[Box, ...]  # one per bridge, in number order
    dice: tuple[Box, ...]
    immediate: tuple[Box, ...]  # by face value 1..6
    reserved: tuple[Box, ...]  # re-roll 1, 2, 3, then footpaths
    score_rows: tuple[Box, ...]  # the seven items, then the total
    score_columns: tuple[float, ...]  # right edges of the player's points and Euler's


def _row(count: int, top: float, width: float, height: float) -> tuple[Box, ...]:
    """``count`` cells side by side from the left margin, fitting the dice's width."""
    gap = (DICE_W - count * width) / (count - 1)
    return tuple(
        (MARGIN + k * (width + gap), top, MARGIN + k * (width + gap) + width, top + height)
        for k in range(count)
    )


@lru_cache(maxsize=2)
def sheet_layout(solo: bool) -> SheetLayout:
    """The geometry: the same for every sheet, but for Euler's column in a solo game."""
    x0 = (WIDTH - SIZE * CELL) / 2
    y0 = CAPTION_H + GUTTER
    grid = (x0, y0, x0 + SIZE * CELL, y0 + SIZE * CELL)
    top = grid[3] + GUTTER + GAP
    entry = (WIDTH - 2 * MARGIN) / len(CITY.bridges)
    legend = tuple(
        (MARGIN + k * entry, top, MARGIN + (k + 1) * entry, top + LEGEND_H)
        for k in range(len(CITY.bridges))
    )
    top = legend[0][3] + GAP + PANEL_HEAD
    dice = _row(PICKS, top, DIE, DIE)
    immediate = _row(6, dice[0][3] + 22 + GAP + PANEL_HEAD, DIE, BONUS_H)
    reserved = _row(4, immediate[0][3] + GAP + PANEL_HEAD, (DICE_W - 3 * DIE_GAP) / 4, RESERVED_H)
    x0, x1 = MARGIN + DICE_W + 2 * GAP, WIDTH - MARGIN
    top += LABELS_H if solo else 0  # the column names under the heading, never beside it
    rows = tuple((x0, top + k * ROW_H, x1, top + (k + 1) * ROW_H) for k in range(len(ITEMS) + 1))
    columns = (x1 - 92, x1 - 8) if solo else (x1 - 8,)
    height = round(max(reserved[0][3], rows[-1][3] + 30) + MARGIN)
    return SheetLayout(WIDTH, height, grid, legend, dice, immediate, reserved, rows, columns)


@lru_cache(maxsize=2)
def _printed(solo: bool, named: tuple[RGB, ...]) -> Ground:
    """The blank sheet with the printed map drawn, its colours ``named``."""
    plan = sheet_layout(solo)
    pen = Pen.blank(plan.width, plan.height)
    city.draw_printed(pen, plan.grid)
    return Ground(pen.finish(), fixed_palette(named))


def _draw_legend(pen: Pen, plan: SheetLayout, drawn: int, colour: Swatch) -> None:
    """The seven bridges by number and name; one crossed is filled in and named in bold."""
    done = crossed(drawn)
    for bridge, box, name in zip(CITY.bridges, plan.legend, BRIDGE_NAMES, strict=True):
        on = bridge.number in done
        y = (box[1] + box[3]) / 2
        badge = (box[0] + 4, y - 13, box[0] + 30, y + 13)
        pen.rect(badge, colour.fill if on else WHITE, colour.edge if on else INK, 2, 4)
        pen.text(box_centre(badge), str(bridge.number), 17, colour.ink if on else INK)
        pen.text((badge[2] + 6, y), name, 17, INK if on else MUTED, "lm", bold=on)


def _triangle(pen: Pen, box: Box, filled: bool) -> None:
    """The rulebook's used-mark: a triangle in the cell's corner, coloured in once used."""
    x1, y0 = box[2] - 5, box[1] + 5
    pen.polygon([(x1 - 16, y0), (x1, y0), (x1, y0 + 16)], INK if filled else WHITE, INK)


def bonus_states(b: Bonuses) -> tuple[list[str], list[str]]:
    """Each cell's state, "used", "ready" (reserved, not yet used) or "": the IMMEDIATE
    column by face value, then the RESERVED column (re-rolls top to bottom, footpaths)."""
    immediate = ["" if b.immediate_free(v) else "used" for v in range(1, 7)]
    reserved = ["used" if k < b.spent else "ready" if k < b.reserved else "" for k in range(3)]
    reserved.append({NOT_TAKEN: "", USED: "used"}.get(b.footpaths, "ready"))
    return immediate, reserved


def _draw_bonuses(pen: Pen, view: View, plan: SheetLayout, colour: Swatch) -> None:
    """IMMEDIATE USE: the six shapes, greyed with a filled triangle once used. RESERVED
    USE: filled in the player's colour and marked "ready" once reserved, greyed with a
    filled triangle once used."""
    player = view.seats[own_seat(view)]
    immediate, reserved = bonus_states(player.bonuses)
    head = "IMMEDIATE USE"
    if player.pending:
        head += f" · {player.pending} bonus{'es' if player.pending > 1 else ''} to choose"
    pen.text((MARGIN, plan.immediate[0][1] - PANEL_HEAD / 2 - 2), head, 18, INK, "lm")
    for value, (box, state) in enumerate(zip(plan.immediate, immediate, strict=True), start=1):
        used = state == "used"
        pen.rect(box, USED_CELL if used else WHITE, MUTED if used else INK, 2, 8)
        icon = (box[0] + 4, box[1] + 4, box[2] - 4, box[1] + (box[2] - box[0]) - 4)
        face(pen, icon, value, 3, MUTED if used else INK)
        _triangle(pen, box, used)
        points = f"{IMMEDIATE_VALUES[value - 1]} pts"
        pen.text((box[0] + 6, box[3] - 11), points, 14, INK, "lm", bold=False)
        if used:
            pen.text((box[2] - 6, box[3] - 11), "✓", 16, INK, "rm")
    pen.text((MARGIN, plan.reserved[0][1] - PANEL_HEAD / 2 - 2), "RESERVED USE", 18, INK, "lm")
    for box, state, name, value in zip(
        plan.reserved, reserved, RESERVED_NAMES, RESERVED_VALUES, strict=True
    ):
        fill = {"used": USED_CELL, "ready": colour.fill}.get(state, WHITE)
        ink = colour.ink if state == "ready" else INK
        pen.rect(box, fill, INK, 2, 8)
        _triangle(pen, box, state == "used")
        pen.text((box[0] + 7, box[1] + 14), f"{value} pts", 14, ink, "lm", bold=False)
        pen.text((box[0] + 7, box[1] + 34), name, 15, ink, "lm")
        word = {"used": "used ✓", "ready": "ready"}.get(state, "")
        pen.text((box[0] + 7, box[1] + 53), word, 14, ink, "lm")


def counting(card: Scorecard, advanced: bool) -> str:
    """Which items make the total, as the score sheet's heading says it: in the basic
    game as many of the best as bridges crossed."""
    if advanced:
        return "chosen items count"
    return f"best {card.crossed} of 7 count" if card.crossed else "cross a bridge to count"


def item_details(card: Scorecard) -> list[str]:
    """What each of the seven items counted, as the score sheet writes it beside it."""
    loop = card.loop
    return [
        f"{loop.corners} corners × {max(1, loop.bridges)}, dotted" if loop.score else "no loop yet",
        f"{card.crossed} of {len(CITY.bridges)} crossed",
        f"{card.visited} of {len(CITY.landmarks)} visited",
        f"{card.items[3]} of {TOTAL_BUILDINGS}",
        f"{card.items[4]} of {TOTAL_TREES}",
        f"{card.items[5]} of {TOTAL_GRID}",
        "bonuses used",
    ]


def _draw_score(pen: Pen, view: View, plan: SheetLayout) -> None:
    """The seven legend items, the ones that make the total ticked and tinted; Euler's
    column beside the player's in a solo game."""
    player = view.seats[own_seat(view)]
    card = player.card
    rows = plan.score_rows
    x0, x1 = rows[0][0], rows[0][2]
    labels_y = rows[0][1] - LABELS_H / 2 - 1
    head_y = rows[0][1] - (LABELS_H if view.solo else 0) - PANEL_HEAD / 2 - 2
    pen.text((x0, head_y), f"SCORE · {counting(card, view.advanced)}", 18, INK, "lm")
    mine = plan.score_columns[0]
    if view.solo:
        pen.text((mine, labels_y), "you", 15, MUTED, "rm", bold=False)
        pen.text((plan.score_columns[1], labels_y), "Euler", 15, EULER.edge, "rm", bold=False)
    pen.rect((x0, rows[0][1], x1, rows[-1][3]), WHITE, CARD_LINE, 2, 8)
    for i, (box, label, detail) in enumerate(
        zip(rows[:-1], ITEM_LABELS, item_details(card), strict=True)
    ):
        counted = i in card.counted
        y = (box[1] + box[3]) / 2
        if counted:
            pen.rect((box[0] + 3, box[1] + 2, box[2] - 3, box[3] - 1), COUNTED, None, 0, 5)
            pen.text((mine - 40, y), "✓", 16, INK, "rm")
        pen.text((x0 + 10, y), str(i + 1), 15, MUTED, "lm", bold=False)
        pen.text((x0 + 28, y), label, 18, INK, "lm", bold=counted)
        pen.text((x0 + 148, y), detail, 14, MUTED, "lm", bold=False)
        pen.text((mine, y), str(card.items[i]), 19, INK if counted else MUTED, "rm", counted)
        if view.solo:
            assert view.euler_items is not None, "a solo game's view has Euler's items"
            euler = str(view.euler_items[i])
            pen.text((plan.score_columns[1], y), euler, 19, EULER.edge, "rm", bold=False)
        pen.bar((x0 + 8, box[3]), (x1 - 8, box[3]), 1, CARD_LINE)
    y = (rows[-1][1] + rows[-1][3]) / 2
    pen.text((x0 + 28, y), "TOTAL", 20, INK, "lm")
    pen.text((mine, y), str(card.total), 22, INK, "rm")
    if view.solo:
        pen.text((plan.score_columns[1], y), str(view.euler_total), 22, EULER.edge, "rm")
    notes = []
    if player.wasted:
        notes.append(f"{player.wasted} wasted: nothing fitted")
    if view.advanced and player.chosen:
        notes.append("chosen: " + ", ".join(player.chosen))
    if player.pending_items:
        notes.append("a bridge crossed: choose its item")
    if notes:
        text = fit_text(" · ".join(notes), font(14, False), x1 - x0)
        pen.text((x0 + 4, rows[-1][3] + 14), text, 14, MUTED, "lm", bold=False)


def render_sheet(view: View, names: Sequence[str], named: tuple[RGB, ...]) -> bytes:
    """The sheet of ``view.seat`` as PNG bytes, its colours ``named``."""
    plan = sheet_layout(view.solo)
    colour = swatch(own_seat(view))
    pen = Pen.on(_printed(view.solo, named))
    draw_caption(pen, view, names, plan.width)
    city.draw_player(pen, plan.grid, view, colour)
    drawn = sum(1 << a for a in view.seats[own_seat(view)].drawn)
    _draw_legend(pen, plan, drawn, colour)
    draw_dice(pen, view, names, plan.dice, DICE_W)
    _draw_bonuses(pen, view, plan, colour)
    _draw_score(pen, view, plan)
    return pen.png()
