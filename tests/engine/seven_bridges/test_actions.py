"""The notation (engine/seven_bridges/actions.py): what players type, buttons carry and the
move log stores, each action with one canonical text."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.seven_bridges.actions import Line, Pick, Shape
from tests.engine.seven_bridges.conftest import g, sq


def test_shapes_in_the_notation():
    assert g.parse("tee3 ii-2-3 nes") == Pick(3, 2, Shape(sq("r2c9"), (0, 1, 2)))
    assert g.parse("cross2 r2c9") == Pick(2, 1, Shape(sq("r2c9"), (0, 1, 2, 3)))
    assert g.parse("T3 ii23 sen") == g.parse("tee3 ii-2-3 nes")


def test_horse_lines_in_the_notation():
    line = g.parse("horse3 ii-2-4w e3")
    assert isinstance(line.where, Line) and line.where.length == 3
    # the same edge point named from the other side reads the same
    assert g.parse("horse3 ii-2-3e e3") == line
    assert g.format(line) == "horse3 ii-2-4w e3"


@pytest.mark.parametrize(
    "text",
    [
        "roll",
        "reroll",
        "reserve reroll",
        "reserve footpaths",
        "score trees",
        "bonus corner i-1-2 es",
        "bonus horse iii-6-2w e6",
        "distribute tee3 half2",
        "downgrade cross3",
        "discard horse2",
    ],
)
def test_every_kind_of_action_reads_back_as_written(text):
    assert g.format(g.parse(text)) == text


@pytest.mark.parametrize(
    "text",
    ["tee9 ii-2-3 nes", "horse3 ii-2-4w", "tee3 ii-2-3 nex", "fly to the moon", "", "score fun"],
)
def test_unreadable_moves_are_refused(text):
    with pytest.raises(IllegalMove):
        g.parse(text)
