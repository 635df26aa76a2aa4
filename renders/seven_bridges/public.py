"""The public card: the dice, each player's bridges, landmarks and score so far, and
every player's map, small, so the channel sees the networks themselves.

A player's own sheet (:mod:`.sheet`) has the full-size map with its buildings and trees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.seven_bridges.board import CITY, SIZE
from engine.seven_bridges.legend import crossed, visited
from engine.seven_bridges.state import PICKS
from engine.seven_bridges.view import View
from renders.common import fit_text, font, text_width
from renders.ground import blank
from renders.palette import CARD_LINE, INK, MUTED, RGB, WHITE
from renders.pen import Box, Pen, box_centre
from renders.seven_bridges import minimap
from renders.seven_bridges.pieces import (
    CAPTION_H,
    DIE,
    DIE_GAP,
    EULER,
    GAP,
    MARGIN,
    PANEL_HEAD,
    PIP,
    draw_caption,
    draw_dice,
    ordinal,
    pip,
    position_name,
    positions,
    swatch,
)

WIDTH = 800
MAP_GAP = 24  # between two small maps
MAP_LABEL = 28  # a small map's name above it
ROW_H = 88
ROW_GAP = 8
PIP_STEP = PIP + 4
LANDMARKS_X = MARGIN + 12 + len(CITY.bridges) * PIP_STEP + 14  # where the letters start


@dataclass(frozen=True)
class PublicLayout:
    width: int
    height: int
    dice: tuple[Box, ...]
    rows: tuple[Box, ...]  # one per drafting position: Euler is second in a solo game
    maps: tuple[tuple[int, int], ...]  # each seat's small map, its top left corner
    cell: int  # a small map's square, in pixels


def public_layout(view: View) -> PublicLayout:
    top = CAPTION_H + PANEL_HEAD
    step = DIE + 3 * DIE_GAP
    dice = tuple((MARGIN + k * step, top, MARGIN + k * step + DIE, top + DIE) for k in range(PICKS))
    top = dice[0][3] + 36 + GAP + 26  # token, owner, column titles
    rows = tuple(
        (MARGIN, top + k * ROW_H, WIDTH - MARGIN, top + (k + 1) * ROW_H - ROW_GAP)
        for k in range(positions(view))
    )
    # every seat's map in one row (five or six: two rows of three), as big as fits
    columns = view.players if view.players <= 4 else 3
    room = (WIDTH - 2 * MARGIN - (columns - 1) * MAP_GAP) / columns
    cell = min(minimap.MAX_CELL, int(room // SIZE))
    side = SIZE * cell
    left = (WIDTH - columns * side - (columns - 1) * MAP_GAP) // 2
    top = round(rows[-1][3]) + GAP + MAP_LABEL
    maps = tuple(
        (left + k % columns * (side + MAP_GAP), top + k // columns * (side + MAP_LABEL + GAP))
        for k in range(view.players)
    )
    return PublicLayout(WIDTH, maps[-1][1] + side + MARGIN, dice, rows, maps, cell)


def progress(view: View, position: int) -> tuple[set[int], set[str], int]:
    """Bridges crossed, landmarks visited and score so far of a drafting position.

    Euler scores what the player leaves (rulebook, solo play): his bridges and landmarks
    are the ones the player has not reached yet.
    """
    if view.solo and position == 1:
        drawn = sum(1 << a for a in view.seats[0].drawn)
        bridges = {b.number for b in CITY.bridges} - set(crossed(drawn))
        letters = {lm.letter for lm in CITY.landmarks} - set(visited(drawn))
        assert view.euler_total is not None, "a solo game's view has Euler's score"
        return bridges, letters, view.euler_total
    drawn = sum(1 << a for a in view.seats[position].drawn)
    return set(crossed(drawn)), set(visited(drawn)), view.seats[position].card.total


def _draw_row(pen: Pen, view: View, names: Sequence[str], position: int, box: Box) -> None:
    """A player's name and score, then the seven bridges and eleven landmark letters,
    filled in once crossed or visited; the player to move is framed in black."""
    euler = view.solo and position == 1
    colour = EULER if euler else swatch(position)
    bridges, letters, total = progress(view, position)
    to_play = position in view.to_play and not euler
    pen.rect(box, WHITE, INK if to_play else CARD_LINE, 4 if to_play else 2, 12)
    x0, y0, x1, _ = box
    y = y0 + 22
    chip = (x0 + 12, y - 14, x0 + 40, y + 14)
    pen.rect(chip, colour.fill, colour.edge, 2, 6)
    pen.text(box_centre(chip), colour.letter, 17, colour.ink)
    score = str(total)
    pen.text((x1 - 14, y + 2), score, 30, INK, "rm")
    pen.text((x1 - 22 - text_width(score, 30), y + 6), "pts", 15, MUTED, "rm", bold=False)
    marker = "▶ " if to_play else ""
    if view.places is not None and not euler:
        marker = f"{ordinal(view.places[position])} · "
    summary = (
        "scores what you leave"
        if euler
        else (
            f"{len(bridges)}/{len(CITY.bridges)} bridges · "
            f"{len(letters)}/{len(CITY.landmarks)} landmarks"
        )
    )
    room = x1 - x0 - 52 - text_width(summary, 16, bold=False) - text_width(score, 30) - 70
    name = fit_text(marker + position_name(view, names, position), font(24, True), room)
    pen.text((x0 + 52, y), name, 24, INK, "lm")
    pen.text((x0 + 66 + text_width(name, 24), y + 2), summary, 16, MUTED, "lm", bold=False)
    y = y0 + 58
    for k, bridge in enumerate(CITY.bridges):
        centre = (x0 + 12 + PIP / 2 + k * PIP_STEP, y)
        pip(pen, centre, str(bridge.number), bridge.number in bridges, colour, square=True)
    for k, lm in enumerate(CITY.landmarks):
        centre = (LANDMARKS_X + PIP / 2 + k * PIP_STEP, y)
        pip(pen, centre, lm.letter, lm.letter in letters, colour, square=False)


def render_public(view: View, names: Sequence[str], named: tuple[RGB, ...]) -> bytes:
    """The spectators' card as PNG bytes, its colours ``named``."""
    plan = public_layout(view)
    pen = Pen.on(blank(plan.width, plan.height, named))
    draw_caption(pen, view, names, plan.width)
    draw_dice(pen, view, names, plan.dice, plan.width - 2 * MARGIN)
    y = plan.rows[0][1] - 14
    pen.text((MARGIN + 12, y), "bridges crossed", 15, MUTED, "lm", bold=False)
    pen.text((LANDMARKS_X, y), "landmarks visited", 15, MUTED, "lm", bold=False)
    pen.text((plan.width - MARGIN - 14, y), "score so far", 15, MUTED, "rm", bold=False)
    for position, box in enumerate(plan.rows):
        _draw_row(pen, view, names, position, box)
    for seat, (x, y) in enumerate(plan.maps):
        minimap.draw(pen, (x, y), plan.cell, view.seats[seat], view.start, swatch(seat))
        label = fit_text(f"{names[seat]}'s map", font(18, True), plan.cell * SIZE)
        pen.text((x, y - MAP_LABEL / 2), label, 18, INK, "lm")
    return pen.png(plan.height)
