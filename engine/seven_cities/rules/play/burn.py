"""Burn City: your token stands on an unshielded rival city on soil, forest or mountain;
unless someone answers with Defend City (see ``defend``), the city burns."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import PLAIN_LAND
from engine.seven_cities.cities import remove_city
from engine.seven_cities.rules.play.defend import attack
from engine.seven_cities.state import State, Window
from engine.seven_cities.tokens import shielded

WHY = (
    "Burn City cannot be played now: your token must stand on an unshielded rival city on "
    "soil, forest or mountain."
)


def _burnable(state: State, seat: int) -> bool:
    pos = state.positions[seat]
    assert pos is not None
    city = state.here.get(pos)
    return (
        city is not None
        and city.owner != seat
        and pos not in shielded(state)
        and state.geo.terrain(pos) in PLAIN_LAND
    )


def refusal(state: State, seat: int, play: Play) -> str | None:
    return None if _burnable(state, seat) else WHY


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    pos = state.positions[seat]
    assert pos is not None
    return attack(state, seat, play.card, pos)


def strike(state: State, window: Window, events: list[Event]) -> State:
    """Nobody defended: the city burns, and Burn City goes to red."""
    tile = window.tile
    assert tile is not None
    owner = state.here[tile].owner
    text = f"Nobody defends: {seat_ref(owner)}'s city on {state.geo.name(tile)} burns."
    events.append(Event("burn", text))
    return remove_city(replace(state, red=state.red + (window.card,)), tile)
