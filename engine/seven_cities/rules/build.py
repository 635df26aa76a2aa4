"""Build: a city on the tile your token stands on, if it has none, paying its build cost.

Nobody builds on past sea with action points (Build Atlantis is the exception). A city
built on future land earns a card at the end of the turn, and a city new in the past may
be answered with Sands of Time: ``cities.built`` says both for every way of founding one.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, offered, seat_ref
from engine.seven_cities.actions import Build
from engine.seven_cities.board import build_cost
from engine.seven_cities.cities import built, supply
from engine.seven_cities.state import TURN, State


def refusal(state: State, seat: int, action: Build) -> str | None:
    pos = state.positions[seat]
    assert pos is not None
    geo = state.geo
    cost = build_cost(pos[0], geo.terrain(pos))
    if pos in state.here:
        return f"{geo.name(pos)} already has a city."
    if cost is None:
        return f"Nobody builds on past {geo.terrain(pos)} ({geo.name(pos)}) with AP."
    if supply(state, seat) == 0:
        return "You have no city token left: `recall` one of your cities first."
    if cost > state.ap:
        return f"Building on {geo.name(pos)} costs {cost} AP and you have {state.ap}."
    return None


def effect(state: State, seat: int, action: Build) -> tuple[State, list[Event]]:
    pos = state.positions[seat]
    assert pos is not None
    cost = build_cost(pos[0], state.geo.terrain(pos))
    assert cost is not None
    events = [
        Event("build", f"{seat_ref(seat)} builds a city on {state.geo.name(pos)} ({cost} AP).")
    ]
    state = replace(state, ap=state.ap - cost, marks=(pos,))
    return built(state, seat, pos, events, direct=True), events


RULE = Rule(Build, refusal, effect, offered(Build(), refusal), stages=frozenset({TURN}))
