"""Questions about a position that the moves, the refusals and the view all ask.

Kept apart from ``game`` so the view can answer "how many future cities" or "is this
tile shielded" the same way the rules do, without importing the game itself.
"""

from __future__ import annotations

from engine.seven_cities.board import FUTURE, PAST, WATER, Board, Tile, board, travel_cost
from engine.seven_cities.state import CITY_TOKENS, City, State


def geometry(state: State) -> Board:
    return board(state.placements)


def cities_at(state: State) -> dict[Tile, City]:
    return {c.tile: c for c in state.cities}


def shielded(state: State) -> frozenset[Tile]:
    return frozenset(t for t, _ in state.shields)


def walled(state: State) -> frozenset[Tile]:
    return frozenset(t for wall in state.walls for t in wall)


def railed(state: State) -> frozenset[Tile]:
    return frozenset(t for rail in state.railways for t in rail)


def supply(state: State, seat: int) -> int:
    """City tokens ``seat`` still has in hand (a Metropolis holds two)."""
    return CITY_TOKENS - sum(c.size for c in state.cities if c.owner == seat)


def future_cities(state: State, seat: int) -> int:
    return sum(c.size for c in state.cities if c.owner == seat and c.tile[0] == FUTURE)


def water_cities(state: State, seat: int) -> int:
    """Future cities on light or deep sea: the rulebook's tie-break."""
    geo = geometry(state)
    return sum(
        c.size
        for c in state.cities
        if c.owner == seat and c.tile[0] == FUTURE and geo.terrain(c.tile) in WATER
    )


def all_cities(state: State, seat: int) -> int:
    return sum(c.size for c in state.cities if c.owner == seat)


def entry_cost(state: State, tile: Tile) -> int | None:
    """Action points to step onto ``tile``: its travel cost, 0 on a railway, None behind a wall."""
    if tile in walled(state):
        return None
    if tile in railed(state):
        return 0
    return travel_cost(tile[0], geometry(state).terrain(tile))


def twin(tile: Tile) -> Tile:
    """The matching tile in the other era."""
    return (PAST if tile[0] == FUTURE else FUTURE, tile[1], tile[2])


def crowded(state: State, tile: Tile, here: dict[Tile, City] | None = None) -> bool:
    """At least three of the six surrounding tiles hold a city (Metropolis's condition)."""
    here = cities_at(state) if here is None else here
    return sum(n in here for n in geometry(state).neighbours(tile)) >= 3


def active(state: State) -> tuple[int, ...]:
    """Seats still playing, in turn order from the Time-Shift holder."""
    n = state.players
    return tuple(s for s in ((state.first + i) % n for i in range(n)) if s not in state.resigned)


def in_turn_order(state: State, seats: list[int] | set[int], after: int) -> tuple[int, ...]:
    """``seats`` clockwise from the one after ``after``."""
    n = state.players
    return tuple(sorted(seats, key=lambda s: (s - after - 1) % n))


def metropolis_chances(state: State) -> frozenset[tuple[int, Tile]]:
    """(owner, tile) of every future city that could become a Metropolis now: a single
    city with at least three neighbouring cities, its owner playing and with a token."""
    here = cities_at(state)
    return frozenset(
        (c.owner, c.tile)
        for c in state.cities
        if c.tile[0] == FUTURE
        and c.size == 1
        and c.owner not in state.resigned
        and supply(state, c.owner) > 0
        and crowded(state, c.tile, here)
    )
