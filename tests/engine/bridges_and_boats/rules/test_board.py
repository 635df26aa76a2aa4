"""Boarding (attacker, step 4): two soldiers a boat, the first turns it face up."""

from __future__ import annotations

from engine.bridges_and_boats.state import Boat
from tests.engine.bridges_and_boats.conftest import (
    A,
    dom,
    events_of,
    g,
    legal,
    play,
    position,
    public,
    refusal,
)


def test_boarding_a_boat_turns_it_face_up_and_it_holds_two():
    state = position(boats=(Boat(1, dom("2-5")),), boats_built=1, coins=(3, 0))
    state, events = events_of(state, "board b1")
    assert state.boats[0].soldiers == 1 and state.coins[A] == 2
    assert "turns face up: 2-5" in public(events)
    assert g.view(state, None).boats[0].domino == dom("2-5")
    state = play(state, "board b1")
    assert "full" in refusal(state, A, "board b1")
    assert "board b1" not in legal(state)


def test_boats_are_loaded_before_any_launch():
    state = position(
        boats=(Boat(1, dom("2-5"), 1), Boat(2, dom("1-3"))), boats_built=2, coins=(3, 0)
    )
    state = play(state, "launch b1")
    reason = refusal(state, A, "board b2")
    assert "boarding boats (step 4) comes before launching boats (step 4)" in reason
