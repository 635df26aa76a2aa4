"""The drawing rules (rulebook "Drafting", RULINGS §1.2, §1.8), by name: the dice, the
rules every face obeys, the horse, and the listing of placements that is exactly them.

Positions start from a real game (start square ii-2-3 = r2c9, the rulebook's example) and
then set one player's drawing and the dice directly, so each rule is looked at on its own;
moves go through the engine's public parse/apply.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.seven_bridges.board import SQUARES
from engine.seven_bridges.bonuses import RESERVED, USED
from engine.seven_bridges.dice import FACES, KINDS, ROTATIONS, die_token, horse_reach
from engine.seven_bridges.drawing import (
    line_fits,
    line_placements,
    line_refusal,
    shape_fits,
    shape_placements,
    shape_refusal,
)
from engine.seven_bridges.lines import (
    ALL_ARMS,
    PRINTED,
    SPAN,
    SQUARE_ARM,
    anchors,
    is_anchor,
    is_lattice_point,
)
from tests.engine.seven_bridges.conftest import START, arms, play, position, refusal, sq, with_seat

# -- dice ----------------------------------------------------------------------------------


def test_two_die_types_of_three_with_faces_valued_1_to_6():
    assert KINDS == (2, 2, 2, 3, 3, 3)
    assert FACES == ("cross", "tee", "corner", "straight", "half", "horse")
    assert {v: len(r) for v, r in ROTATIONS.items()} == {1: 1, 2: 4, 3: 4, 4: 2, 5: 4}
    assert horse_reach(2) == 4 and horse_reach(3) == 6  # in half squares
    assert die_token(3, 2) == "tee3" and die_token(2, 6) == "horse2"


def test_the_rulebook_start_takes_no_cross_anywhere():
    assert shape_placements(START, False, 1) == []
    assert shape_placements(START, True, 1) == []


# -- the rules by name -----------------------------------------------------------------------


def test_connectivity_new_lines_must_touch_the_network():
    state = position(START)
    assert "Connectivity" in refusal(state, 0, "tee2 r5c6 nes")
    assert play(state, 0, "tee2 r2c8 new").seats[0].drawn == START | arms("r2c8:NEW")


def test_extremity_an_end_point_must_join_the_network():
    state = position(arms("r2c8:N"))  # a dead end from r2c8's north edge to its centre
    # a straight across r2c8 would only touch at the centre, which is not its end point
    assert "Extremity" in refusal(state, 0, "straight3 r2c8 ew")
    # the half face's centre is an end point too
    after = play(state, 0, "half3 r2c8 e")
    assert after.seats[0].drawn == arms("r2c8:NE")


def test_totality_all_lines_in_one_rotation_and_all_printed():
    state = position(START)
    assert "Totality" in refusal(state, 0, "tee2 r2c8 ne")  # two arms: not a tee
    assert "Totality" in refusal(state, 0, "corner2 r2c8 ew")  # straight, not a corner
    reason = refusal(state, 0, "tee2 r2c8 nes")
    assert "Totality" in reason and "south" in reason  # r2c8 has no south street


def test_exclusivity_only_a_horse_spans_squares():
    state = position(arms("r12c1:E"))
    reason = refusal(state, 0, "straight3 iii-6-2w e4")
    assert reason.startswith("Exclusivity")


def test_backtracking_never_over_a_line_but_crossing_is_fine():
    state = position(START)
    assert "Backtracking" in refusal(state, 0, "half3 r2c9 n")
    # a horizontal line through r12c3 and a north-south straight crossing it there
    cross = position(arms("r12c2:E", "r12c3:WE", "r11c3:S"))
    after = play(cross, 0, "straight3 r12c3 ns")
    assert after.seats[0].drawn >> SQUARE_ARM[sq("r12c3")][0] & 1


def test_footpaths_need_the_reserved_bonus_and_the_first_use_marks_it_used():
    network = arms("r2c7:NESW")
    without = position(network)
    assert "Footpaths" in refusal(without, 0, "straight3 r2c6 ew")
    reserved = position(network, footpaths=RESERVED)
    after = play(reserved, 0, "straight3 r2c6 ew")
    bonuses = after.seats[0].bonuses
    assert bonuses.footpaths == USED
    assert bonuses.drafting_score() == 7
    # a street-only shape leaves a reserved footpaths bonus unused
    street = play(position(network, footpaths=RESERVED), 0, "half3 r2c6 e")
    assert street.seats[0].bonuses.footpaths == RESERVED


# -- get on your horse ----------------------------------------------------------------------

ROW12 = arms("r12c1:E")  # a dead end from r12c1's centre to its east edge


@pytest.mark.parametrize(("die", "reach"), [("horse2", 4), ("horse3", 6)])
def test_horse_every_length_up_to_its_reach_in_half_squares(die, reach):
    dice = (6, 1, 1, 6, 1, 1)
    state = position(ROW12, dice=dice)
    for length in range(1, reach + 1):
        after = play(state, 0, f"{die} iii-6-2w e{length}")
        assert bin(after.seats[0].drawn & ~ROW12).count("1") == length
    reason = refusal(state, 0, f"{die} iii-6-2w e{reach + 1}")
    assert reason.startswith("Get on your horse") and str(reach) in reason


def test_horse_may_start_and_end_mid_square():
    state = position(ROW12, dice=(6, 1, 1, 1, 1, 1))
    after = play(state, 0, "horse2 iii-6-2w e3")  # edge of c2 to the centre of c3
    assert after.seats[0].drawn == ROW12 | arms("r12c2:WE", "r12c3:W")
    # from that centre (an end point now) another horse may go on or turn
    more = replace(after, dice=(0, 0, 1, 6, 1, 1), slot=2, committed=-1)
    assert play(more, 0, "horse3 iii-6-3 n2").seats[0].drawn >> SQUARE_ARM[sq("r12c3")][0] & 1


def test_horse_starts_only_at_an_end_point_or_a_corner():
    corner = position(arms("r12c2:NE"), dice=(6, 1, 1, 1, 1, 1))
    assert play(corner, 0, "horse2 iii-6-2 w2")  # the corner at r12c2's centre
    straight = position(arms("r12c2:WE"), dice=(6, 1, 1, 1, 1, 1))
    reason = refusal(straight, 0, "horse2 iii-6-2 n2")
    assert reason.startswith("Get on your horse") and "straight through" in reason
    junction = position(arms("r12c3:NEW"), dice=(6, 1, 1, 1, 1, 1))
    assert "branch" in refusal(junction, 0, "horse2 iii-6-3 s1")
    away = position(START, dice=(6, 1, 1, 1, 1, 1))
    assert refusal(away, 0, "horse2 iii-6-3 e2").startswith("Connectivity")


def test_a_horse_on_a_footpath_needs_the_reserved_bonus_and_uses_it():
    # r2c6 has a street east and footpaths north and west; its centre is an end point
    network = arms("r2c6:E")
    reason = refusal(position(network, dice=(6, 1, 1, 1, 1, 1)), 0, "horse2 i-2-6 w1")
    assert reason.startswith("Footpaths") and "reserved" in reason
    reserved = position(network, dice=(6, 1, 1, 1, 1, 1), footpaths=RESERVED)
    after = play(reserved, 0, "horse2 i-2-6 w1")
    assert after.seats[0].drawn == network | arms("r2c6:W")
    assert after.seats[0].bonuses.footpaths == USED


def test_horse_follows_streets_and_never_runs_over_lines():
    state = position(arms("r12c11:E"), dice=(6, 1, 1, 1, 1, 1))
    reason = refusal(state, 0, "horse2 iv-6-6w e3")  # past the map's east edge
    assert reason.startswith("Get on your horse")
    back = position(arms("r12c1:E", "r12c2:W"), dice=(6, 1, 1, 1, 1, 1))
    assert refusal(back, 0, "horse2 iii-6-2 w1").startswith("Backtracking")


def test_the_immediate_bonus_horse_reaches_three_squares():
    state = position(ROW12)
    state = with_seat(state, 0, pending=1)
    after = play(state, 0, "bonus horse iii-6-2w e6")
    assert bin(after.seats[0].drawn).count("1") == 7


# -- the enumeration is exactly the rules --------------------------------------------------------

NETWORKS = [
    START,
    arms("r2c8:N"),
    arms("r12c2:E", "r12c3:WE", "r11c3:S"),
    arms("r2c7:NESW", "r2c6:E", "r1c7:SW", "r1c6:EW"),
    arms("r8c5:NESW", "r7c5:NS", "r6c5:NES", "r9c5:NS", "r10c5:NE", "r10c6:W"),
]


@pytest.mark.parametrize("drawn", NETWORKS)
@pytest.mark.parametrize("walk", [False, True])
def test_listed_shapes_are_exactly_those_the_rules_allow(drawn, walk):
    for value, rotations in ROTATIONS.items():
        allowed = {
            (s, dirs)
            for s in range(SQUARES)
            for dirs in rotations
            if shape_refusal(drawn, walk, value, s, dirs) is None
        }
        assert set(shape_placements(drawn, walk, value)) == allowed


@pytest.mark.parametrize("drawn", NETWORKS)
@pytest.mark.parametrize("reach", [4, 6])
def test_listed_horse_lines_are_exactly_those_the_rules_allow(drawn, reach):
    allowed = {
        (p, h, n)
        for p in range(SPAN * SPAN)
        if is_lattice_point(p)
        for h in range(4)
        for n in range(1, reach + 1)
        if line_refusal(drawn, True, reach, p, h, n) is None
    }
    assert set(line_placements(drawn, True, reach)) == allowed
    assert allowed, "every network here has somewhere to ride"


def random_networks(count: int = 60) -> list[int]:
    """Random subsets of the printed arms, from a few lines to nearly all of them, and
    two ends: nothing drawn beyond one arm, and everything drawn."""
    rnd = random.Random(18)
    nets = [arms("r2c8:N"), ALL_ARMS]
    for k in range(count):
        density = (0.02, 0.1, 0.3, 0.6, 0.9)[k % 5]
        nets.append(sum(1 << a for a in PRINTED if rnd.random() < density))
    return nets


def test_fits_is_exactly_whether_any_placement_is_listed():
    answers = set()
    for drawn in random_networks():
        for walk in (False, True):
            for value in ROTATIONS:
                fits = shape_fits(drawn, walk, value)
                assert fits == bool(shape_placements(drawn, walk, value)), (hex(drawn), value)
                answers.add(fits)
            fits = line_fits(drawn, walk, 4)
            assert fits == bool(line_placements(drawn, walk, 4)), hex(drawn)
            answers.add(fits)
    assert answers == {False, True}


def test_an_anchor_is_found_from_the_arms_at_its_point_alone():
    for drawn in random_networks(20):
        found = {p for p in range(SPAN * SPAN) if is_lattice_point(p) and is_anchor(drawn, p)}
        assert found == set(anchors(drawn)), hex(drawn)
