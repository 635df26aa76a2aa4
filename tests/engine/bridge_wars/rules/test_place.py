"""Putting a block into play (rules/place.py): the drop, the contact rule, bridging and
the playable area (RULINGS §2.4), and ``legal`` against the explaining refusals."""

from __future__ import annotations

import random

import pytest

from engine.bridge_wars.actions import Place
from engine.bridge_wars.blocks import COUNTS, NAMES, ORIENTATIONS, PLAYABLE, cells_at
from engine.bridge_wars.board import HOLES, name
from engine.bridge_wars.rules import place
from engine.bridge_wars.state import drop
from tests.engine.bridge_wars.conftest import (
    BLUE,
    RED,
    drop_in,
    g,
    h,
    level_of,
    owner_of,
    play,
    red_blue,
    refusal,
    seat_of,
    started,
    to_move,
    with_stock,
)


def test_a_block_drops_until_one_hole_meets_a_block():
    state = red_blue()
    state = play(state, "I2 v b2")  # on the starter's b2, and down b3's empty rod
    block = state.placed[-1]
    assert block.level == 2
    assert {name(c): level_of(state, name(c)) for c in block.cells} == {"b2": 2, "b3": 2}
    state = to_move(drop_in(state, RED, "I2 h a2"), RED)  # a2, b2 now at level 3
    state = play(state, "I3 v b2")  # b2 is 3 high, b3 2, b4 empty: stops on b2
    assert state.placed[-1].level == 4


def test_contact_rule_a_block_must_rest_on_its_own_colour():
    state = drop_in(red_blue(), BLUE, "I2 h c1")  # blue next to red's starter, level 1
    reason = refusal(state, "I3 h a1")  # would rest on red a1, b1 and blue c1
    assert reason.startswith("Contact rule: I3 h at a1 would rest on blue at c1 (level 1)")
    assert "only on your own colour" in reason
    assert g.is_legal(state, seat_of(state, RED), g.parse("I2 h a1"))


def test_contact_rule_nothing_but_the_starter_stands_on_the_board():
    reason = refusal(red_blue(), "I3 h d5")
    assert reason.startswith("Contact rule: I3 h at d5 would drop onto the board")


def test_bridging_over_another_colour_with_a_gap_is_legal():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")  # red b2..b4: b3 is 3 high
    state = drop_in(state, BLUE, "I2 h c3")  # blue c3, d3 at level 1
    state = to_move(state, RED)
    red = seat_of(state, RED)
    step = g.apply(state, red, g.parse("I3 h b3"))  # b3 red 3, c3 d3 blue 1
    state, events = step.state, step.events
    block = state.placed[-1]
    assert block.level == 4
    assert [owner_of(state, w) for w in ("b3", "c3", "d3")] == [RED, RED, RED]
    assert "bridging over blue at c3 and d3" in events[0].text
    assert len(state.placed) == 6
    assert [level_of(state, w) for w in ("c3", "d3")] == [4, 4]
    assert state.placed[4].colour == BLUE, "the blue block is still there, under the bridge"


def test_a_bridge_may_not_touch_the_other_colour():
    state = drop_in(red_blue(), RED, "I2 v b2")  # red b2, b3 at level 2
    state = drop_in(state, BLUE, "I2 h c3")
    state = drop_in(state, BLUE, "I2 h c3")  # blue c3, d3 at level 2: same as red b3
    reason = refusal(to_move(state, RED), "I3 h b3")
    assert reason.startswith("Contact rule: I3 h at b3 would rest on blue at c3 and d3 (level 2)")
    assert "leave a gap" in reason


def test_bridging_over_empty_rods_and_own_colour_is_legal():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")  # b3 is 3 high
    state = play(to_move(state, RED), "I4 h b3")  # c3, d3, e3 empty: a gap of 3 levels
    assert state.placed[-1].level == 4
    assert [level_of(state, w) for w in ("c3", "d3", "e3")] == [4, 4, 4]


def test_bridging_takes_the_rods_from_the_colour_below():
    state = drop_in(red_blue(), RED, "I2 v b2", "I2 v b3")
    state = drop_in(state, BLUE, "I2 h c3")
    before = g.result(state).scores
    state = play(to_move(state, RED), "I3 h b3")
    after = g.result(state).scores
    red, blue = seat_of(state, RED), seat_of(state, BLUE)
    assert after[red] - before[red] == 2 and before[blue] - after[blue] == 2


