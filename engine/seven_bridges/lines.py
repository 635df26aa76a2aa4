"""Drawn lines on a lattice of half-square points, so all geometry is exact integers.

Square (r, c) has its centre at lattice point (2r-1, 2c-1) and its edge midpoints one step
away; neighbouring squares share midpoints (RULINGS §1.8). Every printed line is made of
*arms*, unit segments from a centre to a midpoint; arm (square, d) is number
``4 * square + d``. A player's drawing is one integer used as a bit set of arm numbers, and
a set of lattice points is an integer bit set of point numbers (``y * SPAN + x``): tests
of overlap and contact are then single ``&`` operations, which keeps legal-move listing
fast.
"""

from __future__ import annotations

from functools import lru_cache

from engine.seven_bridges.board import CITY, DIRS, SIZE, SQUARES, format_square

SPAN = 2 * SIZE + 1  # lattice points per row and per column
DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (dy, dx) for N, E, S, W
OPPOSITE = (2, 3, 0, 1)
VERTICAL = (True, False, True, False)


def point(y: int, x: int) -> int:
    return y * SPAN + x


def centre(square: int) -> int:
    return point(2 * (square // SIZE) + 1, 2 * (square % SIZE) + 1)


def midpoint(square: int, d: int) -> int:
    dy, dx = DELTA[d]
    return centre(square) + dy * SPAN + dx


def is_centre(p: int) -> bool:
    return (p // SPAN) % 2 == 1 and (p % SPAN) % 2 == 1


def is_lattice_point(p: int) -> bool:
    """Centres and edge midpoints: the only points lines start, end or turn at."""
    y, x = divmod(p, SPAN)
    return 0 <= p < SPAN * SPAN and (y % 2 == 1 or x % 2 == 1)


def step(p: int, d: int) -> int | None:
    """The point one half-square from ``p`` in direction ``d``, or ``None`` off the map."""
    y, x = divmod(p, SPAN)
    dy, dx = DELTA[d]
    if not (0 <= y + dy < SPAN and 0 <= x + dx < SPAN):
        return None
    return p + dy * SPAN + dx


def square_at(p: int) -> int | None:
    """The square whose centre is ``p`` (``None`` for a midpoint)."""
    y, x = divmod(p, SPAN)
    return (y // 2) * SIZE + x // 2 if y % 2 == 1 and x % 2 == 1 else None


# -- the printed arms -------------------------------------------------------------------
# Arm (square, d) is number 4 * square + d, printed or not, so neighbours are fixed bit
# distances apart: a square's E arm and the next square's W arm are 6 bits apart, its S
# arm and the N arm of the square below 46 (see engine.seven_bridges.loops).

SLOTS = 4 * SQUARES
ARM_SQUARE = [a // 4 for a in range(SLOTS)]
ARM_DIR = [a % 4 for a in range(SLOTS)]
PRINTED = tuple(4 * sq + d for sq in range(SQUARES) for d in range(4) if d in CITY.arms[sq])
ALL_ARMS = sum(1 << a for a in PRINTED)
FOOTPATHS = sum(1 << a for a in PRINTED if CITY.arms[a // 4][a % 4])
SQUARE_ARM = [[4 * sq + d if d in CITY.arms[sq] else -1 for d in range(4)] for sq in range(SQUARES)]
ARM_CENTRE = [centre(a // 4) for a in range(SLOTS)]
ARM_MID = [midpoint(a // 4, a % 4) for a in range(SLOTS)]
ARM_POINTS = [(1 << c) | (1 << m) for c, m in zip(ARM_CENTRE, ARM_MID, strict=True)]


def arm(square: int, d: int) -> int:
    """The number of the printed arm of ``square`` towards ``d``; -1 if none is printed."""
    return SQUARE_ARM[square][d]


def is_footpath(a: int) -> bool:
    return bool(FOOTPATHS >> a & 1)


def arm_name(a: int) -> str:
    return f"{format_square(ARM_SQUARE[a])}{DIRS[ARM_DIR[a]].lower()}"


def bits(value: int) -> list[int]:
    """The set bits of ``value``, lowest first."""
    out = []
    while value:
        low = value & -value
        out.append(low.bit_length() - 1)
        value ^= low
    return out


def _segment_table() -> dict[tuple[int, int], int]:
    """(point, direction) -> the printed arm leaving ``point`` that way.

    From a centre it is that square's arm; from a midpoint it is the arm of the square
    entered, which points back (e.g. heading east from a west edge uses that W arm).
    """
    table = {}
    for a in PRINTED:
        d = ARM_DIR[a]
        table[(ARM_CENTRE[a], d)] = a
        table[(ARM_MID[a], OPPOSITE[d])] = a
    return table


SEGMENT = _segment_table()


def segment(p: int, d: int) -> int:
    """The printed arm from point ``p`` towards ``d``, or -1."""
    return SEGMENT.get((p, d), -1)


def along(a: int, p: int) -> int:
    """The other end of arm ``a`` from its end ``p``: :func:`step` along a printed arm,
    which never leaves the map."""
    return ARM_MID[a] if ARM_CENTRE[a] == p else ARM_CENTRE[a]


def points_of(drawn: int) -> int:
    """The lattice points touched by the arms in ``drawn``, as a bit set."""
    out = 0
    for a in bits(drawn):
        out |= ARM_POINTS[a]
    return out


def _end_or_corner(dirs: list[int]) -> bool:
    """Whether lines leaving a point in ``dirs`` make it an end point (one line) or a
    corner (two, at right angles) — where a horse may start."""
    return len(dirs) == 1 or (len(dirs) == 2 and VERTICAL[dirs[0]] != VERTICAL[dirs[1]])


@lru_cache(maxsize=4096)
def anchors(drawn: int) -> tuple[int, ...]:
    """Points a horse may start from: end points (one arm) and corners (two, at right angles).

    RULINGS §1.8 [P]: "an end point or corner of your existing network". A straight
    run-through or a junction of three or four arms is neither.
    """
    dirs: dict[int, list[int]] = {}
    for a in bits(drawn):
        dirs.setdefault(ARM_CENTRE[a], []).append(ARM_DIR[a])
        dirs.setdefault(ARM_MID[a], []).append(OPPOSITE[ARM_DIR[a]])
    return tuple(sorted(p for p, ds in dirs.items() if _end_or_corner(ds)))


def _point_arms() -> list[int]:
    out = [0] * (SPAN * SPAN)
    for a in PRINTED:
        out[ARM_CENTRE[a]] |= 1 << a
        out[ARM_MID[a]] |= 1 << a
    return out


POINT_ARMS = _point_arms()  # per lattice point: the printed arms that touch it


def on_lines(drawn: int, p: int) -> bool:
    """Whether point ``p`` is on the drawn lines: one look, where :func:`points_of` lists
    every point of the drawing."""
    return bool(drawn & POINT_ARMS[p])


def is_anchor(drawn: int, p: int) -> bool:
    """Whether ``p`` is one of :func:`anchors`, found from the arms at ``p`` alone."""
    here = [
        ARM_DIR[a] if ARM_CENTRE[a] == p else OPPOSITE[ARM_DIR[a]]
        for a in bits(drawn & POINT_ARMS[p])
    ]
    return _end_or_corner(here)


def names_of(p: int) -> list[tuple[int, int]]:
    """The (square, edge) pairs that name a midpoint: one per square beside it on the map."""
    out = []
    for d in range(4):
        c = step(p, d)
        sq = None if c is None else square_at(c)
        if sq is not None:
            out.append((sq, OPPOSITE[d]))
    return out


def format_point(p: int, heading: int) -> str:
    """A point as players write it: a centre is its square (``ii-2-3``); a midpoint is
    named from the square a line heading ``heading`` enters, plus that edge (``ii-2-4w``)."""
    sq = square_at(p)
    if sq is not None:
        return format_square(sq)
    names = names_of(p)
    entered = [(s, e) for s, e in names if e == OPPOSITE[heading]]
    sq, edge = (entered or names)[0]
    return f"{format_square(sq)}{DIRS[edge].lower()}"
