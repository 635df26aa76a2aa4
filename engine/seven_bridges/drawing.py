"""The drawing rules (rulebook "Drafting", RULINGS §1.8), each checked by name.

A *shape* is a die face or immediate bonus of value 1–5 drawn inside one square in one
rotation; a *line* is a horse: a straight run of half-square steps from a point of the
player's network. The refusals name the rule that is broken and the place, so a player
knows what to change. The same checks, run over every square and rotation, list the
legal placements that buttons offer, so the two can never disagree.

``drawn`` is a player's arms as a bit set (see :mod:`engine.seven_bridges.lines`);
``footpaths`` says whether that player may draw on footpaths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.seven_bridges.board import SIZE, SQUARES, format_square
from engine.seven_bridges.dice import ARM_COUNT, ROTATIONS, face_name, rotation_name
from engine.seven_bridges.lines import (
    ALL_ARMS,
    FOOTPATHS,
    POINT_ARMS,
    SPAN,
    VERTICAL,
    along,
    anchors,
    arm,
    centre,
    format_point,
    is_anchor,
    is_centre,
    is_footpath,
    is_lattice_point,
    midpoint,
    on_lines,
    points_of,
    segment,
)

WORDS = ("north", "east", "south", "west")


@dataclass(frozen=True)
class Candidate:
    """One rotation of one shape in one square, all of whose arms are printed."""

    square: int
    dirs: tuple[int, ...]
    arms: int  # bit set of arm numbers
    ends: int  # bit set of the lattice points that are the shape's end points
    footpath: bool
    joins: int  # the arms touching its end points: a drawing joins it if it has one of them


def _candidates() -> dict[int, tuple[Candidate, ...]]:
    table: dict[int, tuple[Candidate, ...]] = {}
    for value, rotations in ROTATIONS.items():
        found = []
        for square in range(SQUARES):
            for dirs in rotations:
                numbers = [arm(square, d) for d in dirs]
                if min(numbers) < 0:
                    continue
                points = [midpoint(square, d) for d in dirs]
                if value == 5:  # the half face also ends at the square's centre
                    points.append(centre(square))
                ends = joins = 0
                for p in points:
                    ends |= 1 << p
                    joins |= POINT_ARMS[p]
                arms = 0
                for a in numbers:
                    arms |= 1 << a
                found.append(Candidate(square, dirs, arms, ends, bool(arms & FOOTPATHS), joins))
        table[value] = tuple(found)
    return table


CANDIDATES = _candidates()
# the same, found by value, square and rotation (arms in N, E, S, W order)
_PLACED = {(value, c.square, c.dirs): c for value, cs in CANDIDATES.items() for c in cs}

# One bit per square at 4 * square, where the arm numbering puts each square's N arm:
# a drawing shifted right by d then has arm d of every square at that square's bit.
_SQUARE_BITS = sum(1 << 4 * sq for sq in range(SQUARES))
_PRINTED_AT = tuple(ALL_ARMS >> d & _SQUARE_BITS for d in range(4))
_FOOTPATH_AT = tuple(FOOTPATHS >> d & _SQUARE_BITS for d in range(4))
_NOT_EAST_EDGE = sum(1 << 4 * sq for sq in range(SQUARES) if sq % SIZE != SIZE - 1)
_NOT_WEST_EDGE = sum(1 << 4 * sq for sq in range(SQUARES) if sq % SIZE != 0)
_ROW = 4 * SIZE  # from a square's bit to the bit of the square below


def _by_square(drawn: int, footpaths: bool) -> tuple[list[int], list[int]]:
    """Per direction, the squares whose arm that way is drawn, and those whose arm that
    way is printed, not drawn, and allowed (footpaths only with the bonus)."""
    drawn_at = [drawn >> d & _SQUARE_BITS for d in range(4)]
    free_at = [_PRINTED_AT[d] & ~drawn_at[d] for d in range(4)]
    if not footpaths:
        free_at = [free & ~_FOOTPATH_AT[d] for d, free in enumerate(free_at)]
    return drawn_at, free_at


def shape_arms(square: int, dirs: tuple[int, ...]) -> int:
    """The arms of a shape (which must be printed there)."""
    out = 0
    for d in dirs:
        out |= 1 << arm(square, d)
    return out


def shape_placements(drawn: int, footpaths: bool, value: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every (square, rotation) where a shape of ``value`` may be drawn now."""
    net = points_of(drawn)
    return [
        (c.square, c.dirs)
        for c in CANDIDATES[value]
        if not c.arms & drawn and c.ends & net and (footpaths or not c.footpath)
    ]


