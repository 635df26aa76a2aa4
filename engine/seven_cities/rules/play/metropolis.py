"""Metropolis: your future city with at least three neighbouring cities becomes a
Metropolis, worth two cities and holding two tokens. Played on your turn, or out of turn
when a window offers it: a future city that newly has three neighbours asks its owner."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import FUTURE, Tile
from engine.seven_cities.cities import crowded, place_city, supply
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import (
    METROPOLIS,
    STAGES,
    TURN,
    State,
    Window,
    answered,
    in_turn_order,
)


def _grows(state: State, seat: int, tile: Tile) -> bool:
    city = state.here.get(tile)
    return (
        tile[0] == FUTURE
        and city is not None
        and city.owner == seat
        and city.size == 1
        and supply(state, seat) > 0
        and crowded(state, tile)
    )


def targets(state: State, seat: int, card: str) -> list[Play]:
    tiles = [t for t in state.here if _grows(state, seat, t)]
    return [Play(card, (n,)) for n in state.geo.sorted_names(tiles)]


def refusal(state: State, seat: int, play: Play) -> str | None:
    tile = state.geo.tile(play.tiles[0])
    if _grows(state, seat, tile):
        return None
    if supply(state, seat) == 0:
        return "Metropolis needs a city token of yours left: a Metropolis holds two."
    return (
        "Metropolis needs your future city with at least 3 neighbouring cities, "
        f"and {play.tiles[0]} is not one."
    )


def answers(state: State, seat: int) -> list[Play]:
    """The offers the open window makes ``seat`` that still stand (the card is held)."""
    geo = state.geo
    return [
        Play(METROPOLIS, (geo.name(tile),))
        for owner, tile in state.windows[0].offers
        if owner == seat and _grows(state, seat, tile)
    ]


def answer(state: State, seat: int, play: Play) -> str | None:
    tile = state.geo.tile(play.tiles[0])
    if (seat, tile) in state.windows[0].offers and _grows(state, seat, tile):
        return None
    return STAGES[METROPOLIS].prompt


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    text = (
        f"{seat_ref(seat)} plays Metropolis: their city on {play.tiles[0]} "
        "becomes a Metropolis (2 cities)."
    )
    state = place_city(to_red(state, seat, METROPOLIS), tile, seat, size=2)
    if state.windows and seat in state.windows[0].waiting:  # played as an answer
        state = answered(state, seat)
    return replace(state, marks=(tile,)), [Event("play", text)]


def chances(state: State) -> frozenset[tuple[int, Tile]]:
    """(owner, tile) of every future city that could become a Metropolis now: a single
    city with at least three neighbouring cities, its owner playing and with a token."""
    return frozenset(
        (c.owner, c.tile)
        for c in state.cities
        if c.tile[0] == FUTURE
        and c.size == 1
        and c.owner not in state.resigned
        and supply(state, c.owner) > 0
        and crowded(state, c.tile)
    )


def offer(state: State, events: list[Event]) -> State:
    """After every move, open a window for each future city that has just become able to
    grow into a Metropolis, asking its owner (the seat to play may do it on its turn)."""
    if state.windows:
        return state
    ready = chances(state)
    new = sorted(
        (s, t) for s, t in ready - state.offered if not (s == state.turn and state.stage == TURN)
    )
    state = replace(state, offered=ready)
    if not new:
        return state
    geo = state.geo
    seats = in_turn_order(state, {s for s, _ in new}, state.turn)
    where = ", ".join(f"{seat_ref(s)} on {geo.name(t)}" for s, t in new)
    events.append(
        Event(
            "window",
            f"A future city now has three neighbours ({where}): its owner may answer with "
            "Metropolis, or `pass`.",
        )
    )
    window = Window(kind=METROPOLIS, by=state.turn, waiting=seats, offers=tuple(new))
    return replace(state, windows=(window,))
