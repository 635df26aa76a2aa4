"""Seven Bridges scoring (rulebook "Scoring", RULINGS §1.4, §1.8) and Euler's score.

Loops are checked on hand-built networks of real map streets whose best loop is worked out
by hand, and the fast search is checked against the plain enumeration of every simple
cycle on networks from real random games.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import USED, Bonuses
from engine.seven_bridges.game import SevenBridges
from engine.seven_bridges.lines import (
    ARM_CENTRE,
    ARM_MID,
    OPPOSITE,
    PRINTED,
    SQUARE_ARM,
    bits,
)
from engine.seven_bridges.loops import (
    BRIDGE_ARMS,
    NO_LOOP,
    _score_arms,
    best_loop,
    best_loop_reference,
)
from engine.seven_bridges.map import parse_square
from engine.seven_bridges.scoring import (
    HIDDEN_RING,
    Scorecard,
    bridge_scale,
    landmark_scale,
    rank_key,
    scorecard,
    total_from_items,
)

g = SevenBridges()
STEP = {-12: 0, 1: 1, 12: 2, -1: 3}


def ring(*names: str) -> int:
    """The arms of a closed walk through the named squares (each next to the one before)."""
    squares = [parse_square(n) for n in names]
    out = 0
    for a, b in zip(squares, squares[1:] + squares[:1], strict=True):
        d = STEP[b - a]
        for s, direction in ((a, d), (b, OPPOSITE[d])):
            arm = SQUARE_ARM[s][direction]
            assert arm >= 0, f"no street from {names} at {s} {direction}"
            out |= 1 << arm
    return out


# Smith's and Grocers Bridges between the north bank and Kneiphof: 4 corners, 2 bridges
NORTH = ring("r2c5", "r3c5", "r4c5", "r4c6", "r4c7", "r3c7", "r2c7", "r2c6")
# Offal and Green Bridges between Kneiphof and the south bank: 4 corners, 2 bridges
SOUTH = ring("r6c5", "r7c5", "r8c5", "r8c6", "r7c6", "r6c6")
# a 14-square loop on the south bank with 6 corners and no bridge, round r8c5-r8c6 too
BIG = ring(
    "r8c4", "r8c5", "r8c6", "r8c7", "r8c8", "r8c9", "r9c9",
    "r9c8", "r10c8", "r10c7", "r10c6", "r10c5", "r10c4", "r9c4",
)  # fmt: skip
# a zig-zag in the south-west: 12 corners
ZIGZAG = ring(
    "r8c1", "r8c2", "r9c2", "r9c3", "r9c4", "r10c4", "r10c5", "r11c5",
    "r12c5", "r12c4", "r12c3", "r11c3", "r11c2", "r10c2", "r10c1", "r9c1",
)  # fmt: skip
UNIT = ring("r1c1", "r1c2", "r2c2", "r2c1")


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
    open_walk = NORTH & ~(1 << SQUARE_ARM[parse_square("r2c6")][1])
    assert both(open_walk).score == 0
    # a loop with a branch hanging off it scores the loop alone
    spur = (
        UNIT | 1 << SQUARE_ARM[parse_square("r1c2")][1] | 1 << SQUARE_ARM[parse_square("r1c3")][3]
    )
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
    for _ in range(40):
        drawn = sum(1 << a for a in PRINTED if rnd.random() < density)
        fast = best_loop.__wrapped__(drawn)
        slow = best_loop_reference(drawn)
        assert fast.score == slow.score, hex(drawn)
        if fast.score:
            # equal scores may come from different loops: check the one given is real
            assert fast.arms & ~drawn == 0 and a_simple_cycle(fast.arms), hex(drawn)
            assert _score_arms(bits(fast.arms)) == fast, hex(drawn)


# -- the other items ----------------------------------------------------------------------------


def test_scale_bars_as_the_rulebook_quotes_them():
    assert [bridge_scale(n) for n in range(8)] == [0, 1, 4, 9, 16, 25, 36, 49]
    assert [landmark_scale(n) for n in range(12)] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 45, 45]


def test_items_of_a_drawing():
    drawn = NORTH | 1 << SQUARE_ARM[parse_square("r4c6")][1]  # E: landmark E's street
    card = scorecard(drawn, Bonuses(immediate=1 << 2, spent=1, reserved=1, footpaths=USED))
    assert card.crossed == 2 and card.items[1] == 4
    assert card.visited == 1 and card.items[2] == 1
    assert card.items[6] == 3 + 4 + 7  # tee bonus, first re-roll, footpaths
    assert card.items[0] == 8
    # two bridges crossed: the two best items count
    assert card.total == sum(sorted(card.items, reverse=True)[:2])


def test_trees_in_h_need_the_whole_ring_round_it():
    def trees(drawn: int) -> int:
        return scorecard(drawn, Bonuses()).items[4]

    # the ring passes 2 visible trees, one of them seen only from r8c5's east street
    assert trees(HIDDEN_RING) == 2 + 9
    # a gap where no tree is seen loses exactly H's nine
    no_tree = 1 << SQUARE_ARM[parse_square("r8c6")][3]
    assert trees(HIDDEN_RING) - trees(HIDDEN_RING & ~no_tree) == 9
    # a gap at r8c5's east street loses its visible tree as well
    one_tree = 1 << SQUARE_ARM[parse_square("r8c5")][1]
    assert trees(HIDDEN_RING) - trees(HIDDEN_RING & ~one_tree) == 1 + 9


def test_grid_squares_sum_the_exits_reached():
    row12 = 0
    for c in range(1, 13):
        for d in (1, 3):
            arm = SQUARE_ARM[parse_square(f"r12c{c}")][d]
            row12 |= 1 << arm
    # W of r12c1 (6) and E of r12c12 (6)
    assert scorecard(row12, Bonuses()).items[5] == 12


def test_total_keeps_one_item_per_bridge_crossed():
    items = (36, 36, 28, 50, 32, 26, 17)
    assert total_from_items(items, 6) == 208  # the rulebook's example
    assert total_from_items(items, 7) == 225
    assert total_from_items(items, 1) == 50
    assert total_from_items(items, 0) == 0


def test_advanced_rule_scores_the_chosen_items_whatever_they_are():
    card = scorecard(NORTH, Bonuses(), chosen=("grid", "loop"))
    assert card.total == card.items[5] + card.items[0]


def test_ties_most_bridges_then_landmarks_then_best_item():
    def card(total, crossed, visited, best):
        return Scorecard((best, 0, 0, 0, 0, 0, 0), crossed, visited, (), total, NO_LOOP)

    assert rank_key(card(50, 3, 1, 20)) > rank_key(card(50, 2, 9, 40))
    assert rank_key(card(50, 3, 4, 20)) > rank_key(card(50, 3, 2, 40))
    assert rank_key(card(50, 3, 4, 30)) > rank_key(card(50, 3, 4, 20))
    state = g.new(2, {"start": "ii-2-3"}, 1)
    same = replace(state, seats=(state.seats[0], state.seats[0]))
    assert g.result(same).places == (1, 1)


# -- Euler -----------------------------------------------------------------------------------


def example_card() -> Scorecard:
    """The rulebook's finished map: loop 36, 6 bridges, 7 landmarks, 50 buildings, 32 trees,
    26 for the grid and 17 for drafting."""
    items = (36, 36, 28, 50, 32, 26, 17)
    return Scorecard(items, 6, 7, (), total_from_items(items, 6), NO_LOOP)


def test_the_rulebook_example_player_208_euler_206():
    card = example_card()
    assert card.total == 208
    assert euler.items(card) == (0, 1, 10, 50, 68, 54, 23)
    assert euler.total(card) == 206


def test_euler_scores_what_the_player_left():
    items = (0, 4, 10, 55, 30, 35, 20)
    card = Scorecard(items, 2, 4, (), 0, NO_LOOP)
    them = euler.items(card)
    assert them[1] == 25  # 5 bridges left
    assert them[2] == 28  # 7 landmarks left
    assert them[3] == 45 and them[4] == 70 and them[5] == 45 and them[6] == 20
    assert euler.total(card) == sum(them)


def test_solo_result_reads_as_a_loss_when_euler_scores_more():
    state = g.new(1, {"start": "ii-2-3"}, 1)  # nothing drawn yet: Euler has the whole city
    mine, them = g.cards(state)[0].total, euler.total(g.cards(state)[0])
    assert mine < them
    result = g.result(state)
    assert result.scores == (mine,)
    assert result.places == (2,), "Euler is 1st, so the player is not announced 1st"
    assert result.detail == f"Euler scores {them}: Euler wins by {them - mine}."
    view = g.view(state, 0)
    assert view.solo and view.euler_total == them


def test_solo_result_reads_as_a_win_when_the_player_scores_more():
    state = g.new(1, {"start": "ii-2-3"}, 1)
    # every east-west street and every bridge: much of the city but no loop (a dense
    # network would make the exact loop search the slow part of the test)
    drawn = sum(1 << a for a in PRINTED if a % 2) | sum(BRIDGE_ARMS)
    seats = (replace(state.seats[0], drawn=drawn),)
    state = replace(state, seats=seats)
    mine, them = g.cards(state)[0].total, euler.total(g.cards(state)[0])
    assert mine > them
    result = g.result(state)
    assert result.places == (1,)
    assert result.detail == f"Euler scores {them}: you beat Euler by {mine - them}."
