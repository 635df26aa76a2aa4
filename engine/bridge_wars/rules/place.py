"""Put a block into play: the playable area and the contact rule (RULINGS §2.4).

A block dropped down its rods *rests* on the holes whose block is exactly one level
below it, and *bridges* the others, leaving a gap. It may go in when every hole of it
is on a rod, it comes to rest no higher than the rods, and everything it rests on is
the mover's colour; only the starter, put in at setup, ever stands on the board.
``refusal`` explains one placement from where that block lands; ``targets`` lists them
all from precomputed footprints and bitmasks, without a sentence for any.
"""

from __future__ import annotations

from engine.bridge_wars import actions
from engine.bridge_wars.actions import Place
from engine.bridge_wars.blocks import (
    COLOURS,
    FOOTPRINTS,
    NAMES,
    ORIENTATIONS,
    STARTER,
    cells_at,
    stock_text,
)
from engine.bridge_wars.board import HOLES, name, names
from engine.bridge_wars.state import State, drop, put, rods
from engine.core import Event, Rule, seat_ref

ALL_HOLES = (1 << HOLES) - 1


def targets(state: State, seat: int, first_only: bool = False) -> list[Place]:
    """Every legal placement for ``seat``, block by block, orientation by orientation,
    then by reference hole column by column; with ``first_only``, at most one.

    This is :func:`refusal` made fast: precomputed footprints, and two bitmask tests
    that throw out most of them before any stack is looked at.
    """
    colour = state.colours[seat]
    stock = state.stock[seat]
    missing = ALL_HOLES ^ rods(state)
    tops, owner, height = state.tops, state.owner, state.height
    own = 0
    for c in range(HOLES):
        if owner[c] == colour:
            own |= 1 << c
    out: list[Place] = []
    for k, block in enumerate(NAMES):
        if not stock[k] or block == STARTER:
            continue
        for orient in ORIENTATIONS[block]:
            for fp in FOOTPRINTS[(block, orient)]:
                # every hole needs a rod, and it can only rest on own colour if it
                # covers some rod whose top is own colour
                if fp.mask & missing or not fp.mask & own:
                    continue
                cells = fp.cells
                top = max([tops[c] for c in cells])
                if top >= height:
                    continue
                for c in cells:
                    if tops[c] == top and owner[c] != colour:
                        break
                else:
                    out.append(Place(block, orient, fp.anchor))
                    if first_only:
                        return out
    return out


def can_place(state: State, seat: int) -> bool:
    """Whether ``seat`` can put any block into play (the game ends when it cannot)."""
    return bool(targets(state, seat, first_only=True))


def refusal(state: State, seat: int, action: Place) -> str | None:
    """Why this one block may not go in: looks only at the rods under it."""
    if action.block not in NAMES or action.orient not in ORIENTATIONS.get(action.block, ()):
        return "That is not a Bridge Wars block and orientation, e.g. `I3 h f6`."
    if action.anchor not in range(HOLES):
        return "That hole is not on the board (columns a–k, rows 1–11)."
    what = f"{action.block} {action.orient} at {name(action.anchor)}"
    if action.block == STARTER:
        return "The O4 square is the starter: it went into your corner at setup."
    if not state.stock[seat][NAMES.index(action.block)]:
        return f"You have no {action.block} left; you have {stock_text(state.stock[seat])}."
    cells = cells_at(action.block, action.orient, action.anchor)
    if cells is None:
        return f"Playable area: {what} would stick out over the edge of the board."
    bare = [c for c in cells if not rods(state) >> c & 1]
    if bare:
        return (
            f"Playable area: {what} would need a rod in {names(bare)}, and there is none "
            "(only the centre diamond and the claimed corners have rods)."
        )
    landing = drop(state, cells)
    if landing.level > state.height:
        full = [c for c in cells if state.tops[c] == state.height]
        rod_is = "the rod at {} is" if len(full) == 1 else "the rods at {} are"
        return (
            f"Playable area: {what} would come to rest at level {landing.level}, above the "
            f"{state.height}-layer rods, because {rod_is.format(names(full))} full to the top."
        )
    if not landing.resting:
        return (
            f"Contact rule: {what} would drop onto the board; a block must rest on a block "
            "of your own colour (only the starter stands on the board)."
        )
    colour = state.colours[seat]
    foreign = [c for c in landing.resting if state.owner[c] != colour]
    if foreign:
        others = sorted({COLOURS[state.owner[c]] for c in foreign})
        return (
            f"Contact rule: {what} would rest on {' and '.join(others)} at {names(foreign)} "
            f"(level {landing.level - 1}); a block may rest only on your own colour. "
            "To bridge over other colours, leave a gap under them."
        )
    return None


def effect(state: State, seat: int, action: Place) -> tuple[State, list[Event]]:
    """The block drops in; the event names the colours it bridges over, if any."""
    placed, block = put(state, seat, action)
    bridged = [c for c in block.cells if state.tops[c] < block.level - 1]
    text = f"{seat_ref(seat)} put {actions.format(action)} into play at level {block.level}"
    if bridged:
        under = {state.owner[c] for c in bridged if state.owner[c] >= 0}
        over = " and ".join(COLOURS[c] for c in sorted(under)) or "empty rods"
        text += f", bridging over {over} at {names(bridged)}"
    return placed, [Event("place", text + ".")]


RULE = Rule(Place, refusal, effect, targets)
