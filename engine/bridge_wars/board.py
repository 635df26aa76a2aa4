"""The Bridge Wars board: 11 x 11 holes, which of them hold rods, and the corners.

RULINGS §2.1 derives the board from the component list: the brass rod in the centre
hole, 60 acrylic rods in the diamond around it (|x| + |y| <= 5 from the centre), and a
triangle of 15 holes in each corner that gets rods only when a player claims it.

Holes are named like a chess board: columns a–k from the left, rows 1–11 from the
bottom, so the brass rod stands on f6. Internally a hole is ``row * 11 + col``, and a
set of holes is an ``int`` bitmask (bit = hole index), which keeps the playable-area
test of a whole block to one ``&``.
"""

from __future__ import annotations

SIZE = 11
HOLES = SIZE * SIZE
COLUMNS = "abcdefghijk"
MID = SIZE // 2

#: the corners a player may claim, in the order they are offered
CORNERS = ("ne", "nw", "se", "sw")
CORNER_NAMES = {"ne": "north-east", "nw": "north-west", "se": "south-east", "sw": "south-west"}
#: which way each corner lies from the centre, as (x sign, y sign)
_CORNER_SIGNS = {"ne": (1, 1), "nw": (-1, 1), "se": (1, -1), "sw": (-1, -1)}


def hole(col: int, row: int) -> int:
    return row * SIZE + col


def col_row(index: int) -> tuple[int, int]:
    return index % SIZE, index // SIZE


def name(index: int) -> str:
    col, row = col_row(index)
    return f"{COLUMNS[col]}{row + 1}"


def names(indices: list[int] | tuple[int, ...]) -> str:
    """Holes for a sentence, in board order: ``e5, e6 and f6``."""
    ordered = [name(i) for i in sorted(indices, key=lambda i: col_row(i))]
    if len(ordered) == 1:
        return ordered[0]
    return ", ".join(ordered[:-1]) + " and " + ordered[-1]


def parse_hole(text: str) -> int | None:
    """The hole named ``text`` (``f6``), or ``None`` if no hole has that name."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        return None
    row = int(text[1:])
    if not 1 <= row <= SIZE or text[1] == "0":
        return None
    return hole(COLUMNS.index(text[0]), row - 1)


def _xy(index: int) -> tuple[int, int]:
    col, row = col_row(index)
    return col - MID, row - MID


BRASS = hole(MID, MID)
#: the centre diamond: brass rod plus 60 acrylic rods, there from the start
DIAMOND = sum(1 << i for i in range(HOLES) if abs(_xy(i)[0]) + abs(_xy(i)[1]) <= MID)


def _triangle(corner: str) -> int:
    sx, sy = _CORNER_SIGNS[corner]
    return sum(
        1 << i
        for i in range(HOLES)
        if _xy(i)[0] * sx > 0 and _xy(i)[1] * sy > 0 and abs(_xy(i)[0]) + abs(_xy(i)[1]) > MID
    )


#: each corner's triangle of 15 holes, which gets rods when a player claims the corner
TRIANGLES = {corner: _triangle(corner) for corner in CORNERS}


def _starter(corner: str) -> int:
    """RULINGS §2.1 [P]: the starter fills the corner's outermost 2 x 2 holes; returns
    its bottom-left hole, the reference hole of the notation."""
    sx, sy = _CORNER_SIGNS[corner]
    col = MID + (MID - 1 if sx > 0 else -MID)
    row = MID + (MID - 1 if sy > 0 else -MID)
    return hole(col, row)


STARTERS = {corner: _starter(corner) for corner in CORNERS}


def rod_mask(corners: tuple[str, ...] | list[str]) -> int:
    """The holes holding rods once ``corners`` are claimed (empty strings are ignored)."""
    mask = DIAMOND
    for corner in corners:
        if corner:
            mask |= TRIANGLES[corner]
    return mask
