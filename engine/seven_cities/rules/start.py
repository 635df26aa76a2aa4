"""Start: before round 1, in player order, each seat chooses a starting future tile."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Start
from engine.seven_cities.board import FUTURE
from engine.seven_cities.state import START, State, replace_at


def targets(state: State, seat: int) -> list[Start]:
    geo = state.geo
    return [Start(geo.name(t)) for t in geo.tiles(FUTURE)]


def refusal(state: State, seat: int, action: Start) -> str | None:
    tile = state.geo.tile_named(action.tile)
    if tile is None:
        return f"There is no tile {action.tile} on the board."
    if tile[0] != FUTURE:
        return "Start on a future tile (its name begins with `f`)."
    return None


def effect(state: State, seat: int, action: Start) -> tuple[State, list[Event]]:
    """The token goes down; ``flow`` then asks the next seat, or begins round 1."""
    tile = state.geo.tile(action.tile)
    state = replace(state, positions=replace_at(state.positions, seat, tile), marks=(tile,))
    return state, [Event("start", f"{seat_ref(seat)} starts on {action.tile}.")]


RULE = Rule(Start, refusal, effect, targets, stages=frozenset({START}))
