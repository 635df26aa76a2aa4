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


def _afloat(state: State, seat: int) -> bool:
    pos = state.positions[seat]
    assert pos is not None
    return (
        supply(state, seat) > 0
        and pos[0] == PAST
        and state.geo.terrain(pos) == LIGHT
        and pos not in state.here
    )


def targets(state: State, seat: int, card: str) -> list[Play]:
    return [Play(card)] if _afloat(state, seat) else []


def refusal(state: State, seat: int, play: Play) -> str | None:
    if _afloat(state, seat):
        return None
    return (
        "Build Atlantis cannot be played now: your token must be on an empty past light sea "
        "tile, with a token left."
    )


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    pos = state.positions[seat]
    assert pos is not None
    text = f"{seat_ref(seat)} plays Build Atlantis: a city on {state.geo.name(pos)}."
    state = replace(to_red(state, seat, play.card), marks=(pos,))
    events = [Event("play", text)]
    return built(state, seat, pos, events, direct=True), events
