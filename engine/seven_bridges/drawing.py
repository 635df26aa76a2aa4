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

from engine.seven_bridges.board import SQUARES, format_square
from engine.seven_bridges.dice import ARM_COUNT, ROTATIONS, face_name, rotation_name
from engine.seven_bridges.lines import (
    ALL_ARMS,
    ARM_POINTS,
    FOOTPATHS,
    SPAN,
    VERTICAL,
    anchors,
    arm,
    centre,
    format_point,
    is_centre,
    is_footpath,
    is_lattice_point,
    midpoint,
    points_of,
    segment,
    step,
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


def _candidates() -> dict[int, tuple[Candidate, ...]]:
    table: dict[int, tuple[Candidate, ...]] = {}
    for value, rotations in ROTATIONS.items():
        found = []
        for square in range(SQUARES):
            for dirs in rotations:
                numbers = [arm(square, d) for d in dirs]
                if min(numbers) < 0:
                    continue
                ends = 0
                for d in dirs:
                    ends |= 1 << midpoint(square, d)
                if value == 5:  # the half face also ends at the square's centre
                    ends |= 1 << centre(square)
                arms = 0
                for a in numbers:
                    arms |= 1 << a
                found.append(Candidate(square, dirs, arms, ends, bool(arms & FOOTPATHS)))
        table[value] = tuple(found)
    return table


CANDIDATES = _candidates()


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


def shape_fits(drawn: int, footpaths: bool, value: int) -> bool:
    net = points_of(drawn)
    return any(
        not c.arms & drawn and c.ends & net and (footpaths or not c.footpath)
        for c in CANDIDATES[value]
    )


def shape_refusal(
    drawn: int, footpaths: bool, value: int, square: int, dirs: tuple[int, ...]
) -> str | None:
    """Why the shape may not go there, naming the rule; ``None`` if it may."""
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
    net = points_of(drawn)
    ends = sum(1 << midpoint(square, d) for d in dirs)
    if value == 5:
        ends |= 1 << centre(square)
    touched = 0
    for d in dirs:
        touched |= ARM_POINTS[arm(square, d)]
    if not touched & net:
        return f"Connectivity: a {name} in {where} would not touch your lines."
    if not ends & net:
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
        out |= 1 << segment(p, heading)
        p = step(p, heading)
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
                q = step(q, heading)
    return out


def line_fits(drawn: int, footpaths: bool, reach: int) -> bool:
    allowed = ALL_ARMS ^ drawn
    if not footpaths:
        allowed &= ~FOOTPATHS
    for p in anchors(drawn):
        for heading in range(4):
            a = segment(p, heading)
            if a >= 0 and allowed >> a & 1:
                return True
    return False


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
    if not points_of(drawn) >> start & 1:
        return f"Connectivity: a horse line must start on your lines, and {where} is not."
    if start not in anchors(drawn):
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
        p = step(p, heading)
    return None


def _edge_is_horizontal(p: int) -> bool:
    """An edge midpoint between two rows lies on a horizontal edge (lines cross it N-S)."""
    return (p // SPAN) % 2 == 0