@lru_cache(maxsize=4096)
def shape_fits(drawn: int, footpaths: bool, value: int) -> bool:
    """Whether a shape of ``value`` fits anywhere: :func:`shape_placements` is not empty.

    Asked on every check of a pick (is the seat stuck?), so it looks at all squares at
    once: for each rotation, the squares whose arms are all free, one of whose end points
    is on the lines.
    """
    drawn_at, free_at = _by_square(drawn, footpaths)
    n, e, s, w = drawn_at
    # a square's edge midpoint is on the lines when the neighbour's facing arm is drawn
    # (its own arm there must be free); the half face also ends at the centre
    touch = (s << _ROW, (w >> 4) & _NOT_EAST_EDGE, n >> _ROW, (e << 4) & _NOT_WEST_EDGE)
    centre_on = n | e | s | w if value == 5 else 0
    for dirs in ROTATIONS[value]:
        fit = centre_on
        for d in dirs:
            fit |= touch[d]
        for d in dirs:
            fit &= free_at[d]
        if fit:
            return True
    return False


def shape_refusal(
    drawn: int, footpaths: bool, value: int, square: int, dirs: tuple[int, ...]
) -> str | None:
    """Why the shape may not go there, naming the rule; ``None`` if it may.

    A shape that may go there is seen at once from its candidate; only a refused one is
    taken through the rules one by one, to name the first it breaks.
    """
    c = _PLACED.get((value, square, dirs))
    if c and not c.arms & drawn and c.joins & drawn and (footpaths or not c.footpath):
        return None
    name = face_name(value)
    if not 0 <= square < SQUARES:
        return "Exclusivity: a shape is drawn inside one square of the map."
    where = format_square(square)
    if any(d not in range(4) for d in dirs) or len(set(dirs)) != len(dirs):
        return f"Totality: a {name}'s lines are arms of its square: n, e, s or w, once each."
    if tuple(sorted(dirs)) not in ROTATIONS[value]:
        turns = ", ".join(rotation_name(r) for r in ROTATIONS[value])
        return (
            f"Totality: a {name} draws {ARM_COUNT[value]} line(s) as printed on the die "
            f"({turns}); `{rotation_name(dirs)}` is not one of its rotations."
        )
    for d in dirs:
        if arm(square, d) < 0:
            return (
                f"Totality: {where} has no street to the {WORDS[d]}, so the whole {name} "
                f"cannot be drawn there."
            )
    for d in dirs:
        a = arm(square, d)
        if is_footpath(a) and not footpaths:
            return (
                f"Footpaths: the {WORDS[d]} line of {where} is a footpath; you may draw on "
                f"footpaths only once you have reserved the footpaths bonus."
            )
    for d in dirs:
        if drawn >> arm(square, d) & 1:
            return (
                f"Backtracking: you have already drawn the {WORDS[d]} line of {where}; new "
                f"lines may cross yours but never run over them."
            )
    ends = [midpoint(square, d) for d in dirs]
    if value == 5:
        ends.append(centre(square))
    if not on_lines(drawn, centre(square)) and not any(on_lines(drawn, p) for p in ends):
        return f"Connectivity: a {name} in {where} would not touch your lines."
    if not any(on_lines(drawn, p) for p in ends):
        return (
            f"Extremity: a {name} in {where} would touch your lines only at its centre; one "
            f"of its end points (where a line meets the square's edge) must join them."
        )
    return None


