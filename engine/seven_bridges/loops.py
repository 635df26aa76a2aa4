"""The best closed loop of a player's drawing, found exactly and fast.

A loop scores its corners (right-angle turns) times the bridges it crosses, or its corners
alone if it crosses none (rulebook, scoring item 1; RULINGS §1.8). Lines only turn at
square centres, and two squares are joined when both facing arms are drawn, so every
loop is a cycle in a small graph whose nodes are squares. :func:`best_loop` then:

1. finds the joins with two bit operations (arm numbers put facing arms a fixed distance
   apart) and peels squares with fewer than two joins, all on bit sets, leaving the
   2-core: every loop lies in it;
2. contracts runs of two-join squares into *chains* between junction squares (3 or 4
   joins), each carrying its fixed corners and bridges; a run that closes on itself is a
   loop on its own;
3. splits the chain graph into biconnected blocks (a simple cycle lies inside one) and
   joins the two chains at a junction that has only two inside its block;
4. searches each block's cycles from their lowest junction, branch and bound: every chain
   counts half at each end and a loop passes a junction using two chains, so what a
   partial loop can still gain is at most one turn plus the two best half-chains at each
   junction not yet passed (rounded down to an even number of corners, as every closed
   rectilinear loop has); the partial loop is dropped when that cannot beat the best so far.

:func:`best_loop_reference` is the plain method kept as the check: it enumerates every
simple cycle of the raw graph of arms and lattice points and keeps the best. Both must
agree (tests and ``python -m bot bench``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine.seven_bridges.lines import (
    ARM_CENTRE,
    ARM_DIR,
    ARM_MID,
    OPPOSITE,
    SQUARE_ARM,
    VERTICAL,
    bits,
    is_centre,
)
from engine.seven_bridges.map import CITY, SIZE, SQUARES

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

# A chain: (start, leave, end, arrive, corners, bridges, runs): the junction it starts from
# and the direction of its first step, the junction it ends at and the direction of travel
# on its last step, the turns and bridges strictly inside it, and the runs of squares it is
# made of as (start, leave, end), to find its arms again.
Chain = tuple[int, int, int, int, int, int, tuple[tuple[int, int, int], ...]]


def _walk_arms(masks: dict[int, int], sq: int, d: int, stop: int) -> int:
    """The arms of the run leaving ``sq`` towards ``d`` until it reaches ``stop``."""
    arms = 0
    while True:
        arms |= _LINK_ARMS[4 * sq + d]
        sq += _STEP[d]
        if sq == stop:
            return arms
        d = _OUT[4 * masks[sq] + d]


def _contract(masks: dict[int, int], junctions: list[int]) -> tuple[list[Chain], list[Loop]]:
    """The chains between junctions, and the loops that need no junction choice: rings
    without any junction and chains that come back to their own junction."""
    chains: list[Chain] = []
    loops: list[Loop] = []
    inside = 0
    done: set[int] = set()  # 4 * junction + direction of the chain ends already walked
    for j in junctions:
        for leave in _DIRS[masks[j]]:
            if 4 * j + leave in done:
                continue
            sq, d = j, leave
            corners = bridges = 0
            while True:
                sq += _STEP[d]
                m = masks[sq]
                if _DEG[m] > 2:
                    break
                inside += 1
                corners += _TURN[m]
                bridges += _IS_BRIDGE[sq]
                d = _OUT[4 * m + d]
            done.add(4 * j + leave)
            done.add(4 * sq + OPPOSITE[d])
            if sq == j:
                total = corners + (VERTICAL[d] != VERTICAL[leave])
                arms = _walk_arms(masks, j, leave, j)
                loops.append(Loop(value(total, bridges), total, bridges, arms))
            else:
                chains.append((j, leave, sq, d, corners, bridges, ((j, leave, sq),)))
    if inside + len(junctions) < len(masks):
        loops += _rings(masks, junctions)
    return chains, loops


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


def _richness(e: tuple[int, int, bool, bool, int, int]) -> int:
    return -(e[4] + 8 * e[5])


def _search(chains: list[Chain], best: Loop) -> tuple[Loop, list[int]]:
    """Branch and bound over the cycles of one block, each found from its lowest junction.

    Returns the best loop (``best`` itself if none beats it) and its chains' numbers.
    Sums of corners and bridges still to come are kept doubled so they stay integers.
    """
    at: dict[int, int] = {}
    for c in chains:
        at.setdefault(c[0], 0)
        at.setdefault(c[2], 0)
    for k, j in enumerate(sorted(at)):
        at[j] = k
    n = len(at)
    # per junction: (chain, other end, leaves vertically, arrives vertically, corners, bridges)
    inc: list[list[tuple[int, int, bool, bool, int, int]]] = [[] for _ in range(n)]
    for i, (start, leave, end, arrive, corners, bridges, _) in enumerate(chains):
        a, b = at[start], at[end]
        lv, av = VERTICAL[leave], VERTICAL[arrive]
        inc[a].append((i, b, lv, av, corners, bridges))
        inc[b].append((i, a, av, lv, corners, bridges))
    pot_c, pot_b, end_c, end_b = [], [], [], []
    for edges in inc:
        if len(edges) > 2:
            edges.sort(key=_richness)  # rich chains first, so good loops are found early
        c1 = c2 = b1 = b2 = 0
        for e in edges:
            if e[4] > c1:
                c1, c2 = e[4], c1
            elif e[4] > c2:
                c2 = e[4]
            if e[5] > b1:
                b1, b2 = e[5], b1
            elif e[5] > b2:
                b2 = e[5]
        pot_c.append(2 + c1 + c2)
        pot_b.append(b1 + b2)
        end_c.append(2 + c1)
        end_b.append(b1)
    top = best.score
    path: list[int] = []
    best_path: list[int] = []
    best_cb = (0, 0)

    def walk(u, vert, corners, bridges, visited, rest_c, rest_b):
        nonlocal top, best_path, best_cb
        for i, other, lv, av, cc, cb in inc[u]:
            if other < s or visited >> other & 1 and other != s:
                continue
            total = corners + (vert != lv) + cc
            b = bridges + cb
            if other == s:
                if i > path[0]:  # each cycle once: its first chain has the lower number
                    total += av != first_vert
                    if total * (b or 1) > top:
                        top = total * (b or 1)
                        best_path = [*path, i]
                        best_cb = (total, b)
                continue
            rc = rest_c - pot_c[other]
            rb = rest_b - pot_b[other]
            most = total + (end_c[other] + start_c + rc) // 2
            if (most & ~1) * (b + (end_b[other] + start_b + rb) // 2 or 1) <= top:
                continue  # (a closed rectilinear loop has an even number of corners)
            path.append(i)
            walk(other, av, total, b, visited | 1 << other, rc, rb)
            path.pop()

    for s in range(n):
        start_c, start_b = end_c[s], end_b[s]
        rest_c = sum(pot_c[s + 1 :])
        rest_b = sum(pot_b[s + 1 :])
        if value((2 * start_c + rest_c) // 2, (2 * start_b + rest_b) // 2) <= top:
            continue
        for i, other, lv, av, cc, cb in inc[s]:
            if other > s:
                first_vert = lv
                path.append(i)
                walk(
                    other,
                    av,
                    cc,
                    cb,
                    1 << s | 1 << other,
                    rest_c - pot_c[other],
                    rest_b - pot_b[other],
                )
                path.pop()
    if not best_path:
        return best, []
    return Loop(top, *best_cb, 0), best_path


def _blocks(chains: list[Chain]) -> list[list[Chain]]:
    """The chains grouped by biconnected block of the chain graph (Tarjan, iterative).

    A simple cycle lies inside one block, so each block is searched on its own, and
    a block of a single chain holds no loop at all.
    """
    inc: dict[int, list[tuple[int, int]]] = {}
    for i, c in enumerate(chains):
        inc.setdefault(c[0], []).append((i, c[2]))
        inc.setdefault(c[2], []).append((i, c[0]))
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    out: list[list[Chain]] = []
    for root in inc:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack: list[int] = []
        work = [(root, -1, iter(inc[root]))]
        while work:
            u, via, edges = work[-1]
            for i, v in edges:
                if i == via:
                    continue
                if v not in index:
                    index[v] = low[v] = len(index)
                    stack.append(i)
                    work.append((v, i, iter(inc[v])))
                    break
                if index[v] < index[u]:
                    stack.append(i)
                    low[u] = min(low[u], index[v])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[u])
                    if low[u] >= index[parent]:
                        block = []
                        while True:
                            i = stack.pop()
                            block.append(chains[i])
                            if i == via:
                                break
                        if len(block) > 1:
                            out.append(block)
    return out


def _merge_through(block: list[Chain]) -> list[Chain]:
    """Join the two chains at a junction that has only two inside this block: a loop in
    the block passing there has no choice to make (its other chains lead out of the block).
    A merged chain remembers its parts, so the loop's arms can be found again."""
    while len(block) > 2:
        ends: dict[int, list[int]] = {}
        for i, c in enumerate(block):
            ends.setdefault(c[0], []).append(i)
            ends.setdefault(c[2], []).append(i)
        through = next((j for j, ids in ends.items() if len(ids) == 2), None)
        if through is None:
            break
        i, k = ends[through]
        a = block[i] if block[i][2] == through else _reversed(block[i])
        b = block[k] if block[k][0] == through else _reversed(block[k])
        turn = VERTICAL[a[3]] != VERTICAL[b[1]]
        joined = (a[0], a[1], b[2], b[3], a[4] + b[4] + turn, a[5] + b[5], a[6] + b[6])
        block = [c for n, c in enumerate(block) if n not in (i, k)] + [joined]
    return block


