"""Seven Bridges dice and drawing rules (rulebook "Drafting", RULINGS §1.2, §1.8), by name.

Positions start from a real game (start square ii-2-3 = r2c9, the rulebook's example) and
then set one player's drawing and the dice directly, so each rule is looked at on its own;
moves go through the engine's public parse/apply.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.seven_bridges.bonuses import NOT_TAKEN, RESERVED, USED, Bonuses
from engine.seven_bridges.dice import FACES, KINDS, ROTATIONS, die_token, horse_reach
from engine.seven_bridges.drawing import (
    line_placements,
    line_refusal,
    shape_placements,
    shape_refusal,
)
from engine.seven_bridges.game import SevenBridges
from engine.seven_bridges.lines import ALL_ARMS, SPAN, SQUARE_ARM, is_lattice_point
from engine.seven_bridges.map import SQUARES, parse_square
from engine.seven_bridges.notation import Downgrade, Line, Pick, Shape
from engine.seven_bridges.state import State, available

g = SevenBridges()


def sq(name: str) -> int:
    return parse_square(name)


def arms(*specs: str) -> int:
    """arms("r2c9:NW", "r12c1:E") -> the bit set of those printed arms."""
    out = 0
    for spec in specs:
        where, dirs = spec.split(":")
        for ch in dirs:
            a = SQUARE_ARM[sq(where)]["NESW".index(ch)]
            assert a >= 0, f"{where} has no {ch} arm"
            out |= 1 << a
    return out


def position(
    drawn: int,
    dice: tuple[int, ...] = (1, 2, 3, 4, 5, 6),
    footpaths: int = NOT_TAKEN,
    players: int = 2,
) -> State:
    """Seat 0 to pick first in a fresh turn, with this drawing and these dice."""
    state = g.new(players, {"start": "ii-2-3"}, 1)
    seats = list(state.seats)
    seats[0] = replace(seats[0], drawn=drawn, bonuses=Bonuses(footpaths=footpaths))
    return replace(state, first=0, seats=tuple(seats), dice=dice, rolling=False)


def play(state: State, text: str, seat: int = 0) -> State:
    return g.apply(state, seat, g.parse(text)).state


def refusal(state: State, text: str, seat: int = 0) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


START = arms("r2c9:NW")  # the rulebook's example start: a west arm and a north arm


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
    assert "Connectivity" in refusal(state, "tee2 r5c6 nes")
    assert play(state, "tee2 r2c8 new").seats[0].drawn == START | arms("r2c8:NEW")


def test_extremity_an_end_point_must_join_the_network():
    state = position(arms("r2c8:N"))  # a dead end from r2c8's north edge to its centre
    # a straight across r2c8 would only touch at the centre, which is not its end point
    assert "Extremity" in refusal(state, "straight3 r2c8 ew")
    # the half face's centre is an end point too
    after = play(state, "half3 r2c8 e")
    assert after.seats[0].drawn == arms("r2c8:NE")


def test_totality_all_lines_in_one_rotation_and_all_printed():
    state = position(START)
    assert "Totality" in refusal(state, "tee2 r2c8 ne")  # two arms: not a tee
    assert "Totality" in refusal(state, "corner2 r2c8 ew")  # straight, not a corner
    reason = refusal(state, "tee2 r2c8 nes")
    assert "Totality" in reason and "south" in reason  # r2c8 has no south street


def test_exclusivity_only_a_horse_spans_squares():
    state = position(arms("r12c1:E"))
    reason = refusal(state, "straight3 iii-6-2w e4")
    assert reason.startswith("Exclusivity")


def test_backtracking_never_over_a_line_but_crossing_is_fine():
    state = position(START)
    assert "Backtracking" in refusal(state, "half3 r2c9 n")
    # a horizontal line through r12c3 and a north-south straight crossing it there
    cross = position(arms("r12c2:E", "r12c3:WE", "r11c3:S"))
    after = play(cross, "straight3 r12c3 ns")
    assert after.seats[0].drawn >> SQUARE_ARM[sq("r12c3")][0] & 1


def test_footpaths_need_the_reserved_bonus_and_the_first_use_marks_it_used():
    network = arms("r2c7:NESW")
    without = position(network)
    assert "Footpaths" in refusal(without, "straight3 r2c6 ew")
    reserved = position(network, footpaths=RESERVED)
    after = play(reserved, "straight3 r2c6 ew")
    bonuses = after.seats[0].bonuses
    assert bonuses.footpaths == USED
    assert bonuses.drafting_score() == 7
    # a street-only shape leaves a reserved footpaths bonus unused
    street = play(position(network, footpaths=RESERVED), "half3 r2c6 e")
    assert street.seats[0].bonuses.footpaths == RESERVED


# -- get on your horse ----------------------------------------------------------------------

ROW12 = arms("r12c1:E")  # a dead end from r12c1's centre to its east edge


@pytest.mark.parametrize(("die", "reach"), [("horse2", 4), ("horse3", 6)])
def test_horse_every_length_up_to_its_reach_in_half_squares(die, reach):
    dice = (6, 1, 1, 6, 1, 1)
    state = position(ROW12, dice=dice)
    for length in range(1, reach + 1):
        after = play(state, f"{die} iii-6-2w e{length}")
        assert bin(after.seats[0].drawn & ~ROW12).count("1") == length
    reason = refusal(state, f"{die} iii-6-2w e{reach + 1}")
    assert reason.startswith("Get on your horse") and str(reach) in reason


def test_horse_may_start_and_end_mid_square():
    state = position(ROW12, dice=(6, 1, 1, 1, 1, 1))
    after = play(state, "horse2 iii-6-2w e3")  # edge of c2 to the centre of c3
    assert after.seats[0].drawn == ROW12 | arms("r12c2:WE", "r12c3:W")
    # from that centre (an end point now) another horse may go on or turn
    more = replace(after, dice=(0, 0, 0, 6, 0, 0), slot=2, committed=-1)
    assert play(more, "horse3 iii-6-3 n2").seats[0].drawn >> SQUARE_ARM[sq("r12c3")][0] & 1


def test_horse_starts_only_at_an_end_point_or_a_corner():
    corner = position(arms("r12c2:NE"), dice=(6, 1, 1, 1, 1, 1))
    assert play(corner, "horse2 iii-6-2 w2")  # the corner at r12c2's centre
    straight = position(arms("r12c2:WE"), dice=(6, 1, 1, 1, 1, 1))
    reason = refusal(straight, "horse2 iii-6-2 n2")
    assert reason.startswith("Get on your horse") and "straight through" in reason
    junction = position(arms("r12c3:NEW"), dice=(6, 1, 1, 1, 1, 1))
    assert "branch" in refusal(junction, "horse2 iii-6-3 s1")
    away = position(START, dice=(6, 1, 1, 1, 1, 1))
    assert refusal(away, "horse2 iii-6-3 e2").startswith("Connectivity")


def test_a_horse_on_a_footpath_needs_the_reserved_bonus_and_uses_it():
    # r2c6 has a street east and footpaths north and west; its centre is an end point
    network = arms("r2c6:E")
    reason = refusal(position(network, dice=(6, 1, 1, 1, 1, 1)), "horse2 i-2-6 w1")
    assert reason.startswith("Footpaths") and "reserved" in reason
    reserved = position(network, dice=(6, 1, 1, 1, 1, 1), footpaths=RESERVED)
    after = play(reserved, "horse2 i-2-6 w1")
    assert after.seats[0].drawn == network | arms("r2c6:W")
    assert after.seats[0].bonuses.footpaths == USED


def test_horse_follows_streets_and_never_runs_over_lines():
    state = position(arms("r12c11:E"), dice=(6, 1, 1, 1, 1, 1))
    reason = refusal(state, "horse2 iv-6-6w e3")  # past the map's east edge
    assert reason.startswith("Get on your horse")
    back = position(arms("r12c1:E", "r12c2:W"), dice=(6, 1, 1, 1, 1, 1))
    assert refusal(back, "horse2 iii-6-2 w1").startswith("Backtracking")


def test_the_immediate_bonus_horse_reaches_three_squares():
    state = position(ROW12)
    seats = list(state.seats)
    seats[0] = replace(seats[0], pending=1)
    state = replace(state, seats=tuple(seats))
    after = play(state, "bonus horse iii-6-2w e6")
    assert bin(after.seats[0].drawn).count("1") == 7


# -- downgrade --------------------------------------------------------------------------------

BOXED = arms("r2c9:W", "r2c8:E")  # a line from r2c9's centre west to r2c8's centre


def test_downgrade_turns_the_lowest_die_up_until_it_fits_and_then_it_must_be_used():
    # only half faces and horses fit a lone line; no horse is out: cross -> ... -> half
    state = position(BOXED, dice=(1, 1, 2, 1, 2, 1))
    assert [g.format(a) for a in g.legal(state, 0)] == ["downgrade cross2", "downgrade cross3"]
    assert "lowest" in refusal(state, "downgrade tee2")
    step = g.apply(state, 0, Downgrade(3, 1))
    after, events = step.state, step.events
    die = after.committed
    assert KINDS[die] == 3 and after.dice[die] == 5  # only a half fits beside a lone line
    legal = g.legal(after, 0)
    assert legal and all(isinstance(a, Pick) and (a.kind, a.value) == (3, 5) for a in legal)
    assert refusal(after, "tee2 r2c8 new").startswith("Continuity")
    assert any("downgrades cross3" in e.text for e in events)


def test_downgrade_only_when_nothing_fits_and_no_horse_is_out():
    fits = position(START, dice=(2, 1, 1, 1, 1, 1))
    assert refusal(fits, "downgrade cross2").startswith("Downgrade")
    full = position(ALL_ARMS, dice=(1, 2, 6, 3, 4, 5))
    reason = refusal(full, "downgrade cross2")
    assert reason.startswith("Downgrade") and "horse" in reason
    # nothing fits, not even the horse: discard a die instead
    assert {g.format(a) for a in g.legal(full, 0)} == {
        "discard cross2",
        "discard tee2",
        "discard horse2",
        "discard corner3",
        "discard straight3",
        "discard half3",
    }
    after = play(full, "discard horse2")
    assert after.seats[0].wasted == 1 and after.slot == 1


def test_a_downgrade_that_never_fits_wastes_the_die():
    full = position(ALL_ARMS, dice=(1, 1, 1, 1, 1, 1))
    step = g.apply(full, 0, Downgrade(2, 1))
    after, events = step.state, step.events
    assert after.seats[0].wasted == 1 and after.slot == 1
    assert any("wasted" in e.text for e in events)


def test_downgrade_chain_ends_on_the_first_face_that_fits():
    # no cross fits beside the rulebook's start square, a tee does
    state = position(START, dice=(1, 1, 1, 1, 1, 1))
    assert not [a for a in g.legal(state, 0) if isinstance(a, Pick)]
    after = g.apply(state, 0, Downgrade(2, 1)).state
    assert after.dice[after.committed] == 2  # a tee fits against either arm
    assert [g.format(a) for a in g.legal(after, 0)] == ["tee2 ii-1-3 esw", "tee2 ii-2-2 new"]


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


def test_legal_offers_each_die_once_per_type_and_face():
    state = position(START, dice=(3, 3, 5, 3, 5, 6))
    texts = [g.format(a) for a in g.legal(state, 0)]
    dies = sorted({t.split()[0] for t in texts if not t.startswith(("reroll", "distribute"))})
    assert dies == ["corner2", "corner3", "half2", "half3", "horse3"]
    assert len(texts) == len(set(texts))
    for text in texts:
        assert g.format(g.parse(text)) == text
    assert available(state, 0) == (0, 1, 2, 3, 4, 5)


def test_pick_must_name_a_die_that_is_out():
    state = position(START, dice=(3, 3, 5, 3, 5, 6))
    assert "no tee2" in refusal(state, "tee2 r2c8 new")


def test_shapes_in_the_notation():
    assert g.parse("tee3 ii-2-3 nes") == Pick(3, 2, Shape(sq("r2c9"), (0, 1, 2)))
    assert g.parse("cross2 r2c9") == Pick(2, 1, Shape(sq("r2c9"), (0, 1, 2, 3)))
    assert g.parse("T3 ii23 sen") == g.parse("tee3 ii-2-3 nes")
    line = g.parse("horse3 ii-2-4w e3")
    assert isinstance(line.where, Line) and line.where.length == 3
    # the same edge point named from the other side reads the same
    assert g.parse("horse3 ii-2-3e e3") == line
    assert g.format(line) == "horse3 ii-2-4w e3"
    for text in ("tee9 ii-2-3 nes", "horse3 ii-2-4w", "tee3 ii-2-3 nex"):
        with pytest.raises(IllegalMove):
            g.parse(text)
