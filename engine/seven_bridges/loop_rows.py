"""The best loop found row by row: a frontier search whose work the map itself bounds.

:func:`engine.seven_bridges.loops.best_loop` hands it the networks whose junctions would
make its branch and bound slow. Squares are taken in reading order, and for every way a
loop under construction can cross the line between squares done and squares to do (its
*plugs*), only the most corners for each count of bridges is kept.
"""

from __future__ import annotations

from engine.seven_bridges.board import SIZE
from engine.seven_bridges.network import IS_BRIDGE, LINK_ARMS, ROW, value


def best_by_rows(east: int, south: int) -> tuple[int, int, int, int]:
    """The best loop's score, corners, bridges and arms among the joins ``east`` and
    ``south`` (see :func:`.network.joins`).

    Plugs are 2 bits per position 0..SIZE: before square (r, c), position c holds the line
    coming in from the left and c + 1 the line coming down from above; after it, c holds
    the line going down and c + 1 the line going right. A plug is 1 where a path of the
    loop opens and 2 where it closes, as brackets, which is enough to join paths
    correctly: lines in the plane do not cross. The work at each square is bounded by the
    plugs the map allows, so every drawing costs at most what the whole map costs (under
    50 ms), whatever its junctions.
    """
    joined = east | south  # a square joined east or south: the loop's last row is below
    first, last = (joined & -joined).bit_length() // ROW, joined.bit_length() // ROW
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
    bridge = IS_BRIDGE[sq]
    arms_e = LINK_ARMS[4 * sq + 1] if e else 0
    arms_s = LINK_ARMS[4 * sq + 2] if s else 0
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
