"""The notation (actions.py): read in any case and spacing, written one way; and the
rules refuse actions of a shape the notation could never produce."""

from __future__ import annotations

import pytest

from engine.bridge_wars.actions import Choose, Place
from engine.bridge_wars.board import name
from engine.core import IllegalMove, Resign
from tests.engine.bridge_wars.conftest import BLUE, GREEN, RED, drop_in, g, h, red_blue


def test_notation_reads_block_orientation_hole_and_writes_one_form():
    assert g.parse("I3 h f6") == Place("I3", "h", h("f6"))
    assert g.parse("  l4   NE  c5 ") == Place("L4", "ne", h("c5"))
    assert g.format(g.parse("t4 s G7")) == "T4 s g7"
    assert g.parse("red ne") == Choose(RED, "ne")
    assert g.parse("b north-west") == Choose(BLUE, "nw")
    assert g.format(Choose(GREEN, "se")) == "green se"
    assert g.parse("resign") == Resign() and g.format(Resign()) == "resign"


@pytest.mark.parametrize(
    ("text", "holes"),
    [
        ("I3 h f6", {"f6", "g6", "h6"}),
        ("I4 v c4", {"c4", "c5", "c6", "c7"}),
        ("L4 ne c5", {"c5", "c6", "c7", "d5"}),
        ("T4 s g7", {"g7", "f8", "g8", "h8"}),
        ("S4 zh d5", {"d5", "e5", "c6", "d6"}),
    ],
)
def test_the_rules_page_examples_cover_the_holes_it_says(text: str, holes: set[str]):
    state = drop_in(red_blue(), RED, text)
    assert {name(c) for c in state.placed[-1].cells} == holes


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("X9 h f6", "'x9' is not a block"),
        ("L4 h f6", "'h' is not an orientation of L4: use ne, nw, se, sw, en, es, wn, ws"),
        ("I3 h z9", "'z9' is not a hole"),
        ("red middle", "'middle' is not a corner"),
        ("I3 f6", "can't read"),
    ],
)
def test_unreadable_moves_say_what_is_wrong(text: str, why: str):
    with pytest.raises(IllegalMove) as caught:
        g.parse(text)
    assert why in caught.value.reason


def test_apply_checks_an_actions_shape_itself():
    state = red_blue()
    for action in (Place("I3", "ne", h("f6")), Place("Q1", "h", 3), Place("I3", "h", 500)):
        with pytest.raises(IllegalMove):
            g.apply(state, state.turn, action)
    with pytest.raises(IllegalMove):
        g.apply(g.new(2, None, 1), g.new(2, None, 1).turn, Choose(7, "ne"))
