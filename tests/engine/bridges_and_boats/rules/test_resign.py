"""Resigning: at any time, and the other side wins."""

from __future__ import annotations

from tests.engine.bridges_and_boats.conftest import D, g, public


def test_a_resigning_side_loses_and_may_resign_out_of_turn():
    state = g.new(2, None, 3)
    step = g.apply(state, D, g.parse("resign"))
    state, events = step.state, step.events
    assert g.is_over(state)
    assert g.result(state).places == (1, 2)
    assert "attacker wins" in public(events)
