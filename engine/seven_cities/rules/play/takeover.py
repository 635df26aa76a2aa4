"""Hostile Takeover: an unshielded rival city next to one of yours (same era) becomes
yours, unless someone answers with Defend City (see ``defend``). It needs a city token."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import Tile
from engine.seven_cities.cities import built, supply
from engine.seven_cities.rules.play.defend import attack
from engine.seven_cities.state import State, Window
from engine.seven_cities.tokens import shielded


def _takeable(state: State, seat: int, tile: Tile, guarded: frozenset[Tile]) -> bool:
    here = state.here
    city = here.get(tile)
    return (
        city is not None
        and city.owner != seat
        and tile not in guarded
        and any(n in here and here[n].owner == seat for n in state.geo.neighbours(tile))
    )


def targets(state: State, seat: int, card: str) -> list[Play]:
    if supply(state, seat) == 0:
        return []
    guarded = shielded(state)
    tiles = [t for t in state.here if _takeable(state, seat, t, guarded)]
    return [Play(card, (n,)) for n in state.geo.sorted_names(tiles)]


def refusal(state: State, seat: int, play: Play) -> str | None:
    if supply(state, seat) == 0:
        return "Hostile Takeover cannot be played now: you have no city token left."
    tile = state.geo.tile(play.tiles[0])
    guarded = shielded(state)
    if tile in guarded and tile in state.here:
        return f"A shield protects {play.tiles[0]}."
    if not _takeable(state, seat, tile, guarded):
        return f"{play.tiles[0]} is not a rival city next to one of your cities."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    return attack(state, seat, play.card, tile)


def strike(state: State, window: Window, events: list[Event]) -> State:
    """Nobody defended: the city is the attacker's now (no card for it), the card to red."""
    tile = window.tile
    assert tile is not None
    owner = state.here[tile].owner
    events.append(
        Event(
            "takeover",
            f"Nobody defends: {seat_ref(window.by)} takes over {seat_ref(owner)}'s city on "
            f"{state.geo.name(tile)}.",
        )
    )
    state = replace(state, red=state.red + (window.card,))
    return built(state, window.by, tile, events, direct=False)
