"""Declaring sorties (defender, step 4): what each plane costs, nothing paid until the
run flies."""

from __future__ import annotations

from tests.engine.bridges_and_boats.conftest import (
    D,
    airfield,
    events_of,
    legal,
    play,
    public,
    refusal,
    rolling,
)


def test_sorties_are_declared_together_then_paid_and_flown():
    state = airfield("3-5", "0-0", "0-1", coins=(0, 2), rng=rolling(1, 1, 1, 1))
    state = play(state, "fly 3-5", "fly 0-0")
    assert state.coins[D] == 2, "nothing is paid or rolled before the run flies"
    assert state.dice == ()
    assert "costs 2 coins" in refusal(state, D, "fly 0-1"), "the ace costs 2; 1 coin is left"
    assert "fly 0-1" not in legal(state)
    assert "already in today's run" in refusal(state, D, "fly 3-5")
    state, events = events_of(state, "bomb")
    assert state.coins[D] == 1, "1 coin for 3-5, the ghost flies free"
    assert "sends 3-5, 0-0 on the bombing run (1 coin)" in public(events)


def test_the_ace_costs_two_coins_a_sortie():
    state = play(airfield("0-1", coins=(0, 2), rng=rolling(3, 3)), "fly 0-1", "bomb")
    assert state.coins[D] == 0
