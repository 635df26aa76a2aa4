"""The colours, the 20 blocks of a colour, each block's orientations, and where each can go.

RULINGS §2.2 [P]: blocks are flat, one layer thick, with a hole in every cell; the set
is one 2 x 2 starter and 19 bars, L, T and S shapes (71 holes). A block may be turned
and flipped; orientations that give the same shape are one orientation.

Each orientation has a short code and is drawn below as a picture (rows top to bottom,
``#`` a hole, north up), so the table is also the reference for the notation:
``h``/``v`` bars lie along a row or a column; an ``L3`` is named by the two directions
its arms point from the elbow; an ``L4`` by the direction of its long arm, then of its
foot; a ``T4`` by the direction its nose points; an ``S4`` by its letter (S or Z, as it
looks with north up) and whether it lies along a row (``h``) or a column (``v``).
At import, :func:`orbit` checks that each block's pictures are exactly its distinct
rotations and flips.

A block's *reference hole*, the position in the notation, is its lowest hole (the
leftmost one if its bottom row has several). Every placement of every orientation on
the 11 x 11 board is precomputed here as a :class:`Footprint`, in the order legal moves
are listed, so move generation only has to look at rods and stacks.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bridge_wars.board import HOLES, SIZE, col_row, hole

Cell = tuple[int, int]

#: the four colours, in the order colour numbers (and `red ne`-style choices) use them
COLOURS = ("red", "blue", "yellow", "green")

#: block name -> how many a colour has, and its orientations as code -> picture
BLOCKS: dict[str, tuple[int, dict[str, tuple[str, ...]]]] = {
    "O4": (1, {"o": ("##", "##")}),
    "I2": (3, {"h": ("##",), "v": ("#", "#")}),
    "I3": (3, {"h": ("###",), "v": ("#", "#", "#")}),
    "I4": (3, {"h": ("####",), "v": ("#", "#", "#", "#")}),
    "I5": (2, {"h": ("#####",), "v": ("#", "#", "#", "#", "#")}),
    "L3": (
        2,
        {
            "ne": ("#.", "##"),
            "nw": (".#", "##"),
            "se": ("##", "#."),
            "sw": ("##", ".#"),
        },
    ),
    "L4": (
        2,
        {
            "ne": ("#.", "#.", "##"),
            "nw": (".#", ".#", "##"),
            "se": ("##", "#.", "#."),
            "sw": ("##", ".#", ".#"),
            "en": ("#..", "###"),
            "es": ("###", "#.."),
            "wn": ("..#", "###"),
            "ws": ("###", "..#"),
        },
    ),
    "T4": (
        2,
        {
            "n": (".#.", "###"),
            "e": ("#.", "##", "#."),
            "s": ("###", ".#."),
            "w": (".#", "##", ".#"),
        },
    ),
    "S4": (
        2,
        {
            "sh": (".##", "##."),
            "sv": ("#.", "##", ".#"),
            "zh": ("##.", ".##"),
            "zv": (".#", "##", "#."),
        },
    ),
}

NAMES = tuple(BLOCKS)
STARTER = "O4"
#: the blocks played in turn, i.e. all but the starter, in the order moves are listed
PLAYABLE = tuple(n for n in NAMES if n != STARTER)
COUNTS = tuple(BLOCKS[n][0] for n in NAMES)
ORIENTATIONS = {n: tuple(BLOCKS[n][1]) for n in NAMES}


def stock_text(stock: tuple[int, ...]) -> str:
    """A seat's blocks left, for a sentence: ``I2×3, I3×1`` (counts indexed like NAMES)."""
    held = [f"{n}×{stock[k]}" for k, n in enumerate(NAMES) if stock[k]]
    return ", ".join(held) if held else "no blocks"


def normalise(cells: set[Cell] | list[Cell] | tuple[Cell, ...]) -> tuple[Cell, ...]:
    """``cells`` moved so their reference hole (lowest, then leftmost) is (0, 0)."""
    ref_x, ref_y = min(cells, key=lambda c: (c[1], c[0]))
    return tuple(sorted((x - ref_x, y - ref_y) for x, y in cells))


def orbit(cells: tuple[Cell, ...]) -> set[tuple[Cell, ...]]:
    """Every distinct shape ``cells`` takes when turned and flipped (x east, y north)."""
    shapes = set()
    current = list(cells)
    for _ in range(4):
        current = [(y, -x) for x, y in current]  # a quarter turn clockwise
        shapes.add(normalise(current))
        shapes.add(normalise([(-x, y) for x, y in current]))  # the same, flipped
    return shapes


def _cells(picture: tuple[str, ...]) -> tuple[Cell, ...]:
    top = len(picture) - 1
    return normalise(
        [(x, top - y) for y, line in enumerate(picture) for x, ch in enumerate(line) if ch == "#"]
    )


#: (block, orientation) -> the cells' offsets from the reference hole
OFFSETS: dict[tuple[str, str], tuple[Cell, ...]] = {
    (n, code): _cells(picture) for n in NAMES for code, picture in BLOCKS[n][1].items()
}


def _check_tables() -> None:
    """A block's pictures must be all of its rotations and flips, each exactly once."""
    for n in NAMES:
        shapes = [OFFSETS[(n, code)] for code in ORIENTATIONS[n]]
        if len(set(shapes)) != len(shapes) or set(shapes) != orbit(shapes[0]):
            raise AssertionError(f"the pictures of {n} are not its distinct rotations and flips")


_check_tables()


def cells_at(block: str, orient: str, anchor: int) -> tuple[int, ...] | None:
    """The holes a block covers with its reference hole on ``anchor``; ``None`` if some
    of it would lie off the board."""
    col, row = col_row(anchor)
    out = []
    for dx, dy in OFFSETS[(block, orient)]:
        x, y = col + dx, row + dy
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return None
        out.append(hole(x, y))
    return tuple(out)


@dataclass(frozen=True)
class Footprint:
    """One place a block can take on the board, whatever lies there."""

    anchor: int
    cells: tuple[int, ...]
    mask: int


def _footprints(block: str, orient: str) -> tuple[Footprint, ...]:
    """Every on-board placement, by reference hole column by column (a1, a2, ... k11)."""
    out = []
    for anchor in sorted(range(HOLES), key=col_row):
        cells = cells_at(block, orient, anchor)
        if cells is not None:
            out.append(Footprint(anchor, cells, sum(1 << c for c in cells)))
    return tuple(out)


FOOTPRINTS: dict[tuple[str, str], tuple[Footprint, ...]] = {
    key: _footprints(*key) for key in OFFSETS
}
