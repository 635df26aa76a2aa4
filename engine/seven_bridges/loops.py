"""The best closed loop of a player's drawing, found exactly and fast.

A loop scores its corners (right-angle turns) times the bridges it crosses, or its corners
alone if it crosses none (rulebook, scoring item 1; RULINGS §1.8). Lines only turn at
square centres, and two squares are joined when both facing arms are drawn, so every
loop is a cycle in a small graph whose nodes are squares. :func:`best_loop` then:

1. finds the joins with two bit operations (arm numbers put facing arms a fixed distance
   apart) and peels squares with fewer than two joins, all on bit sets, leaving the
   2-core: every loop lies in it;
2. contracts runs of two-join squares into *chains* between junction squares (3 or 4
   joins), each carrying its fixed corners, bridges and arms; a run that closes on itself
   is a loop on its own;
3. splits the chain graph into biconnected blocks (a simple cycle lies inside one) and
   joins the two chains at a junction that has only two inside its block;
4. searches each block's cycles from their lowest junction, branch and bound: every chain
   counts half at each end and a loop passes a junction using two chains, so what a
   partial loop can still gain is at most, at each junction not yet passed, the best two
   half-chains there plus a turn if they leave it on different axes (rounded down to an
   even number of corners, as every closed rectilinear loop has); the partial loop is
   dropped when that cannot beat the best so far, and so is a whole starting junction;
5. but a block with more than :data:`SEARCHED` junctions, which no real game has come
   near, is left to a search row by row over the squares (:func:`_row_by_row`), whose
   work is bounded by the map itself rather than exponential in junctions: the whole map
   drawn takes it under 50 ms, where the branch and bound would take minutes.

The networks players reach are small (a handful of independent loops), so most of the
time goes on fixed costs rather than on the search: hence tables and flat lists indexed
by square or junction number rather than objects, and the bounds that let the search skip
most starting junctions. Which of several equally good loops is returned depends only on
the order the search meets them, which the pruning does not change.

:func:`~engine.seven_bridges.loops_reference.best_loop_reference` is the plain method
kept as the check: it enumerates every simple cycle of the raw graph of arms and lattice
points and keeps the best. Both must agree (tests and ``python -m bot bench``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.seven_bridges.board import CITY, SIZE, SQUARES
from engine.seven_bridges.lines import (
    OPPOSITE,
    SQUARE_ARM,
    bits,
)

BRIDGE_SQUARES = frozenset(b.square for b in CITY.bridges)
BRIDGE_ARMS = tuple(sum(1 << a for a in SQUARE_ARM[b.square] if a >= 0) for b in CITY.bridges)
_IS_BRIDGE = [sq in BRIDGE_SQUARES for sq in range(SQUARES)]
_STEP = (-SIZE, 1, SIZE, -1)
# bit 4*sq+1 (E arm) for squares with an east neighbour, 4*sq+2 (S arm) with a south one
_EAST = sum(1 << (4 * sq + 1) for sq in range(SQUARES) if sq % SIZE < SIZE - 1)
_SOUTH = sum(1 << (4 * sq + 2) for sq in range(SQUARES) if sq // SIZE < SIZE - 1)
_ROW = 4 * SIZE  # bit distance between a square and the one below, in 4*sq positions


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
        e, w, s, n = east, east << 4, south, south << _ROW
        keep = e & w | s & n | (e | w) & (s | n)  # at least two of the four
        e2 = east & keep & keep >> 4
        s2 = south & keep & keep >> _ROW
        if e2 == east and s2 == south:
            return east, south, e & w & (s | n) | s & n & (e | w)
        east, south = e2, s2


def links(drawn: int) -> dict[int, list[int]]:
    """Square -> the directions in which it is joined to a neighbour."""
    return {sq: [d for d in range(4) if m >> d & 1] for sq, m in _masks(*joins(drawn)).items()}


def _masks(east: int, south: int) -> dict[int, int]:
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


def _square_masks(east: int, south: int) -> bytearray:
    """Every square's joins as 4 bits (N 1, E 2, S 4, W 8), indexed by square.

    Shifts put each square's joins at bit ``4 * square`` of one integer; its bytes then hold
    two squares each, split apart with two table lookups done in C.
    """
    packed = (east << 1 | east << 7 | south << 2 | south << _ROW).to_bytes(SQUARES // 2, "little")
    masks = bytearray(SQUARES)
    masks[0::2] = packed.translate(_LOW)
    masks[1::2] = packed.translate(_HIGH)
    return masks


# tables over a square's 4-bit join mask
_DEG = [bin(m).count("1") for m in range(16)]
_DIRS = [tuple(d for d in range(4) if m >> d & 1) for m in range(16)]
_TURN = [int(_DEG[m] == 2 and bool(m & 5) and bool(m & 10)) for m in range(16)]
# leaving a two-join square entered travelling towards d: the join that is not the way in
_OUT = [
    next((e for e in _DIRS[m] if e != OPPOSITE[d]), -1) if _DEG[m] == 2 else -1
    for m in range(16)
    for d in range(4)
]


def _link_arms_table() -> list[int]:
    """For 4 * square + d: the two arms joining the square to its neighbour towards d."""
    out = [0] * (4 * SQUARES)
    for sq in range(SQUARES):
        for d in range(4):
            other = sq + _STEP[d]
            if 0 <= other < SQUARES and SQUARE_ARM[sq][d] >= 0:
                back = SQUARE_ARM[other][OPPOSITE[d]]
                if back >= 0:
                    out[4 * sq + d] = 1 << SQUARE_ARM[sq][d] | 1 << back
    return out


_LINK_ARMS = _link_arms_table()

# A chain: (start, end, start side, end side, corners, bridges, arms). Its two junctions by
# number (their place in ascending square order), the side of each junction square it
# leaves from (N 0, E 1, S 2, W 3), the turns and bridges strictly inside it, and its arms.
# A loop turns at a junction exactly when the two chains it uses there leave from sides on
# different axes, i.e. of different parity; reversed, a chain swaps its ends and sides.
Chain = tuple[int, int, int, int, int, int, int]


def _contract(masks: bytearray, hubs: list[int]) -> tuple[list[Chain], list[Loop], int]:
    """The chains between junctions, the chains that come back to their own junction (each
    a loop needing no choice), and how many squares the chains pass through."""
    number = {sq: k for k, sq in enumerate(hubs)}
    chains: list[Chain] = []
    loops: list[Loop] = []
    inside = 0
    done: set[int] = set()  # 4 * junction + side of the far ends already reached
    for k, j in enumerate(hubs):
        for leave in _DIRS[masks[j]]:
            if 4 * j + leave in done:
                continue
            sq, d = j, leave
            corners = bridges = arms = 0
            while True:
                arms |= _LINK_ARMS[4 * sq + d]
                sq += _STEP[d]
                m = masks[sq]
                if _DEG[m] > 2:
                    break
                inside += 1
                corners += _TURN[m]
                bridges += _IS_BRIDGE[sq]
                d = _OUT[4 * m + d]
            back = OPPOSITE[d]
            done.add(4 * sq + back)
            if sq == j:
                corners += (leave ^ back) & 1
                loops.append(Loop(value(corners, bridges), corners, bridges, arms))
            else:
                chains.append((k, number[sq], leave, back, corners, bridges, arms))
    return chains, loops, inside


def _rings(masks: dict[int, int], junctions: list[int]) -> list[Loop]:
    """The parts of the 2-core with no junction: each a single loop."""
    seen = set(junctions)
    for j in junctions:
        for leave in _DIRS[masks[j]]:
            sq, d = j + _STEP[leave], leave
            while _DEG[masks[sq]] == 2:
                seen.add(sq)
                d = _OUT[4 * masks[sq] + d]
                sq += _STEP[d]
    out = []
    for first, m in masks.items():
        if first in seen:
            continue
        corners = bridges = 0
        sq, d = first, _DIRS[m][0]
        while True:
            seen.add(sq)
            corners += _TURN[masks[sq]]
            bridges += _IS_BRIDGE[sq]
            sq += _STEP[d]
            if sq == first:
                break
            d = _OUT[4 * masks[sq] + d]
        arms = _walk_arms(masks, first, _DIRS[m][0], first)
        out.append(Loop(value(corners, bridges), corners, bridges, arms))
    return out


def _walk_arms(masks: dict[int, int], sq: int, d: int, stop: int) -> int:
    """The arms of the run leaving ``sq`` towards ``d`` until it reaches ``stop``."""
    arms = 0
    while True:
        arms |= _LINK_ARMS[4 * sq + d]
        sq += _STEP[d]
        if sq == stop:
            return arms
        d = _OUT[4 * masks[sq] + d]


def _blocks(n: int, chains: list[Chain]) -> list[list[Chain]]:
    """The chains grouped by biconnected block of the chain graph (Tarjan).

    A simple cycle lies inside one block, so each block is searched on its own, and
    a block of a single chain holds no loop at all. The recursion is at most as deep as
    there are junctions.
    """
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, c in enumerate(chains):
        adj[c[0]].append((i, c[1]))
        adj[c[1]].append((i, c[0]))
    order = [-1] * n
    low = [0] * n
    stack: list[int] = []
    out: list[list[Chain]] = []

    def visit(u: int, via: int, count: int) -> int:
        order[u] = low[u] = count
        count += 1
        for i, v in adj[u]:
            if i == via:
                continue
            if order[v] < 0:
                stack.append(i)
                count = visit(v, i, count)
                if low[v] < low[u]:
                    low[u] = low[v]
                if low[v] >= order[u]:  # nothing below v reaches above u: a block ends
                    block = []
                    while True:
                        e = stack.pop()
                        block.append(chains[e])
                        if e == i:
                            break
                    if len(block) > 1:
                        out.append(block)
            elif order[v] < order[u]:
                stack.append(i)
                if order[v] < low[u]:
                    low[u] = order[v]
        return count

    count = 0
    for c in chains:
        for root in c[0], c[1]:
            if order[root] < 0:
                count = visit(root, -1, count)
    return out


def _merge_through(block: list[Chain], n: int) -> list[Chain]:
    """Join the two chains at a junction that has only two inside this block: a loop in
    the block passing there has no choice to make (its other chains lead out of the block)."""
    count = [0] * n
    for c in block:
        count[c[0]] += 1
        count[c[1]] += 1
    if 2 not in count:  # the usual case, checked cheaply
        return block
    while len(block) > 2:
        ends: dict[int, list[int]] = {}
        for i, c in enumerate(block):
            ends.setdefault(c[0], []).append(i)
            ends.setdefault(c[1], []).append(i)
        through = next((j for j, ids in ends.items() if len(ids) == 2), None)
        if through is None:
            break
        i, k = ends[through]
        a = block[i] if block[i][1] == through else _reversed(block[i])
        b = block[k] if block[k][0] == through else _reversed(block[k])
        turn = (a[3] ^ b[2]) & 1
        joined = (a[0], b[1], a[2], b[3], a[4] + b[4] + turn, a[5] + b[5], a[6] | b[6])
        block = [c for x, c in enumerate(block) if x not in (i, k)] + [joined]
    return block


def _reversed(c: Chain) -> Chain:
    return (c[1], c[0], c[3], c[2], c[4], c[5], c[6])


# stands in for the corners of a side with no chain: any sum using it falls below the sum
# for two real chain ends, so it never raises a bound
_NONE = -99


def _search(block: list[Chain], n: int, top: int) -> tuple[int, int, int, int]:
    """Branch and bound over the cycles of one block, each found from its lowest junction
    and first along the lower-numbered of its two chains there.

    Returns the best score above ``top`` with its corners, bridges and arms, or ``top``
    and zeros if no cycle beats it. What a partial loop can still gain is bounded doubled,
    so that half of each chain can be credited at each of its two ends: passing a junction
    adds at most the turn and half of each of the two chains used there.
    """
    # per junction, richest chains first so that good loops are found early:
    # (chain, other end, axis of the side left from, axis of the side entered, corners, bridges)
    inc: list[list[tuple[int, int, int, int, int, int]]] = [[] for _ in range(n)]
    side = [_NONE] * (4 * n)  # corners of the chain leaving junction j from side d, at 4j+d
    pot_b = [0] * n  # bridges of all the chains at a junction, and of the richest one
    end_b = [0] * n
    rich = [-(c[4] + 8 * c[5]) for c in block]
    for i in sorted(range(len(block)), key=rich.__getitem__):
        a, b, da, db, corners, bridges, _ = block[i]
        inc[a].append((i, b, da & 1, db & 1, corners, bridges))
        inc[b].append((i, a, db & 1, da & 1, corners, bridges))
        side[4 * a + da] = side[4 * b + db] = corners
        if bridges:
            pot_b[a] += bridges
            pot_b[b] += bridges
            end_b[a] = max(end_b[a], bridges)
            end_b[b] = max(end_b[b], bridges)
    junctions = [j for j in range(n) if inc[j]]
    # doubled corners passing a junction can add (pot), and leaving it having come in
    # from a side on axis x (end, at 2j+x): a turn needs two sides on different axes
    pot_c = [0] * n
    end_c = [0] * (2 * n)
    for j in junctions:
        cn, ce, cs, cw = side[4 * j : 4 * j + 4]
        v = cn if cn > cs else cs
        h = ce if ce > cw else cw
        pot_c[j] = max(2 + v + h, cn + cs, ce + cw)
        end_c[2 * j] = 2 + h if 2 + h > v else v
        end_c[2 * j + 1] = 2 + v if 2 + v > h else h
    rest_c = sum(pot_c)
    rest_b = sum(pot_b)
    found = (top, 0, 0, 0)

    def walk(u, across, corners, bridges, seen, more_c, more_b, used):
        """Extend a path from s that entered ``u`` from a side on axis ``across``; bound
        each step by what the unvisited junctions and the way back to s can add."""
        nonlocal top, found
        for i, other, leave, arrive, cc, cb in inc[u]:
            if seen >> other & 1:
                if other == s and i > first:
                    total = corners + (across ^ leave) + cc + (arrive ^ first_across)
                    b = bridges + cb
                    if total * (b or 1) > top:
                        top = total * (b or 1)
                        found = (top, total, b, used | 1 << i)
                continue
            total = corners + (across ^ leave) + cc
            b = bridges + cb
            rc = more_c - pot_c[other]
            rb = more_b - pot_b[other]
            most = total + (end_c[2 * other + arrive] + start_c + rc) // 2
            # (most & ~1: a closed rectilinear loop has an even number of corners)
            if (most & ~1) * (b + (end_b[other] + start_b + rb) // 2 or 1) > top:
                walk(other, arrive, total, b, seen | 1 << other, rc, rb, used | 1 << i)

    for s in junctions:
        rest_c -= pot_c[s]
        rest_b -= pot_b[s]
        if ((pot_c[s] + rest_c) // 2 & ~1) * ((pot_b[s] + rest_b) // 2 or 1) <= top:
            continue  # even passing every junction from s on cannot beat the best
        below = (2 << s) - 1  # s and the junctions before it: cycles through those are done
        for first, other, first_across, arrive, cc, cb in inc[s]:
            if other < s:
                continue
            # the cycle comes back to s along a later chain from a later junction
            start_c = start_b = -1
            for i, o, leave, _, c, b in inc[s]:
                if i > first and o > s:
                    start_c = max(start_c, 2 * (leave ^ first_across) + c)
                    start_b = max(start_b, b)
            if start_c < 0:
                continue
            rc = rest_c - pot_c[other]
            rb = rest_b - pot_b[other]
            most = cc + (end_c[2 * other + arrive] + start_c + rc) // 2
            if (most & ~1) * (cb + (end_b[other] + start_b + rb) // 2 or 1) > top:
                walk(other, arrive, cc, cb, below | 1 << other, rc, rb, 1 << first)
    if not found[3]:
        return found
    arms = 0
    for i in bits(found[3]):
        arms |= block[i][6]
    return (*found[:3], arms)


@lru_cache(maxsize=1024)
def best_loop(drawn: int) -> Loop:
    """The highest-scoring closed loop in ``drawn`` (``NO_LOOP`` if there is none)."""
    east, south, hubs = core(*joins(drawn))
    if not east | south:
        return NO_LOOP
    junctions = [b >> 2 for b in bits(hubs)]
    masks = _square_masks(east, south)
    chains, loops, inside = _contract(masks, junctions)
    # Every join has two ends; those not at junctions belong to two-join squares. If the
    # chains passed fewer such squares than that count, the rest lie on junction-free rings.
    ends = sum(_DEG[masks[j]] for j in junctions)
    if 2 * inside + ends < 2 * (east.bit_count() + south.bit_count()):
        loops += _rings(_masks(east, south), junctions)
    best = max(loops, key=lambda loop: loop.score, default=NO_LOOP)
    n = len(junctions)
    blocks = [_merge_through(block, n) for block in _blocks(n, chains)]
    if any(len({end for chain in block for end in chain[:2]}) > SEARCHED for block in blocks):
        found = _row_by_row(east, south)
        return Loop(*found) if found[3] else NO_LOOP
    found = (best.score, 0, 0, 0)
    for block in blocks:
        result = _search(block, n, found[0])
        if result[3]:
            found = result
    return Loop(*found) if found[3] else best


# A block with more junctions than this is left to the row-by-row search: the branch and
# bound is exponential in junctions (real games peak at 11; every street of rows 1-6 drawn
# makes 30 and takes half a second), the row-by-row search is not.
SEARCHED = 12


def _row_by_row(east: int, south: int) -> tuple[int, int, int, int]:
    """The best loop's score, corners, bridges and arms, by a frontier search: squares are
    taken in reading order, and for every way a loop under construction can cross the line
    between squares done and squares to do (its *plugs*), only the most corners for each
    count of bridges is kept.

    Plugs are 2 bits per position 0..SIZE: before square (r, c), position c holds the line
    coming in from the left and c + 1 the line coming down from above; after it, c holds
    the line going down and c + 1 the line going right. A plug is 1 where a path of the
    loop opens and 2 where it closes, as brackets, which is enough to join paths
    correctly: lines in the plane do not cross. The work at each square is bounded by the
    plugs the map allows, so every drawing costs at most what the whole map costs (under
    50 ms), whatever its junctions.
    """
    joined = east | south  # a square joined east or south: the loop's last row is below
    first, last = (joined & -joined).bit_length() // _ROW, joined.bit_length() // _ROW
    states: dict[tuple[int, int], tuple[int, int]] = {(0, 0): (0, 0)}
    best = (0, 0, 0, 0)
    for r in range(first, min(last + 2, SIZE)):
        for c in range(SIZE):
            states, closed = _square(states, r * SIZE + c, 2 * c, east, south)
            if closed[0] > best[0]:
                best = closed
        # the row ends with no line going right; the next starts with none from the left
        states = {(plugs << 2, b): v for (plugs, b), v in states.items() if not plugs >> 2 * SIZE}
    return best


def _square(
    states: dict[tuple[int, int], tuple[int, int]], sq: int, at: int, east: int, south: int
) -> tuple[dict[tuple[int, int], tuple[int, int]], tuple[int, int, int, int]]:
    """The plugs after square ``sq`` (at bit ``at``), and the best loop it closes."""
    e = east >> 4 * sq & 1
    s = south >> 4 * sq & 1
    bridge = _IS_BRIDGE[sq]
    arms_e = _LINK_ARMS[4 * sq + 1] if e else 0
    arms_s = _LINK_ARMS[4 * sq + 2] if s else 0
    out: dict[tuple[int, int], tuple[int, int]] = {}
    closed = (0, 0, 0, 0)

    def keep(key: tuple[int, int], corners: int, arms: int) -> None:
        old = out.get(key)
        if old is None or old[0] < corners:
            out[key] = (corners, arms)

    for (plugs, b), (corners, arms) in states.items():
        left = plugs >> at & 3
        up = plugs >> at + 2 & 3
        rest = plugs & ~(15 << at)
        if not left and not up:
            keep((plugs, b), corners, arms)  # the square stays out of the loop
            if e and s:  # a path starts here, turning
                keep(
                    (rest | 1 << at | 2 << at + 2, b + bridge), corners + 1, arms | arms_e | arms_s
                )
        elif not left or not up:  # a path goes through: it turns if it changes axis
            plug = left or up
            if s:
                keep((rest | plug << at, b + bridge), corners + (not up), arms | arms_s)
            if e:
                keep((rest | plug << at + 2, b + bridge), corners + (not left), arms | arms_e)
        elif left == 1 and up == 2:  # the two ends of one path meet, turning: a loop
            k, bridges = corners + 1, b + bridge
            if not rest and value(k, bridges) > closed[0]:
                closed = (value(k, bridges), k, bridges, arms)
        else:  # two paths join, turning; if both open or both close, a far end turns over
            joined = _rebracket(rest, left, at) if left == up else rest
            keep((joined, b + bridge), corners + 1, arms)
    return out, closed


def _rebracket(plugs: int, side: int, at: int) -> int:
    """Two openings (``side`` 1) or two closings (2) joined at ``at``: the partner of the
    one above, further right, now opens; or of the one on the left, further left, closes."""
    positions = range(at + 4, 2 * SIZE + 2, 2) if side == 1 else range(at - 2, -1, -2)
    depth = 0
    for j in positions:
        p = plugs >> j & 3
        if p == side:
            depth += 1
        elif p:
            if not depth:
                return plugs ^ 3 << j
            depth -= 1
    raise AssertionError("a plug without its partner")
