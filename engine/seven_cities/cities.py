"""The cities: how many each seat has where, its tokens left, and what a new one sets off.

The moves, the flow of the round, the score and the view all ask these questions, so
they are answered once here.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.board import FUTURE, FUTURE_LAND, PAST, WATER, Tile, twin
from engine.seven_cities.state import CITY_TOKENS, SANDS, City, State, Window


def supply(state: State, seat: int) -> int:
    """City tokens ``seat`` still has in hand (a Metropolis holds two)."""
    return CITY_TOKENS - sum(c.size for c in state.cities if c.owner == seat)


def future_cities(state: State, seat: int) -> int:
    return sum(c.size for c in state.cities if c.owner == seat and c.tile[0] == FUTURE)


def water_cities(state: State, seat: int) -> int:
    """Future cities on light or deep sea: the rulebook's tie-break."""
    geo = state.geo
    return sum(
        c.size
        for c in state.cities
        if c.owner == seat and c.tile[0] == FUTURE and geo.terrain(c.tile) in WATER
    )


def all_cities(state: State, seat: int) -> int:
    return sum(c.size for c in state.cities if c.owner == seat)


def crowded(state: State, tile: Tile) -> bool:
    """At least three of the six surrounding tiles hold a city (Metropolis's condition)."""
    here = state.here
    return sum(n in here for n in state.geo.neighbours(tile)) >= 3


def place_city(state: State, tile: Tile, owner: int, size: int = 1) -> State:
    """``owner``'s city on ``tile``, replacing whatever city stood there."""
    others = tuple(c for c in state.cities if c.tile != tile)
    cities = tuple(sorted(others + (City(tile, owner, size),), key=lambda c: c.tile))
    return replace(state, cities=cities)


def remove_city(state: State, tile: Tile) -> State:
    return replace(state, cities=tuple(c for c in state.cities if c.tile != tile))


def built(state: State, seat: int, tile: Tile, events: list[Event], direct: bool) -> State:
    """``seat``'s new city on ``tile``. A direct build on future land earns a card at the
    end of the turn; a city new in the past may be answered with Sands of Time by the
    owner of the future city above it, so it opens that seat's window."""
    state = place_city(state, tile, seat)
    if direct and tile[0] == FUTURE and state.geo.terrain(tile) in FUTURE_LAND:
        state = replace(state, land_builds=state.land_builds + 1)
    if tile[0] != PAST:
        return state
    future = state.here.get(twin(tile))
    if future is None or future.owner == seat or future.owner in state.resigned:
        return state
    owner = future.owner
    events.append(
        Event(
            "window",
            f"{seat_ref(owner)} owns the future city on {state.geo.name(twin(tile))}: "
            "they may answer with Sands of Time, or `pass`.",
        )
    )
    window = Window(kind=SANDS, by=seat, waiting=(owner,), tile=tile)
    return replace(state, windows=state.windows + (window,))
