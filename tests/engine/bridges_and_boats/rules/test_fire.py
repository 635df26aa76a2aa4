"""Cannon fire (defender, step 4 first): one die a cannon, sinking every arrived boat
that shows it."""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.state import Boat, State
from engine.core import Rng
from tests.engine.bridges_and_boats.conftest import (
    D,
    dom,
    events_of,
    legal,
    play,
    position,
    public,
    refusal,
    rolling,
)


def arrived(*boats: tuple[str, int], **fields) -> State:
    """The defender's turn with boats (domino, soldiers) arrived on their bank."""
    fleet = tuple(Boat(n, dom(d), s, True) for n, (d, s) in enumerate(boats, start=1))
    fields.setdefault("cannons", (dom("6-6"),))
    return position(turn=D, boats=fleet, boats_built=len(fleet), **fields)


def test_cannons_fire_first_in_step_four_when_boats_have_arrived():
    state = arrived(("2-5", 2), planes=(dom("3-5"),), coins=(0, 3))
    assert legal(state) == ["buy", "fire"]
    assert "Cannons fire first" in refusal(state, D, "fly 3-5")
    assert "fire by themselves" in refusal(state, D, "end")
    fired = play(replace(state, rng=rolling(1)), "fire")
    assert "already fired" in refusal(fired, D, "fire")
    assert "fire" not in legal(replace(state, cannons=()))


def test_a_cannon_die_matching_an_end_sinks_the_boat_and_drowns_its_soldiers():
    state = arrived(("2-5", 2), rng=rolling(5))
    state, events = events_of(state, "fire")
    assert state.boats == ()
    assert state.discard == (dom("2-5"),)
    assert "Cannon 1 rolls 5: sinks boat b1 (2-5); 2 soldiers drown" in public(events)
    assert [(r.who, r.dice, r.outcome) for r in state.dice] == [("cannon 1", (5,), "sinks b1")]
    state = play(state, "end", "end")
    assert state.crossed == 0


def test_one_die_sinks_every_arrived_boat_that_shows_it():
    state = arrived(("2-5", 1), ("5-5", 2), ("1-3", 1), rng=rolling(5))
    state = play(state, "fire")
    assert [b.number for b in state.boats] == [3]


def test_each_cannon_rolls_and_a_miss_lets_the_boat_through():
    state = arrived(("2-5", 2), cannons=(dom("6-6"), dom("0-2")), rng=rolling(1, 4))
    state, events = events_of(state, "fire")
    assert [r.dice for r in state.dice] == [(1,), (4,)]
    assert "no boat shows a 1" in public(events)
    state = play(state, "end")
    assert state.crossed == 2


def test_the_double_blank_boat_can_never_be_sunk():
    cannons = tuple(DOUBLE_SIX[1:7])  # six cannons
    for seed in range(8):
        state = arrived(("0-0", 2), cannons=cannons, rng=Rng.from_seed(seed))
        state = play(state, "fire")
        assert len(state.boats) == 1
        assert len(state.dice) == 6


def test_cannons_hold_fire_once_no_boat_is_left():
    state = arrived(("2-5", 1), cannons=(dom("6-6"), dom("0-2")), rng=rolling(2))
    state, events = events_of(state, "fire")
    assert len(state.dice) == 1
    assert "hold fire" in public(events)
