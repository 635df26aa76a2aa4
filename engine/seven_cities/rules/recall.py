"""Recall: out of city tokens, destroy one of your own unshielded cities for its token."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Recall, tile_key
from engine.seven_cities.cities import remove_city, supply
from engine.seven_cities.state import TURN, State
from engine.seven_cities.tokens import shielded


def targets(state: State, seat: int) -> list[Recall]:
    if supply(state, seat) > 0:
        return []
    geo, guarded = state.geo, shielded(state)
    mine = [geo.name(t) for t, c in state.here.items() if c.owner == seat and t not in guarded]
    return [Recall(name) for name in sorted(mine, key=tile_key)]


def refusal(state: State, seat: int, action: Recall) -> str | None:
    tile = state.geo.tile_named(action.tile)
    if tile is None:
        return f"There is no tile {action.tile} on the board."
    if supply(state, seat) > 0:
        return "You may destroy your own city for its token only when you have none left."
    city = state.here.get(tile)
    if city is None or city.owner != seat or tile in shielded(state):
        return f"{action.tile} does not hold an unshielded city of yours."
    return None


def effect(state: State, seat: int, action: Recall) -> tuple[State, list[Event]]:
    tile = state.geo.tile(action.tile)
    text = f"{seat_ref(seat)} is out of city tokens and destroys their city on {action.tile}."
    return replace(remove_city(state, tile), marks=(tile,)), [Event("recall", text)]


RULE = Rule(Recall, refusal, effect, targets, stages=frozenset({TURN}))
