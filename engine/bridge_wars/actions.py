"""Bridge Wars' actions and their one notation: `red ne` at setup, then `I3 h f6`.

The notation is stored in every move log, so it never changes: a colour and a corner
to set up, a block, its orientation and its reference hole to put a block into play.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bridge_wars.blocks import COLOURS, NAMES, ORIENTATIONS, PLAYABLE
from engine.bridge_wars.board import CORNER_NAMES, CORNERS, name, parse_hole
from engine.core import IllegalMove


@dataclass(frozen=True, order=True)
class Choose:
    """Setup: take a colour and claim a corner (its rods go in, the starter on them)."""

    colour: int
    corner: str


@dataclass(frozen=True, order=True)
class Place:
    """Put a block into play: which block, turned how, with its reference hole where."""

    block: str
    orient: str
    anchor: int


Action = Choose | Place

HOWTO = (
    "Write a move as block, orientation and reference hole, e.g. `I3 h f6` or `L4 ne c5`; "
    "at setup, colour and corner, e.g. `red ne`."
)


def _colour(token: str) -> int | None:
    for i, colour in enumerate(COLOURS):
        if token in (colour, colour[0]):
            return i
    return None


def _corner(token: str) -> str | None:
    token = token.replace("-", "")
    for corner in CORNERS:
        if token in (corner, CORNER_NAMES[corner].replace("-", "")):
            return corner
    return None


def parse(text: str) -> Action:
    """Read `red ne` (or `b north-west`) or `I3 h f6`, in any case and spacing (the core
    reads `resign`)."""
    tokens = text.lower().split()
    colour = _colour(tokens[0]) if len(tokens) == 2 else None
    if colour is not None:
        corner = _corner(tokens[1])
        if corner is None:
            raise IllegalMove(
                f"'{tokens[1]}' is not a corner: choose ne, nw, se or sw, e.g. `red ne`."
            )
        return Choose(colour, corner)
    if len(tokens) != 3:
        raise IllegalMove(f"I can't read '{text.strip()[:40]}' as a Bridge Wars move. {HOWTO}")
    block = tokens[0].upper()
    if block not in NAMES:
        raise IllegalMove(
            f"'{tokens[0]}' is not a block: blocks are {', '.join(PLAYABLE)}. {HOWTO}"
        )
    if tokens[1] not in ORIENTATIONS[block]:
        raise IllegalMove(
            f"'{tokens[1]}' is not an orientation of {block}: use {', '.join(ORIENTATIONS[block])}."
        )
    anchor = parse_hole(tokens[2])
    if anchor is None:
        raise IllegalMove(f"'{tokens[2]}' is not a hole: columns a–k, rows 1–11, e.g. `f6`.")
    return Place(block, tokens[1], anchor)


def format(action: Action) -> str:
    """The canonical notation: a colour's full name, a block's name upper case."""
    if isinstance(action, Choose):
        return f"{COLOURS[action.colour]} {action.corner}"
    return f"{action.block} {action.orient} {name(action.anchor)}"