# -- horses -------------------------------------------------------------------------------


def line_arms(start: int, heading: int, length: int) -> int:
    """The arms of a horse line (which must all be printed)."""
    out = 0
    p = start
    for _ in range(length):
        a = segment(p, heading)
        out |= 1 << a
        p = along(a, p)
    return out


def line_placements(drawn: int, footpaths: bool, reach: int) -> list[tuple[int, int, int]]:
    """Every (start, heading, length) a horse of ``reach`` half squares may draw now."""
    out = []
    allowed = ALL_ARMS ^ drawn
    if not footpaths:
        allowed &= ~FOOTPATHS
    for p in anchors(drawn):
        for heading in range(4):
            q = p
            for length in range(1, reach + 1):
                a = segment(q, heading)
                if a < 0 or not allowed >> a & 1:
                    break
                out.append((p, heading, length))
                q = along(a, q)
    return out


@lru_cache(maxsize=4096)
def line_fits(drawn: int, footpaths: bool, reach: int) -> bool:
    """Whether a horse may ride anywhere: :func:`line_placements` is not empty (its first
    half square is free somewhere), found for all squares at once like :func:`shape_fits`."""
    (n, e, s, w), free_at = _by_square(drawn, footpaths)
    one_vertical, one_across = n ^ s, e ^ w
    # end points and corners at a centre: one arm, or one on each axis
    ends = one_vertical & (~(e | w) | one_across) | one_across & ~(n | s)
    from_centre = ends & (free_at[0] | free_at[1] | free_at[2] | free_at[3])
    # an edge midpoint with one of its two arms drawn is an end point: the line goes on
    # along the other arm, into the next square
    east = (e & free_at[3] >> 4 | w >> 4 & free_at[1]) & _NOT_EAST_EDGE
    south = s & free_at[0] >> _ROW | n >> _ROW & free_at[2]
    return bool(from_centre | east | south)


def line_refusal(
    drawn: int, footpaths: bool, reach: int, start: int, heading: int, length: int
) -> str | None:
    """Why the horse line may not be drawn, naming the rule; ``None`` if it may."""
    if not is_lattice_point(start) or heading not in range(4):
        return "Get on your horse: a horse line starts at a square's centre or edge."
    where = format_point(start, heading)
    if not 1 <= length <= reach:
        return (
            f"Get on your horse: this horse draws a straight line of 1 to {reach} half "
            f"squares (up to {reach // 2} squares); {length} is not allowed."
        )
    if not is_centre(start) and VERTICAL[heading] != _edge_is_horizontal(start):
        return (
            f"Get on your horse: from the edge point {where} a straight line can only run "
            f"across the edge, not along it."
        )
    if not on_lines(drawn, start):
        return f"Connectivity: a horse line must start on your lines, and {where} is not."
    if not is_anchor(drawn, start):
        return (
            f"Get on your horse: the line must start at an end point or a corner of your "
            f"lines; at {where} your lines run straight through or branch."
        )
    p = start
    for _ in range(length):
        a = segment(p, heading)
        if a < 0:
            return (
                f"Get on your horse: the line must follow the streets; going "
                f"{WORDS[heading]} from {where} for {length} half squares leaves them."
            )
        if is_footpath(a) and not footpaths:
            return (
                f"Footpaths: the line from {where} would run on a footpath; you may draw on "
                f"footpaths only once you have reserved the footpaths bonus."
            )
        if drawn >> a & 1:
            return (
                f"Backtracking: the line from {where} would run over a line you have "
                f"already drawn; it may cross your lines but never follow them."
            )
        p = along(a, p)
    return None


def _edge_is_horizontal(p: int) -> bool:
    """An edge midpoint between two rows lies on a horizontal edge (lines cross it N-S)."""
    return (p // SPAN) % 2 == 0
