"""Entering (attacker, step 4): a coin becomes a soldier on space 1, once a turn."""

from __future__ import annotations

from tests.engine.bridges_and_boats.conftest import (
    A,
    bridge,
    events_of,
    position,
    public,
    refusal,
    spaces,
)


def test_a_coin_enters_as_a_soldier_on_space_one_once_a_turn():
    state = position(bridge=bridge("100000"), coins=(2, 0))
    state, events = events_of(state, "enter")
    assert state.spaces == spaces(1) and state.coins == (1, 0)
    assert "onto space 1" in public(events)
    assert "One soldier enters the bridge a turn" in refusal(state, A, "enter")


def test_entering_needs_section_one_a_free_space_one_and_a_coin():
    assert "Section 1" in refusal(position(bridge=bridge("011111")), A, "enter")
    taken = position(bridge=bridge("111111"), spaces=spaces(1, 2))
    assert "Space 1 is taken" in refusal(taken, A, "enter")
    broke = position(bridge=bridge("111111"), coins=(0, 0))
    assert "you have none" in refusal(broke, A, "enter")
