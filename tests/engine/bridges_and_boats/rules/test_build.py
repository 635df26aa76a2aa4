"""Building (step 3): the bridge from the bank outwards, boats, planes and cannons,
each side its own, from a reserve slot that holds a domino."""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.state import Boat
from tests.engine.bridges_and_boats.conftest import (
    A,
    D,
    bridge,
    dom,
    events_of,
    g,
    legal,
    play,
    position,
    public,
    refusal,
)


def test_the_bridge_is_built_from_the_attackers_bank_outwards():
    state = position(hands=((dom("1-2"), dom("3-4"), dom("5-6")), ()))
    state, events = events_of(state, "bridge d2")
    assert state.bridge[0] == dom("3-4") and state.bridge[1:] == (None,) * 5
    assert state.hands[A] == (dom("1-2"), dom("5-6")), "slots close up in the order bought"
    assert "bridge section 1, face down" in public(events)
    assert "3-4" not in public(events)
    state = play(state, "bridge d1")
    assert [d is not None for d in state.bridge] == [True, True, False, False, False, False]
    assert g.view(state, None).sections[:3] == ("built", "built", "missing")


def test_a_destroyed_section_is_repaired_before_anything_further_out():
    state = position(hands=((dom("1-2"),), ()), bridge=bridge("101100"), bombed=frozenset({1}))
    assert g.view(state, None).sections == (
        "built",
        "destroyed",
        "built",
        "built",
        "missing",
        "missing",
    )
    state, events = events_of(state, "bridge d1")
    assert state.bridge[1] == dom("1-2") and state.bridge[4] is None
    assert 1 not in state.bombed
    assert "repaired bridge section 2" in public(events)


def test_there_is_only_one_bridge_of_six_sections():
    state = position(hands=((dom("1-2"),), ()), bridge=bridge("111111"))
    assert "bridge is complete" in refusal(state, A, "bridge d1")
    assert "bridge d1" not in legal(state)
    assert "boat d1" in legal(state)


def test_boats_are_built_face_down_and_numbered_for_good():
    state = position(hands=((dom("1-2"), dom("2-6")), ()), boats_built=4)
    state, events = events_of(state, "boat d2")
    assert state.boats == (Boat(5, dom("2-6")),)
    assert "built boat b5, face down" in public(events)
    assert "2-6" not in public(events)
    assert g.view(state, None).boats[0].domino is None
    assert g.view(state, D).boats[0].domino is None
    assert g.view(state, A).boats[0].domino == dom("2-6"), "the attacker knows his own boat"


def test_planes_are_face_up_and_cannons_face_down():
    hand = (dom("3-5"), dom("0-0"), dom("0-1"), dom("4-6"))
    state = position(turn=D, hands=((), hand))
    state, events = events_of(state, "plane d1")
    assert "built plane 3-5" in public(events)
    state, events = events_of(state, "plane d1")
    assert "ghost pilot" in public(events)
    state, events = events_of(state, "plane d1")
    assert "the ace" in public(events)
    state, events = events_of(state, "cannon d1")
    assert "built cannon 1, face down" in public(events)
    assert "4-6" not in public(events)
    view = g.view(state, None)
    assert view.planes == (dom("3-5"), dom("0-0"), dom("0-1"))
    assert view.cannons == 1
    assert "4-6" not in repr(view)


def test_each_side_builds_only_its_own_things():
    state = position(hands=((dom("1-2"),), (dom("3-4"),)))
    assert "Only the defender builds planes" in refusal(state, A, "plane d1")
    assert "Only the defender" in refusal(state, A, "fire")
    defender = replace(state, turn=D)
    assert "Only the attacker builds bridges" in refusal(defender, D, "bridge d1")
    assert "Only the attacker moves soldiers" in refusal(defender, D, "enter")


def test_a_slot_must_hold_a_domino():
    state = position(hands=((dom("1-2"),), ()))
    assert "no domino d3" in refusal(state, A, "bridge d3")
    assert "reserve is empty" in refusal(position(), A, "boat d1")
