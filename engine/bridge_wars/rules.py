"""Bridge Wars positions and the rules over them: setup, dropping a block, scoring.

RULINGS §2.4 is the placement model. Every rod keeps the level of its highest block
(``tops``) and that block's colour (``owner``). A block pushed down its rods stops one
level above the highest block under any of its holes; the holes whose block is exactly
one level below are where it *rests*, the others have a gap under them (it *bridges*).
It is legal when it is within the playable area (every hole on a rod, its level no
higher than the rods) and everything it rests on is the mover's colour. Only the 2 x 2
starter, placed at setup, ever stands on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.bridge_wars.blocks import FOOTPRINTS, NAMES, ORIENTATIONS, STARTER, cells_at
from engine.bridge_wars.board import (
    BRASS,
    CORNER_NAMES,
    CORNERS,
    HOLES,
    STARTERS,
    name,
    names,
    rod_mask,
)
from engine.core import Rng, seat_ref

COLOURS = ("red", "blue", "yellow", "green")
ALL_HOLES = (1 << HOLES) - 1


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


@dataclass(frozen=True)
class Resign:
    """Leave the game: the seat places nothing more and finishes last."""


Action = Choose | Place | Resign


@dataclass(frozen=True)
class Placed:
    """A block in play, and the level (1 = on the board) it came to rest at."""

    seat: int
    colour: int
    block: str
    orient: str
    anchor: int
    level: int

    @property
    def cells(self) -> tuple[int, ...]:
        cells = cells_at(self.block, self.orient, self.anchor)
        assert cells is not None, "a block in play lies on the board"
        return cells


@dataclass(frozen=True)
class State:
    players: int
    height: int  # rod height in layers: nothing may rest above it
    colours: tuple[int, ...]  # per seat, -1 until chosen
    corners: tuple[str, ...]  # per seat, "" until chosen
    placed: tuple[Placed, ...]  # every block in play, in the order put in
    tops: tuple[int, ...]  # per hole: level of its highest block, 0 for none
    owner: tuple[int, ...]  # per hole: colour of that block, -1 for none
    stock: tuple[tuple[int, ...], ...]  # per seat: blocks left, counted like blocks.NAMES
    turn: int  # the seat to act; -1 once the game is over
    first: int  # the seat that chooses first and so plays first
    final: tuple[int, ...] | None  # once the end is triggered: seats still owed a turn
    ending: str  # what ended (or is ending) the game: "", "top", "last", "stuck", "resign"
    resigned: frozenset[int]
    rng: Rng


def in_setup(state: State) -> bool:
    """Colours and corners are still being chosen (the seat to act has none yet)."""
    return state.turn >= 0 and state.colours[state.turn] < 0


def rods(state: State) -> int:
    return rod_mask(state.corners)


def active(state: State) -> list[int]:
    return [s for s in range(state.players) if s not in state.resigned]


def next_active(state: State, seat: int, inclusive: bool = False) -> int | None:
    """The first seat still playing after ``seat`` (or from it), going left."""
    for step in range(0 if inclusive else 1, state.players + 1):
        candidate = (seat + step) % state.players
        if candidate not in state.resigned:
            return candidate
    return None


# -- setup ---------------------------------------------------------------------------


def choices(state: State) -> list[Choose]:
    """Colours and corners nobody has taken, colour by colour."""
    colours = [c for c in range(len(COLOURS)) if c not in state.colours]
    corners = [k for k in CORNERS if k not in state.corners]
    return [Choose(c, k) for c in colours for k in corners]


def choose_refusal(state: State, action: Choose) -> str | None:
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


# -- dropping a block ------------------------------------------------------------------


@dataclass(frozen=True)
class Landing:
    """Where a block comes to rest: its level, the holes it rests on, those it bridges."""

    cells: tuple[int, ...]
    level: int
    resting: tuple[int, ...]
    bridged: tuple[int, ...]


def drop(state: State, cells: tuple[int, ...]) -> Landing:
    """What the downer does: push the block down until some hole meets a block."""
    top = max(state.tops[c] for c in cells)
    resting = tuple(c for c in cells if state.tops[c] == top and top > 0)
    bridged = tuple(c for c in cells if state.tops[c] < top)
    return Landing(cells, top + 1, resting, bridged)


def place_refusal(state: State, seat: int, action: Place) -> str | Landing:
    """Why ``seat`` may not play ``action`` now, or where the block will land."""
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
    colour = state.colours[seat]
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
    foreign = [c for c in landing.resting if state.owner[c] != colour]
    if foreign:
        others = sorted({COLOURS[state.owner[c]] for c in foreign})
        return (
            f"Contact rule: {what} would rest on {' and '.join(others)} at {names(foreign)} "
            f"(level {landing.level - 1}); a block may rest only on your own colour. "
            "To bridge over other colours, leave a gap under them."
        )
    return landing


def placements(state: State, seat: int, first_only: bool = False) -> list[Place]:
    """Every legal placement for ``seat``, block by block, orientation by orientation,
    then by reference hole column by column; with ``first_only``, at most one.

    This is :func:`place_refusal` made fast: precomputed footprints, and two bitmask
    tests that throw out most of them before any stack is looked at.
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
    return bool(placements(state, seat, first_only=True))


# -- stock, scores ---------------------------------------------------------------------


def stock_text(stock: tuple[int, ...]) -> str:
    held = [f"{n}×{stock[k]}" for k, n in enumerate(NAMES) if stock[k]]
    return ", ".join(held) if held else "no blocks"


def rod_value(hole: int) -> int:
    """The brass rod scores 5, every acrylic rod 1."""
    return 5 if hole == BRASS else 1


def scores(state: State) -> tuple[int, ...]:
    """Points from the top: each rod counts for the colour of its highest block."""
    by_colour = [0] * len(COLOURS)
    for c in range(HOLES):
        if state.owner[c] >= 0:
            by_colour[state.owner[c]] += rod_value(c)
    return tuple(by_colour[c] if c >= 0 else 0 for c in state.colours)


def top_layer_rods(state: State, seat: int) -> int:
    """Rods whose highest block is this seat's and sits at the very top of the rods."""
    colour = state.colours[seat]
    return sum(
        1 for c in range(HOLES) if state.owner[c] == colour and state.tops[c] == state.height
    )


def holds_brass(state: State, seat: int) -> bool:
    return state.colours[seat] >= 0 and state.owner[BRASS] == state.colours[seat]


def starter(corner: str) -> Place:
    """The 2 x 2 starter in ``corner`` (RULINGS §2.1 [P]: the outermost 2 x 2)."""
    return Place(STARTER, ORIENTATIONS[STARTER][0], STARTERS[corner])


def put(state: State, seat: int, action: Place) -> tuple[State, Placed]:
    """``state`` with ``action``'s block dropped in for ``seat`` (legality not checked)."""
    cells = cells_at(action.block, action.orient, action.anchor)
    assert cells is not None
    landing = drop(state, cells)
    colour = state.colours[seat]
    tops, owner = list(state.tops), list(state.owner)
    for c in cells:
        tops[c], owner[c] = landing.level, colour
    stock = list(state.stock)
    counts = list(stock[seat])
    counts[NAMES.index(action.block)] -= 1
    stock[seat] = tuple(counts)
    block = Placed(seat, colour, action.block, action.orient, action.anchor, landing.level)
    after = replace(
        state,
        placed=(*state.placed, block),
        tops=tuple(tops),
        owner=tuple(owner),
        stock=tuple(stock),
    )
    return after, block
