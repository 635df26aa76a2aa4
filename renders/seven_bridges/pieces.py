"""What the sheet and the public card both show: the caption, the dice pool, die faces,
the bridge and landmark markers, and the colours of the seats and of Euler."""

from __future__ import annotations

from collections.abc import Sequence

from engine.seven_bridges.dice import HORSE, ROTATIONS, face_name
from engine.seven_bridges.state import PICKS, ROUNDS
from engine.seven_bridges.view import View
from renders.common import fit_text, font
from renders.palette import (
    BACKGROUND,
    CARD_LINE,
    HIGHLIGHT,
    INK,
    MUTED,
    RGB,
    SIX_COLOURS,
    WHITE,
    Swatch,
)
from renders.pen import Box, Pen, Point, box_centre

MARGIN = 12
CAPTION_H = 62
GAP = 10
PANEL_HEAD = 28  # a panel's title line
DIE = 62
DIE_GAP = 9
DICE_W = PICKS * DIE + (PICKS - 1) * DIE_GAP
PIP = 34

DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) towards N, E, S, W

USED_CELL: RGB = (226, 222, 214)  # a used bonus, a die handed to someone else
#: Euler, the rulebook's solo opponent: a pale lavender no seat uses
EULER = Swatch("Euler", "E", (200, 200, 222), INK, (78, 78, 132))


def swatch(seat: int) -> Swatch:
    return SIX_COLOURS[seat]


def positions(view: View) -> int:
    """Drafting positions: the seats, plus Euler in a solo game."""
    return max(view.players, 2)


def position_name(view: View, names: Sequence[str], position: int) -> str:
    if view.solo and position == 1:
        return "Euler"
    return names[position] + (" (resigned)" if position in view.resigned else "")


def ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _result(view: View, names: Sequence[str]) -> str:
    if view.solo:
        mine, euler = view.seats[0].card.total, view.euler_total
        assert euler is not None, "a solo game's view has Euler's score"
        verdict = "you beat Euler" if mine > euler else "Euler wins"
        if mine == euler:
            verdict = "a tie with Euler"
        if view.resigned:
            verdict = "you resigned, Euler wins"
        return f"Game over: {mine} to {euler}, {verdict}"
    places = view.places
    assert places is not None
    order = sorted(range(view.players), key=lambda s: (places[s], s))
    ranks = (f"{ordinal(places[s])} {names[s]} {view.seats[s].card.total}" for s in order)
    return "Game over: " + ", ".join(ranks)


def status(view: View, names: Sequence[str]) -> str:
    """The second caption line: who must decide what (or the result), then the last move."""
    if view.over:
        line = _result(view, names)
    else:
        waiting = []
        for seat in view.to_play:
            player = view.seats[seat]
            doing = "to roll" if view.rolling else "to pick"
            if player.pending_items:
                doing = "to choose an item"
            elif player.pending:
                doing = "to choose a bonus"
            waiting.append(f"{names[seat]} {doing}")
        line = "; ".join(waiting)
    if view.last_seat >= 0:
        line += f" · last: {names[view.last_seat]} {view.last_move}"
    return line


def caption(view: View, names: Sequence[str]) -> tuple[str, str]:
    """The title (whose map, which round and pick) and the status line."""
    title = "Seven Bridges" if view.seat is None else f"{names[view.seat]}'s map"
    pick = min(view.slot + 1, PICKS)  # a bonus after the turn's last pick waits at 6
    where = "final" if view.over else f"Round {view.round}/{ROUNDS} · pick {pick}/{PICKS}"
    return f"{title} — {where}", status(view, names)


def draw_caption(pen: Pen, view: View, names: Sequence[str], width: int) -> None:
    title, line = caption(view, names)
    room = width - 2 * MARGIN
    pen.text((MARGIN, 20), fit_text(title, font(26, True), room), 26, INK, "lm")
    pen.text((MARGIN, 48), fit_text(line, font(19, False), room), 19, MUTED, "lm", bold=False)


def face(pen: Pen, box: Box, value: int, kind: int, ink: RGB) -> None:
    """A die face (or an IMMEDIATE bonus shape) in ``box``: its lines in their first
    rotation, the half face with its centre end point as a dot, the horse as a
    double arrow under its length in squares."""
    cx, cy = box_centre(box)
    reach = (box[2] - box[0]) / 2 - 7
    w = max(5.0, reach / 3.2)
    if value == HORSE:
        y = cy + reach * 0.4
        pen.bar((cx - reach + 6, y), (cx + reach - 6, y), w * 0.8, ink)
        for sx in (-1, 1):
            tip, back = cx + sx * reach, cx + sx * (reach - w * 1.8)
            pen.polygon([(tip, y), (back, y - w * 1.4), (back, y + w * 1.4)], ink)
        pen.text((cx, cy - reach * 0.3), str(kind), round(reach * 1.05), ink)
        return
    for d in ROTATIONS[value][0]:
        dx, dy = DELTA[d]
        pen.bar((cx, cy), (cx + dx * reach, cy + dy * reach), w, ink)
    if value == 5:
        pen.circle((cx, cy), w * 0.95, ink, None)