def test_playable_area_every_hole_needs_a_rod():
    state = drop_in(red_blue(), RED, "I3 v a3")  # red up to a5, the tip of its corner
    # a6 has a rod of the diamond, a7 is in the unclaimed north-west corner
    reason = refusal(to_move(state, RED), "I3 v a5")
    assert reason == (
        "Playable area: I3 v at a5 would need a rod in a7, and there is none "
        "(only the centre diamond and the claimed corners have rods)."
    )


def test_playable_area_a_block_may_not_stick_out_over_the_edge():
    reason = refusal(red_blue(), "I3 h j1")
    assert reason == "Playable area: I3 h at j1 would stick out over the edge of the board."


def test_playable_area_nothing_above_the_top_of_the_rods():
    state = started("red sw", "blue ne", height=4)
    state = drop_in(state, RED, "I3 h a1", "I4 h a1", "I5 h a1")  # a1 up to level 4
    assert level_of(state, "a1") == 4
    reason = refusal(to_move(state, RED), "I2 v a1")
    assert reason == (
        "Playable area: I2 v at a1 would come to rest at level 5, above the 4-layer rods, "
        "because the rod at a1 is full to the top."
    )
    state = to_move(state, RED)
    moves = g.legal(state, seat_of(state, RED))
    assert moves, "red can still place below the top"
    for move in moves:
        cells = cells_at(move.block, move.orient, move.anchor)
        assert cells is not None and drop(state, cells).level <= 4
        assert h("a1") not in cells


def test_blocks_are_used_up():
    state = red_blue()
    red = seat_of(state, RED)
    held = {n: c for n, c in zip(NAMES, COUNTS, strict=True) if n not in ("O4", "I5")}
    state = with_stock(state, red, held)
    assert refusal(state, "I5 v b2").startswith("You have no I5 left; you have I2×3, I3×3")
    moves = g.legal(state, red)
    assert moves and not any(m.block == "I5" for m in moves)
    assert "starter" in refusal(state, "O4 o c3")


def test_legal_lists_exactly_the_placements_apply_accepts():
    """The fast move generator and the explaining checker agree, in random positions:
    every 12th block of each game, 60 moves deep, is compared; each game has some."""
    rnd = random.Random(4)
    for players in (2, 3, 4):
        state = g.new(players, None, players)
        checked = 0
        for _ in range(60):
            if g.is_over(state):
                break
            seat = g.to_play(state)[0]
            moves = g.legal(state, seat)
            if len(state.placed) % 12 == 5:
                accepted = {
                    Place(block, orient, anchor)
                    for block in PLAYABLE
                    for orient in ORIENTATIONS[block]
                    for anchor in range(HOLES)
                    if g.is_legal(state, seat, Place(block, orient, anchor))
                }
                assert set(moves) == accepted
                assert len(moves) == len(accepted), "no placement listed twice"
                checked += 1
            state = g.apply(state, seat, rnd.choice(moves)).state
        assert checked >= 2, f"{players} players: the comparison ran {checked} times"


def test_legal_placements_are_listed_block_orientation_then_hole():
    state = red_blue()
    moves = g.legal(state, seat_of(state, RED))
    keys = [
        (PLAYABLE.index(m.block), ORIENTATIONS[m.block].index(m.orient), name(m.anchor)[0],
         int(name(m.anchor)[1:]))
        for m in moves
    ]  # fmt: skip
    assert keys == sorted(keys)
    assert g.format(moves[0]) == "I2 h a1"


def test_a_refusal_is_found_without_listing_the_placements(monkeypatch: pytest.MonkeyPatch):
    """``is_legal`` looks at the one block's rods: it never generates ``targets``."""
    state = red_blue()
    red = seat_of(state, RED)
    listed = g.legal(state, red)

    def no_listing(*args: object, **kwargs: object) -> list[Place]:
        raise AssertionError("refusal listed every placement")

    monkeypatch.setattr(place, "targets", no_listing)
    monkeypatch.setattr(place, "can_place", no_listing)
    assert g.is_legal(state, red, listed[0])
    assert not g.is_legal(state, red, g.parse("I3 h d5"))
