"""The board (RULINGS §2.1): a diamond of rods, four corners, holes named like chess."""

from __future__ import annotations

from engine.bridge_wars.board import BRASS, DIAMOND, HOLES, TRIANGLES, name, parse_hole
from engine.bridge_wars.state import rods
from tests.engine.bridge_wars.conftest import g, h, holes_of, play


def test_board_is_a_diamond_of_61_and_four_corners_of_15():
    assert bin(DIAMOND).count("1") == 61
    assert [bin(TRIANGLES[c]).count("1") for c in TRIANGLES] == [15, 15, 15, 15]
    union = DIAMOND
    for mask in TRIANGLES.values():
        assert not union & mask, "corners and diamond do not overlap"
        union |= mask
    assert union == (1 << HOLES) - 1 == (1 << 121) - 1
    assert name(BRASS) == "f6"
    assert {name(i) for i in holes_of(TRIANGLES["sw"])} == {
        "a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "a4", "b4", "a5"
    }  # fmt: skip


def test_only_claimed_corners_have_rods():
    state = g.new(3, None, 1)
    assert rods(state) == DIAMOND
    state = play(state, "red ne")
    assert rods(state) == DIAMOND | TRIANGLES["ne"]
    state = play(state, "blue sw")
    assert rods(state) == DIAMOND | TRIANGLES["ne"] | TRIANGLES["sw"]
    assert not rods(state) & (TRIANGLES["nw"] | TRIANGLES["se"])


def test_hole_names_run_a_to_k_and_1_to_11():
    assert name(h("a1")) == "a1" and name(h("k11")) == "k11"
    for bad in ("l1", "a0", "a12", "a01", "f", "66", ""):
        assert parse_hole(bad) is None, bad
