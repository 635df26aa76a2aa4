"""Build Atlantis: a city on the empty past light sea tile your token stands on, for free
(past sea is otherwise never built on)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import LIGHT, PAST
from engine.seven_cities.cities import built, supply
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import State


def refusal(state: State, seat: int, play: Play) -> str | None:
    pos = state.positions[seat]
    assert pos is not None
    if pos[0] != PAST or state.geo.terrain(pos) != LIGHT:
        return "Build Atlantis needs your token on a past light sea tile."
    if pos in state.here:
        return f"{state.geo.name(pos)} already has a city."
    if supply(state, seat) == 0:
        return "You have no city token left: `recall` one of your cities first."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    pos = state.positions[seat]
    assert pos is not None
    text = f"{seat_ref(seat)} plays Build Atlantis: a city on {state.geo.name(pos)}."
    state = replace(to_red(state, seat, play.card), marks=(pos,))
    events = [Event("play", text)]
    return built(state, seat, pos, events, direct=True), events
