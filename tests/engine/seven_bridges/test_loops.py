"""The best closed loop (engine/seven_bridges/loops.py; rulebook scoring item 1, RULINGS
§1.8): loops on hand-built networks of real map streets whose best loop is worked out by
hand, and the fast search checked against the plain enumeration of every simple cycle on
networks from real random games and random subsets of the map.
"""

from __future__ import annotations

import random
import time

import pytest

from engine.seven_bridges.lines import ALL_ARMS, ARM_CENTRE, ARM_MID, PRINTED, SQUARE_ARM, bits
from engine.seven_bridges.loop_rows import best_by_rows
from engine.seven_bridges.loops import best_loop
from engine.seven_bridges.loops_reference import best_loop_reference, score_arms
from engine.seven_bridges.network import NO_LOOP, Loop, core, joins
from tests.engine.seven_bridges.conftest import BIG, NORTH, SOUTH, UNIT, ZIGZAG, g, sq


def both(drawn: int):
    fast = best_loop.__wrapped__(drawn)
    slow = best_loop_reference(drawn)
    assert (fast.score, fast.corners, fast.bridges) == (slow.score, slow.corners, slow.bridges)
    return fast


@pytest.mark.parametrize(
    ("drawn", "score", "corners", "bridges"),
    [
        (UNIT, 4, 4, 0),
        (NORTH, 8, 4, 2),
        (SOUTH, 8, 4, 2),
        (BIG, 6, 6, 0),
        (ZIGZAG, 12, 12, 0),
    ],
)
def test_single_loops_score_corners_times_bridges(drawn, score, corners, bridges):
    loop = both(drawn)
    assert (loop.score, loop.corners, loop.bridges) == (score, corners, bridges)
    assert loop.arms == drawn


def test_the_biggest_loop_is_not_always_the_best():
    # 14 squares and 6 corners in the south, 8 squares and 2 bridges in the north
    loop = both(NORTH | BIG)
    assert loop.score == 8 and loop.arms == NORTH


def test_loops_sharing_streets_are_searched_through_the_junctions():
    # SOUTH and BIG share the street r8c5-r8c6: going round both outer sides gives
    # BIG's 6 corners with r8c4-r8c9 kept, plus 4 more at r6c5, r6c6, r8c5, r8c6
    loop = both(SOUTH | BIG)
    assert (loop.score, loop.corners, loop.bridges) == (20, 10, 2)


def test_no_loop_scores_nothing_and_dead_ends_are_ignored():
    assert both(0) == NO_LOOP
    open_walk = NORTH & ~(1 << SQUARE_ARM[sq("r2c6")][1])
    assert both(open_walk).score == 0
    # a loop with a branch hanging off it scores the loop alone
    spur = UNIT | 1 << SQUARE_ARM[sq("r1c2")][1] | 1 << SQUARE_ARM[sq("r1c3")][3]
    assert both(spur).score == 4


def test_fast_search_agrees_with_every_simple_cycle_on_played_networks():
    rnd = random.Random(3)
    checked = 0
    for seed in range(6):
        state = g.new(2 + seed % 4, None, 100 + seed)
        while not g.is_over(state):
            seat = rnd.choice(g.to_play(state))
            state = g.apply(state, seat, rnd.choice(g.legal(state, seat))).state
        for seat in state.seats:
            both(seat.drawn)
            checked += 1
    # and a dense hand-made tangle: three loops and the bridges between them
    both(NORTH | SOUTH | BIG | ZIGZAG | UNIT)
    assert checked >= 12


def a_simple_cycle(arms: int) -> bool:
    """Whether the arms make one closed line: two arms at every point they touch, and a
    walk round from any of them passes them all."""
    at: dict[int, list[int]] = {}
    for a in bits(arms):
        at.setdefault(ARM_CENTRE[a], []).append(a)
        at.setdefault(ARM_MID[a], []).append(a)
    if not at or any(len(ends) != 2 for ends in at.values()):
        return False
    first = bits(arms)[0]
    a, p, walked = first, ARM_MID[first], 1
    while True:
        a = next(b for b in at[p] if b != a)
        if a == first:
            return walked == len(bits(arms))
        p = ARM_CENTRE[a] if ARM_MID[a] == p else ARM_MID[a]
        walked += 1


@pytest.mark.parametrize("density", [0.6, 0.7, 0.8])
def test_fast_search_agrees_with_every_simple_cycle_on_random_networks(density):
    # random subsets of the printed arms: shapes that play rarely makes, such as rings
    # with no junction, loops coming back to their own junction and networks of several
    # biconnected blocks
    rnd = random.Random(int(density * 100))
    with_loops = 0
    for _ in range(40):
        drawn = sum(1 << a for a in PRINTED if rnd.random() < density)
        fast = best_loop.__wrapped__(drawn)
        slow = best_loop_reference(drawn)
        assert fast.score == slow.score, hex(drawn)
        if fast.score:
            with_loops += 1
            # equal scores may come from different loops: check the one given is real
            assert fast.arms & ~drawn == 0 and a_simple_cycle(fast.arms), hex(drawn)
            assert score_arms(bits(fast.arms)) == fast, hex(drawn)
    assert with_loops >= 10, "many of these networks hold a loop to check"


@pytest.mark.parametrize("density", [0.7, 0.85, 1.0])
def test_the_row_by_row_search_agrees_with_the_branch_and_bound(density):
    # the row-by-row search takes over only from SEARCHED junctions on, where the branch
    # and bound gets slow: here both are run on the same networks and must agree
    rnd = random.Random(int(density * 100) + 1)
    with_loops = 0
    for _ in range(30):
        top = rnd.randrange(12)
        rows = range(top, min(12, top + rnd.randrange(2, 6)))
        drawn = sum(1 << a for a in PRINTED if a // 48 in rows and rnd.random() < density)
        east, south, _ = core(*joins(drawn))
        score, corners, bridges, arms = best_by_rows(east, south)
        searched = best_loop.__wrapped__(drawn)
        assert score == searched.score, hex(drawn)
        if score:
            with_loops += 1
            assert arms & ~drawn == 0 and a_simple_cycle(arms), hex(drawn)
            assert score_arms(bits(arms)) == Loop(score, corners, bridges, arms), hex(drawn)
    assert with_loops >= 5


def test_the_whole_map_drawn_is_scored_at_once():
    # every street drawn: 30 junctions in rows 1-6 alone, where the branch and bound
    # would take minutes; the row-by-row search is bounded by the map
    started = time.perf_counter()
    loop = best_loop.__wrapped__(ALL_ARMS)
    assert time.perf_counter() - started < 1.0
    assert (loop.score, loop.corners, loop.bridges) == (260, 52, 5)
    assert a_simple_cycle(loop.arms) and score_arms(bits(loop.arms)) == loop
