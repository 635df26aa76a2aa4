"""Launching (attacker, step 4): loaded boats only, at once on the defender's bank."""

from __future__ import annotations

from engine.bridges_and_boats.state import Boat
from tests.engine.bridges_and_boats.conftest import A, dom, legal, play, position, refusal


def test_boats_may_not_go_forth_empty():
    state = position(boats=(Boat(1, dom("2-5")),), boats_built=1)
    assert "may not go forth empty" in refusal(state, A, "launch b1")
    assert "launch b1" not in legal(state)


def test_a_launched_boat_is_at_once_on_the_defenders_bank():
    state = position(hands=((dom("2-5"),), ()), coins=(3, 0))
    state = play(state, "boat d1", "board b1", "launch b1")
    assert state.boats == (Boat(1, dom("2-5"), 1, True),)
    assert "no boat b1 on your bank" in refusal(state, A, "launch b1")