def _reversed(c: Chain) -> Chain:
    return (c[2], OPPOSITE[c[3]], c[0], OPPOSITE[c[1]], c[4], c[5], c[6])


@lru_cache(maxsize=1024)
def best_loop(drawn: int) -> Loop:
    """The highest-scoring closed loop in ``drawn`` (``NO_LOOP`` if there is none)."""
    east, south, hubs = core(*joins(drawn))
    if not east | south:
        return NO_LOOP
    masks = _masks(east, south)
    chains, loops = _contract(masks, [b >> 2 for b in bits(hubs)])
    best = max(loops, key=lambda loop: loop.score, default=NO_LOOP)
    found: list[Chain] = []
    for block in _blocks(chains):
        block = _merge_through(block)
        better, path = _search(block, best)
        if path:
            best, found = better, [block[i] for i in path]
    if not found:
        return best
    arms = 0
    for chain in found:
        for start, leave, end in chain[6]:
            arms |= _walk_arms(masks, start, leave, end)
    return replace(best, arms=arms)


def best_loop_reference(drawn: int) -> Loop:
    """The plain method: every simple cycle of the graph of arms, the best one kept.

    Nodes are lattice points, edges are drawn arms; a cycle is found from its lowest
    point and kept in one direction. No pruning, no contraction: slow but obviously right.
    """
    adj: dict[int, list[tuple[int, int]]] = {}
    for a in bits(drawn):
        adj.setdefault(ARM_CENTRE[a], []).append((a, ARM_MID[a]))
        adj.setdefault(ARM_MID[a], []).append((a, ARM_CENTRE[a]))
    best = NO_LOOP
    for s in sorted(adj):
        best = _cycles_from(adj, s, s, {s}, [], best)
    return best


