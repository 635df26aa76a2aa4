"""The shields, the wall and the railways: where they lie and what they do to travel."""

from __future__ import annotations

from engine.seven_cities.board import Tile
from engine.seven_cities.state import State


def shielded(state: State) -> frozenset[Tile]:
    """Tiles under a shield: their cities are never removed nor overwritten."""
    return frozenset(t for t, _ in state.shields)


def walled(state: State) -> frozenset[Tile]:
    return frozenset(t for wall in state.walls for t in wall)


def railed(state: State) -> frozenset[Tile]:
    return frozenset(t for rail in state.railways for t in rail)


def entry_cost(state: State, tile: Tile) -> int | None:
    """Action points to step onto ``tile``: its travel cost, 0 on a railway, None behind a wall."""
    for wall in state.walls:
        if tile in wall:
            return None
    for rail in state.railways:
        if tile in rail:
            return 0
    return state.geo.travel_of[tile]
