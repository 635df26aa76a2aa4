"""The best loop the plain way, kept as the check on :func:`~engine.seven_bridges.loops.best_loop`:
every simple cycle of the graph of arms and lattice points enumerated, the best one kept.

No pruning, no contraction: slow but obviously right. Tests and ``python -m bot bench``
compare the two.
"""

from __future__ import annotations

from engine.seven_bridges.lines import ARM_CENTRE, ARM_DIR, ARM_MID, VERTICAL, bits, is_centre
from engine.seven_bridges.network import BRIDGE_ARMS, NO_LOOP, Loop, value


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
                loop = score_arms([*path, a])
                if loop.score > best.score:
                    best = loop
        elif v > s and v not in visited:
            visited.add(v)
            path.append(a)
            best = _cycles_from(adj, s, v, visited, path, best)
            path.pop()
            visited.discard(v)
    return best


def score_arms(cycle: list[int]) -> Loop:
    """Corners and bridges of a cycle given as its arms."""
    at: dict[int, list[int]] = {}
    arms = 0
    for a in cycle:
        at.setdefault(ARM_CENTRE[a], []).append(ARM_DIR[a])
        arms |= 1 << a
    corners = sum(1 for p, ds in at.items() if is_centre(p) and VERTICAL[ds[0]] != VERTICAL[ds[1]])
    bridges = sum(1 for m in BRIDGE_ARMS if arms & m == m)
    return Loop(value(corners, bridges), corners, bridges, arms)
