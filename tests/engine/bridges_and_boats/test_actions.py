"""The notation: one canonical text per action, short forms read, clear errors."""

from __future__ import annotations

import pytest

from engine.bridges_and_boats.actions import Advance, Board, Build, End, Fly, Reroll
from engine.core import IllegalMove
from tests.engine.bridges_and_boats.conftest import dom, g


def test_notation_reads_back_and_accepts_short_forms():
    for text, action in [
        ("bridge d2", Build("bridge", 1)),
        ("Boat 2", Build("boat", 1)),
        ("PLANE D1", Build("plane", 0)),
        ("advance 3", Advance(3)),
        ("board b4", Board(4)),
        ("board 4", Board(4)),
        ("fly 5-3", Fly(dom("3-5"))),
        ("fly 35", Fly(dom("3-5"))),
        ("fly 3|5", Fly(dom("3-5"))),
        ("reroll 6", Reroll(6)),
        ("end turn", End()),
    ]:
        assert g.parse(text) == action, text
    assert g.format(Fly(dom("5-3"))) == "fly 3-5"
    assert g.format(Build("cannon", 0)) == "cannon d1"


@pytest.mark.parametrize(
    ("text", "words"),
    [("advance", "how many"), ("fly 10-1", "not a plane"), ("reroll 0", "re-roll"),
     ("bridge x2", "not a domino of your reserve"), ("sail b1", "can't read")],
)  # fmt: skip
def test_unreadable_moves_say_what_is_wrong(text, words):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert words in caught.value.reason
