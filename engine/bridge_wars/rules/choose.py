"""Choose a colour and a corner at setup: the corner's rods go in, the starter on them.

RULINGS §2.1 [P]: the 2 x 2 starter fills the corner's outermost 2 x 2 holes. Choosing
is its own stage (``setup`` in :mod:`engine.bridge_wars.flow`): a seat asked for its
colour and corner cannot put a block into play yet, and no seat chooses twice.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridge_wars.actions import Choose, Place
from engine.bridge_wars.blocks import COLOURS, ORIENTATIONS, STARTER
from engine.bridge_wars.board import CORNER_NAMES, CORNERS, STARTERS, names
from engine.bridge_wars.state import State, put
from engine.core import Event, Rule, seat_ref

SETUP = "setup"


def targets(state: State, seat: int) -> list[Choose]:
    """Colours and corners nobody has taken, colour by colour."""
    colours = [c for c in range(len(COLOURS)) if c not in state.colours]
    corners = [k for k in CORNERS if k not in state.corners]
    return [Choose(c, k) for c in colours for k in corners]


def refusal(state: State, seat: int, action: Choose) -> str | None:
    """A colour or corner that is no such thing, or that someone has already taken."""
    if action.colour not in range(len(COLOURS)) or action.corner not in CORNERS:
        return "Choose a colour and a corner, e.g. `red ne` (corners ne, nw, se, sw)."
    if action.colour in state.colours:
        holder = state.colours.index(action.colour)
        return f"{COLOURS[action.colour].capitalize()} is taken: {seat_ref(holder)} plays it."
    if action.corner in state.corners:
        holder = state.corners.index(action.corner)
        where = CORNER_NAMES[action.corner]
        return f"The {where} corner is taken: {seat_ref(holder)} starts there."
    return None


def starter(corner: str) -> Place:
    """The 2 x 2 starter in ``corner``, as the move that would put it there."""
    return Place(STARTER, ORIENTATIONS[STARTER][0], STARTERS[corner])


def effect(state: State, seat: int, action: Choose) -> tuple[State, list[Event]]:
    """The seat takes the colour and the corner, and its starter stands on the board."""
    colours = list(state.colours)
    corners = list(state.corners)
    colours[seat], corners[seat] = action.colour, action.corner
    chosen = replace(state, colours=tuple(colours), corners=tuple(corners))
    chosen, block = put(chosen, seat, starter(action.corner))
    text = (
        f"{seat_ref(seat)} takes {COLOURS[action.colour]} and the "
        f"{CORNER_NAMES[action.corner]} corner; the starter goes on {names(block.cells)}."
    )
    return chosen, [Event("choose", text)]


RULE = Rule(Choose, refusal, effect, targets, stages=frozenset({SETUP}))
