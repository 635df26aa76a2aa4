"""The block set and its orientations (RULINGS §2.2 [P])."""

from __future__ import annotations

from engine.bridge_wars.blocks import COUNTS, NAMES, OFFSETS, ORIENTATIONS, orbit
from engine.bridge_wars.board import name
from tests.engine.bridge_wars.conftest import RED, drop_in, red_blue


def test_a_colour_has_20_blocks_with_71_holes():
    assert sum(COUNTS) == 20
    assert (
        sum(n * len(OFFSETS[(b, ORIENTATIONS[b][0])]) for b, n in zip(NAMES, COUNTS, strict=True))
        == 71
    )
    assert dict(zip(NAMES, COUNTS, strict=True)) == {
        "O4": 1, "I2": 3, "I3": 3, "I4": 3, "I5": 2, "L3": 2, "L4": 2, "T4": 2, "S4": 2
    }  # fmt: skip


def test_every_rotation_and_flip_is_one_orientation_each():
    want = {"O4": 1, "I2": 2, "I3": 2, "I4": 2, "I5": 2, "L3": 4, "L4": 8, "T4": 4, "S4": 4}
    for block in NAMES:
        shapes = [OFFSETS[(block, code)] for code in ORIENTATIONS[block]]
        assert len(set(shapes)) == len(shapes) == want[block], block
        assert set(shapes) == orbit(shapes[0]), block


def test_orientation_codes_say_which_way_a_block_points():
    def cells(block: str, code: str) -> set[tuple[int, int]]:
        return set(OFFSETS[(block, code)])

    assert cells("I3", "h") == {(0, 0), (1, 0), (2, 0)}
    assert cells("I3", "v") == {(0, 0), (0, 1), (0, 2)}
    # L4: long arm, then foot, from the corner hole
    assert cells("L4", "ne") == {(0, 0), (0, 1), (0, 2), (1, 0)}
    assert cells("L4", "en") == {(0, 0), (1, 0), (2, 0), (0, 1)}
    assert cells("L4", "ws") == {(0, 0), (0, 1), (-1, 1), (-2, 1)}
    assert cells("L3", "ne") == {(0, 0), (0, 1), (1, 0)}
    # T4: where the nose points; S4: the letter it looks like with north up
    assert cells("T4", "n") == {(0, 0), (1, 0), (2, 0), (1, 1)}
    assert cells("T4", "s") == {(0, 0), (-1, 1), (0, 1), (1, 1)}
    assert cells("S4", "sh") == {(0, 0), (1, 0), (1, 1), (2, 1)}
    assert cells("S4", "zh") == {(0, 0), (1, 0), (-1, 1), (0, 1)}


def test_reference_hole_is_the_lowest_then_leftmost():
    state = drop_in(red_blue(), RED, "T4 s f6")
    assert {name(c) for c in state.placed[-1].cells} == {"f6", "e7", "f7", "g7"}
    state = drop_in(red_blue(), RED, "L4 ws g6")
    assert {name(c) for c in state.placed[-1].cells} == {"g6", "g7", "f7", "e7"}
