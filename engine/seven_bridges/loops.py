"""The best closed loop of a player's drawing, found exactly and fast.

A loop scores its corners (right-angle turns) times the bridges it crosses, or its corners
alone if it crosses none (rulebook, scoring item 1; RULINGS §1.8). Lines only turn at
square centres, and two squares are joined when both facing arms are drawn, so every
loop is a cycle in a small graph whose nodes are squares (:mod:`.network`).
:func:`best_loop` then:

1. finds the joins with two bit operations (arm numbers put facing arms a fixed distance
   apart) and peels squares with fewer than two joins, all on bit sets, leaving the
   2-core: every loop lies in it (:func:`.network.joins`, :func:`.network.core`);
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
   near, is left to a search row by row over the squares (:mod:`.loop_rows`), whose
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

from functools import lru_cache

from engine.seven_bridges.lines import OPPOSITE, bits
from engine.seven_bridges.loop_rows import best_by_rows
from engine.seven_bridges.network import (
    DEG,
    DIRS,
    IS_BRIDGE,
    LINK_ARMS,
    NO_LOOP,
    OUT,
    STEP,
    TURN,
    Loop,
    core,
    join_masks,
    joins,
    square_masks,
    value,
)

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
        for leave in DIRS[masks[j]]:
            if 4 * j + leave in done:
                continue
            sq, d = j, leave
            corners = bridges = arms = 0
            while True:
                arms |= LINK_ARMS[4 * sq + d]
                sq += STEP[d]
                m = masks[sq]
                if DEG[m] > 2:
                    break
                inside += 1
                corners += TURN[m]
                bridges += IS_BRIDGE[sq]
                d = OUT[4 * m + d]
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
        for leave in DIRS[masks[j]]:
            sq, d = j + STEP[leave], leave
            while DEG[masks[sq]] == 2:
                seen.add(sq)
                d = OUT[4 * masks[sq] + d]
                sq += STEP[d]
    out = []
    for first, m in masks.items():
        if first in seen:
            continue
        corners = bridges = 0
        sq, d = first, DIRS[m][0]
        while True:
            seen.add(sq)
            corners += TURN[masks[sq]]
            bridges += IS_BRIDGE[sq]
            sq += STEP[d]
            if sq == first:
                break
            d = OUT[4 * masks[sq] + d]
        arms = _walk_arms(masks, first, DIRS[m][0], first)
        out.append(Loop(value(corners, bridges), corners, bridges, arms))
    return out


def _walk_arms(masks: dict[int, int], sq: int, d: int, stop: int) -> int:
    """The arms of the run leaving ``sq`` towards ``d`` until it reaches ``stop``."""
    arms = 0
    while True:
        arms |= LINK_ARMS[4 * sq + d]
        sq += STEP[d]
        if sq == stop:
            return arms
        d = OUT[4 * masks[sq] + d]


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

    def walk(
        u: int,
        across: int,
        corners: int,
        bridges: int,
        seen: int,
        more_c: int,
        more_b: int,
        used: int,
    ) -> None:
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
    masks = square_masks(east, south)
    chains, loops, inside = _contract(masks, junctions)
    # Every join has two ends; those not at junctions belong to two-join squares. If the
    # chains passed fewer such squares than that count, the rest lie on junction-free rings.
    ends = sum(DEG[masks[j]] for j in junctions)
    if 2 * inside + ends < 2 * (east.bit_count() + south.bit_count()):
        loops += _rings(join_masks(east, south), junctions)
    best = max(loops, key=lambda loop: loop.score, default=NO_LOOP)
    n = len(junctions)
    blocks = [_merge_through(block, n) for block in _blocks(n, chains)]
    if any(len({end for chain in block for end in chain[:2]}) > SEARCHED for block in blocks):
        found = best_by_rows(east, south)
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
