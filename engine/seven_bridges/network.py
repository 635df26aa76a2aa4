"""A drawing as a network of squares: the graph every loop lives in.

Lines only turn at square centres, and two squares are *joined* when both facing arms are
drawn, so every closed loop is a cycle of joined squares. Here are the joins, found with
bit operations on the drawing (arm numbers put facing arms a fixed distance apart), the
2-core every loop lies in, each square's joins as 4 bits and the tables over them, and
the score of a loop: its corners times the bridges on it, or its corners alone.
:mod:`engine.seven_bridges.loops` searches this network for the best loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seven_bridges.board import CITY, SIZE, SQUARES
from engine.seven_bridges.lines import OPPOSITE, SQUARE_ARM, bits

BRIDGE_SQUARES = frozenset(b.square for b in CITY.bridges)
BRIDGE_ARMS = tuple(sum(1 << a for a in SQUARE_ARM[b.square] if a >= 0) for b in CITY.bridges)
IS_BRIDGE = [sq in BRIDGE_SQUARES for sq in range(SQUARES)]
STEP = (-SIZE, 1, SIZE, -1)
# bit 4*sq+1 (E arm) for squares with an east neighbour, 4*sq+2 (S arm) with a south one
_EAST = sum(1 << (4 * sq + 1) for sq in range(SQUARES) if sq % SIZE < SIZE - 1)
_SOUTH = sum(1 << (4 * sq + 2) for sq in range(SQUARES) if sq // SIZE < SIZE - 1)
ROW = 4 * SIZE  # bit distance between a square and the one below, in 4*sq positions


@dataclass(frozen=True)
class Loop:
    score: int
    corners: int
    bridges: int
    arms: int  # bit set of the loop's arms (0 if there is no loop)


NO_LOOP = Loop(0, 0, 0, 0)


def value(corners: int, bridges: int) -> int:
    return corners * max(1, bridges)


def joins(drawn: int) -> tuple[int, int]:
    """Squares joined to the next square east, and to the next square south, as bit sets
    with square ``sq`` at bit ``4 * sq``: the E arm and the facing W arm are 6 bits apart,
    the S arm and the facing N arm 46."""
    east = (drawn & drawn >> 6 & _EAST) >> 1
    south = (drawn & drawn >> 46 & _SOUTH) >> 2
    return east, south


def core(east: int, south: int) -> tuple[int, int, int]:
    """Peel squares with fewer than two joins until none is left (the 2-core).

    Returns the remaining east and south joins and the junction squares (3+ joins).
    """
    while True:
        e, w, s, n = east, east << 4, south, south << ROW
        keep = e & w | s & n | (e | w) & (s | n)  # at least two of the four
        e2 = east & keep & keep >> 4
        s2 = south & keep & keep >> ROW
        if e2 == east and s2 == south:
            return east, south, e & w & (s | n) | s & n & (e | w)
        east, south = e2, s2


def links(drawn: int) -> dict[int, list[int]]:
    """Square -> the directions in which it is joined to a neighbour."""
    return {sq: [d for d in range(4) if m >> d & 1] for sq, m in join_masks(*joins(drawn)).items()}


def join_masks(east: int, south: int) -> dict[int, int]:
    """Square -> its joins as 4 bits (N 1, E 2, S 4, W 8)."""
    masks: dict[int, int] = {}
    get = masks.get
    for b in bits(east):
        sq = b >> 2
        masks[sq] = get(sq, 0) | 2
        masks[sq + 1] = get(sq + 1, 0) | 8
    for b in bits(south):
        sq = b >> 2
        masks[sq] = get(sq, 0) | 4
        masks[sq + SIZE] = get(sq + SIZE, 0) | 1
    return masks


_LOW = bytes(b & 15 for b in range(256))
_HIGH = bytes(b >> 4 for b in range(256))


def square_masks(east: int, south: int) -> bytearray:
    """Every square's joins as 4 bits (N 1, E 2, S 4, W 8), indexed by square.

    Shifts put each square's joins at bit ``4 * square`` of one integer; its bytes then hold
    two squares each, split apart with two table lookups done in C.
    """
    packed = (east << 1 | east << 7 | south << 2 | south << ROW).to_bytes(SQUARES // 2, "little")
    masks = bytearray(SQUARES)
    masks[0::2] = packed.translate(_LOW)
    masks[1::2] = packed.translate(_HIGH)
    return masks


# tables over a square's 4-bit join mask
DEG = [bin(m).count("1") for m in range(16)]
DIRS = [tuple(d for d in range(4) if m >> d & 1) for m in range(16)]
TURN = [int(DEG[m] == 2 and bool(m & 5) and bool(m & 10)) for m in range(16)]
# leaving a two-join square entered travelling towards d: the join that is not the way in
OUT = [
    next((e for e in DIRS[m] if e != OPPOSITE[d]), -1) if DEG[m] == 2 else -1
    for m in range(16)
    for d in range(4)
]


def _link_arms() -> list[int]:
    """For 4 * square + d: the two arms joining the square to its neighbour towards d."""
    out = [0] * (4 * SQUARES)
    for sq in range(SQUARES):
        for d in range(4):
            other = sq + STEP[d]
            if 0 <= other < SQUARES and SQUARE_ARM[sq][d] >= 0:
                back = SQUARE_ARM[other][OPPOSITE[d]]
                if back >= 0:
                    out[4 * sq + d] = 1 << SQUARE_ARM[sq][d] | 1 << back
    return out


LINK_ARMS = _link_arms()
