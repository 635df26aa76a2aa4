"""The starting position, the players and options it takes, and its JSON form."""

from __future__ import annotations

import pytest

from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.core import BadOptions
from tests.engine.bridges_and_boats.conftest import A, airfield, g, play, rolling


def test_the_pool_is_a_shuffled_double_six_set_and_players_start_with_nothing():
    state = g.new(2, None, 5)
    assert sorted(state.pool) == sorted(DOUBLE_SIX)
    assert len(set(state.pool)) == 28
    assert state.pool != DOUBLE_SIX
    assert g.new(2, None, 5).pool == state.pool
    assert g.new(2, None, 6).pool != state.pool
    assert state.hands == ((), ()) and not state.planes and not state.cannons
    assert state.bridge == (None,) * 6 and state.crossed == 0
    # the attacker moves first and has already taken the first income
    assert g.to_play(state) == (A,)
    assert state.coins == (3, 0)


def test_exactly_two_players_and_no_options():
    for players in (1, 3):
        with pytest.raises(BadOptions):
            g.new(players, None, 1)
    with pytest.raises(BadOptions):
        g.new(2, {"double_nine": True}, 1)
    assert g.info.hidden_information


def test_a_run_waiting_for_the_ghost_survives_saving_and_replays_exactly():
    state = play(airfield("3-5", "0-0", rng=rolling(1, 3, 5, 6, 6)), "fly 3-5", "fly 0-0", "bomb")
    assert state.run is not None
    restored = g.from_json(g.to_json(state))
    assert restored == state
    assert play(restored, "reroll 1") == play(state, "reroll 1")