def die(
    pen: Pen, box: Box, kind: int, value: int, mark: str = "", label: str = "", blank: str = "taken"
) -> None:
    """One die of the pool: its face on white and its move token underneath; a drafted
    die leaves an empty place. ``mark`` "mine" frames a die handed to the viewer,
    "other" greys one handed to someone else, "committed" frames a downgraded die that
    must be drawn now. ``label`` is a line under the token: whose hand the die is in.
    ``blank`` names an empty place: "taken", or "?" before the roll."""
    cx = (box[0] + box[2]) / 2
    if value == 0:
        pen.rect(box, BACKGROUND, CARD_LINE, 2, radius=10)
        pen.text(box_centre(box), blank, 15 if len(blank) > 1 else 30, MUTED, bold=False)
        return
    other = mark == "other"
    framed = mark in ("mine", "committed")
    edge = MUTED if other else HIGHLIGHT if framed else INK
    pen.rect(box, USED_CELL if other else WHITE, edge, 5 if framed else 2.5, radius=10)
    face(pen, box, value, kind, MUTED if other else INK)
    token = f"{face_name(value)}{kind}"
    pen.text((cx, box[3] + 11), token, 15, MUTED if other else INK, bold=False)
    if label:
        shown = fit_text(label, font(13, False), DIE + DIE_GAP)
        pen.text((cx, box[3] + 27), shown, 13, MUTED, bold=False)


def hand_owners(view: View) -> dict[int, int]:
    """Die -> the position it was handed to by a Distribute. Euler's hand is not in the
    view: in a solo game a die left in no seat's hand is his."""
    owners = {d: s for s, p in enumerate(view.seats) for d in p.hand}
    if owners and view.solo:
        left = (d for d, (_, value) in enumerate(view.dice) if value and d not in owners)
        owners.update(dict.fromkeys(left, 1))
    return owners


def dice_note(view: View, names: Sequence[str]) -> str:
    """The pool's title: who rolled and who picks, or what is special about the dice."""
    if view.over:
        return "Dice — the game is over"
    if view.slot == PICKS:
        return "Dice — all six drafted"
    if view.rolling:
        return f"Dice — {position_name(view, names, view.roller)} to roll"
    picker = position_name(view, names, view.pick_owners[view.slot])
    if view.committed >= 0:
        kind, value = view.dice[view.committed]
        return f"Dice — {picker} draws the downgraded {face_name(value)}{kind}"
    if hand_owners(view):
        return "Dice — handed out: " + ("yours framed" if view.seat is not None else "owners below")
    roller = position_name(view, names, view.roller)
    return f"Dice — {roller} rolled · {picker} picks next"


def draw_dice(
    pen: Pen, view: View, names: Sequence[str], boxes: Sequence[Box], room: float
) -> None:
    """The pool under its title (cut to ``room`` px). After a Distribute a sheet frames
    the viewer's dice and greys the others; the public card names each die's owner."""
    note = fit_text(dice_note(view, names), font(18, True), room)
    pen.text((boxes[0][0], boxes[0][1] - PANEL_HEAD / 2 - 2), note, 18, INK, "lm")
    owners = hand_owners(view)
    for d, ((kind, value), box) in enumerate(zip(view.dice, boxes, strict=True)):
        mark, label = "", ""
        if view.committed == d:
            mark = "committed"
        elif d in owners and view.seat is not None:
            mark = "mine" if owners[d] == view.seat else "other"
        elif d in owners:
            label = position_name(view, names, owners[d])
        die(pen, box, kind, value, mark, label, "?" if view.rolling else "taken")


def pip(pen: Pen, centre: Point, label: str, on: bool, colour: Swatch, square: bool) -> None:
    """A bridge (square) or landmark (disc) marker: filled in the player's colour once
    crossed or visited, hollow before; the number or letter reads either way."""
    r = PIP / 2
    fill, ink, edge = (colour.fill, colour.ink, colour.edge) if on else (WHITE, MUTED, CARD_LINE)
    if square:
        pen.rect((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill, edge, 2, 5)
    else:
        pen.circle(centre, r, fill, edge, 2)
    pen.text(centre, label, 17, ink)
