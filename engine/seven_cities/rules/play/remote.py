"""Remote Construction: your token in the future, build on an empty future tile next to
it, for free; it earns the land card like any direct build."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import FUTURE
from engine.seven_cities.cities import built, supply
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import State


def targets(state: State, seat: int, card: str) -> list[Play]:
    pos = state.positions[seat]
    assert pos is not None
    if supply(state, seat) == 0 or pos[0] != FUTURE:
        return []
    empty = [t for t in state.geo.neighbours(pos) if t not in state.here]
    return [Play(card, (n,)) for n in state.geo.sorted_names(empty)]


def refusal(state: State, seat: int, play: Play) -> str | None:
    pos = state.positions[seat]
    assert pos is not None
    if supply(state, seat) == 0 or pos[0] != FUTURE:
        return (
            "Remote Construction cannot be played now: your token must be in the future, "
            "next to an empty tile, with a token left."
        )
    tile = state.geo.tile(play.tiles[0])
    if tile in state.here or tile not in state.geo.neighbours(pos):
        return "Remote Construction builds on an empty future tile next to your token."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    events = [
        Event("play", f"{seat_ref(seat)} plays Remote Construction: a city on {play.tiles[0]}.")
    ]
    state = replace(to_red(state, seat, play.card), marks=(tile,))
    return built(state, seat, tile, events, direct=True), events
