"""Keeping a roll: the ghost's re-roll waits for a later roll of the same run."""

from __future__ import annotations

from tests.engine.bridges_and_boats.conftest import airfield, dom, play, rolling


def test_keeping_saves_the_reroll_for_a_later_roll():
    # 3-5 rolls 1 and 3 (a re-roll of the 1 could make 8), kept: a miss; 2-6 hits with 3
    # and 5 (no single re-roll makes it deadly, so no offer); its aim 1 and 1 (section 1)
    # is offered, and re-rolling a 1 into a 6 moves the strike to section 4
    state = airfield("3-5", "2-6", "0-0", rng=rolling(1, 3, 3, 5, 1, 1, 6))
    state = play(state, "fly 3-5", "fly 2-6", "fly 0-0", "bomb")
    assert state.run.plane == dom("3-5")
    state = play(state, "keep")
    assert state.run.plane == dom("2-6") and state.run.stage == "aim"
    state = play(state, "reroll 1")
    assert state.run is None
    assert [i for i, d in enumerate(state.bridge) if d is None] == [3]