def _cycles_from(
    adj: dict[int, list[tuple[int, int]]],
    s: int,
    u: int,
    visited: set[int],
    path: list[int],
    best: Loop,
) -> Loop:
    """Extend the simple path ``path`` (arms from ``s`` to ``u``) in every way."""
    for a, v in adj[u]:
        if v == s and len(path) >= 3:
            if path[0] < a:  # the same cycle walked the other way ends with path[0]
                loop = _score_arms([*path, a])
                if loop.score > best.score:
                    best = loop
        elif v > s and v not in visited:
            visited.add(v)
            path.append(a)
            best = _cycles_from(adj, s, v, visited, path, best)
            path.pop()
            visited.discard(v)
    return best


def _score_arms(cycle: list[int]) -> Loop:
    """Corners and bridges of a cycle given as its arms."""
    at: dict[int, list[int]] = {}
    arms = 0
    for a in cycle:
        at.setdefault(ARM_CENTRE[a], []).append(ARM_DIR[a])
        arms |= 1 << a
    corners = sum(1 for p, ds in at.items() if is_centre(p) and VERTICAL[ds[0]] != VERTICAL[ds[1]])
    bridges = sum(1 for m in BRIDGE_ARMS if arms & m == m)
    return Loop(value(corners, bridges), corners, bridges, arms)
