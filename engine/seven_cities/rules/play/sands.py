"""Sands of Time: a city new in the past may be removed by the owner of the future city
above it, who is asked each time (``cities.built`` opens that window)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.cities import remove_city
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import SANDS, State, answered


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    window = state.windows[0]
    assert window.tile is not None
    text = (
        f"{seat_ref(seat)} plays Sands of Time: {seat_ref(window.by)}'s new city on "
        f"{state.geo.name(window.tile)} is removed."
    )
    state = remove_city(to_red(state, seat, SANDS), window.tile)
    return answered(replace(state, marks=()), seat), [Event("react", text)]
