"""Found: Expedition's free city on an empty past soil, forest or mountain of the new group
(or none). It earns no card, and like any past city it may meet Sands of Time."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Found
from engine.seven_cities.board import PAST, PLAIN_LAND, Tile
from engine.seven_cities.cities import built, supply
from engine.seven_cities.state import FOUND, TURN, State


def _fits(state: State, tile: Tile) -> bool:
    geo = state.geo
    return (
        tile[0] == PAST
        and geo.cell_of[(tile[1], tile[2])][0] == state.expedition
        and geo.terrain(tile) in PLAIN_LAND
        and tile not in state.here
    )


def targets(state: State, seat: int) -> list[Found]:
    geo = state.geo
    moves = []
    if supply(state, seat) > 0:
        for tile in geo.tiles(PAST):
            if _fits(state, tile):
                moves.append(Found(geo.name(tile)))
    return [*moves, Found(None)]


def refusal(state: State, seat: int, action: Found) -> str | None:
    if action.tile is None:
        return None
    tile = state.geo.tile_named(action.tile)
    if tile is None:
        return f"There is no tile {action.tile} on the board."
    if supply(state, seat) == 0:
        return "You have no city token left: `found none`."
    if not _fits(state, tile):
        return (
            f"Expedition's free city goes on an empty past soil, forest or mountain tile "
            f"of group {state.expedition}."
        )
    return None


def effect(state: State, seat: int, action: Found) -> tuple[State, list[Event]]:
    state = replace(state, stage=TURN, expedition=None)
    who = seat_ref(seat)
    if action.tile is None:
        return replace(state, marks=()), [
            Event("found", f"{who} founds no city on the new tile group.")
        ]
    tile = state.geo.tile(action.tile)
    events = [Event("found", f"{who} founds a city on {action.tile} for free.")]
    state = replace(state, marks=(tile,))
    return built(state, seat, tile, events, direct=False), events


RULE = Rule(Found, refusal, effect, targets, stages=frozenset({FOUND}))
