"""The start (engine/seven_bridges/state.py, RULINGS §1.2, §1.7): options, the starting
square by option or by the dice, and what a landmark or footpath on it gives everyone."""

from __future__ import annotations

import pytest

from engine.core import BadOptions, Rng
from engine.seven_bridges.board import CITY, format_square
from engine.seven_bridges.bonuses import USED
from engine.seven_bridges.lines import SQUARE_ARM
from engine.seven_bridges.state import roll_start, roller
from tests.engine.seven_bridges.conftest import arms, g, play, refusal, sq


def test_options_start_square_and_advanced():
    state = g.new(2, {"start": "ii-2-3", "advanced": "on"}, 5)
    assert format_square(state.start) == "ii-2-3" and state.advanced
    assert state.seats[0].drawn == arms("r2c9:NW") == state.seats[1].drawn
    with pytest.raises(BadOptions, match="water"):
        g.new(2, {"start": "r7c1"}, 5)
    with pytest.raises(BadOptions, match="not a square"):
        g.new(2, {"start": "z9"}, 5)
    with pytest.raises(BadOptions, match="no option"):
        g.new(2, {"colour": "red"}, 5)
    with pytest.raises(BadOptions):
        g.new(2, {"advanced": "maybe"}, 5)
    with pytest.raises(BadOptions):
        g.new(7, None, 5)


def faces(seed: int):
    """The game's generator from ``seed``, as die faces 0-5 (one less than their value)."""
    rng = Rng.from_seed(seed)
    while True:
        face, rng = rng.below(6)
        yield face


def test_rolled_start_quadrant_row_column_and_a_neighbour_for_an_empty_square():
    blanks_seen = streets_seen = 0
    for seed in range(400):
        # the same three rolls by hand: quadrant (re-roll 5 and 6), row, column
        rolls = faces(seed)
        quadrant = next(face for face in rolls if face < 4)
        row, col = next(rolls) + 1, next(rolls) + 1
        rolled = sq(f"{('i', 'ii', 'iii', 'iv')[quadrant]}-{row}-{col}")
        square, _ = roll_start(Rng.from_seed(seed))
        assert CITY.arms[square]
        if CITY.arms[rolled]:
            streets_seen += 1
            assert square == rolled
        else:
            blanks_seen += 1
            assert abs(square - rolled) in (1, 12)
    assert blanks_seen > 10 and streets_seen > 200


@pytest.mark.parametrize(
    ("seed", "square"),
    [
        # dice 2, 1, 2: quadrant ii, row 1, column 2 = r1c8, a street square
        (0, "ii-1-2"),
        # 6, 6 re-rolled, then 5 re-rolled; 2, 2, 3: ii-2-3 = r2c9, the rulebook's example
        (48, "ii-2-3"),
        # 5, 5 re-rolled; 4, 1, 2: iv-1-2 = r7c8, the southern river; north of it r6c8
        (4, "ii-6-2"),
        # 6 re-rolled; 2, 1, 6: ii-1-6 = r1c12, water in the corner; north and east are off
        # the map, south (r2c12) is water too, so west: r1c11
        (1, "ii-1-5"),
    ],
)
def test_a_rolled_start_square_by_the_dice_of_a_fixed_seed(seed, square):
    state = g.new(2, None, seed)
    assert format_square(state.start) == square
    assert state.seats[0].drawn == sum(1 << a for a in SQUARE_ARM[sq(square)] if a >= 0)


def test_a_landmark_in_the_start_square_gives_everyone_a_bonus_before_the_first_roll():
    state = g.new(3, {"start": "r2c4"}, 2)  # landmark A's letter is on r2c4's east street
    assert state.setup and state.dice == (0,) * 6
    assert g.to_play(state) == (0, 1, 2)
    state = play(state, 1, "reserve footpaths")
    assert g.to_play(state) == (0, 2) and state.dice == (0,) * 6
    state = play(state, 0, "reserve reroll")
    state = play(state, 2, "bonus half r2c3 e")
    assert not state.setup and state.rolling and state.dice == (0,) * 6
    assert g.to_play(state) == (roller(state),)
    assert g.legal(state, roller(state)) == [g.parse("roll")]
    assert refusal(state, roller(state), "reroll") == "Roll the dice first: `roll`."
    state = play(state, roller(state), "roll")
    assert not state.rolling and all(state.dice)
    assert g.to_play(state) == (roller(state),), "the roller picks first"
    assert "already rolled" in refusal(state, roller(state), "roll")


def test_a_footpath_in_the_start_square_gives_everyone_footpaths_used():
    state = g.new(2, {"start": "i-2-6"}, 3)  # r2c6: a street east, footpaths north and west
    for seat in state.seats:
        assert seat.bonuses.footpaths == USED
        assert seat.bonuses.drafting_score() == 7
        assert seat.drawn == arms("r2c6:NEW")
