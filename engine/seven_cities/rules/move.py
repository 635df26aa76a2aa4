"""Move: one step to a neighbouring tile of the same era, paying what entering it costs
(its travel value, 0 on a railway; nobody steps onto a wall)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Move
from engine.seven_cities.state import TURN, State, replace_at
from engine.seven_cities.tokens import entry_cost


def targets(state: State, seat: int) -> list[Move]:
    pos = state.positions[seat]
    assert pos is not None
    moves = []
    for n in state.geo.neighbours(pos):
        cost = entry_cost(state, n)
        if cost is not None and cost <= state.ap:
            moves.append(Move(state.geo.name(n)))
    return moves


def refusal(state: State, seat: int, action: Move) -> str | None:
    geo = state.geo
    tile = geo.tile_of.get(action.tile)
    if tile is None:
        return f"There is no tile {action.tile} on the board."
    pos = state.positions[seat]
    assert pos is not None
    if tile not in geo.near[pos]:
        return f"{action.tile} is not next to {geo.name(pos)}: travel one tile at a time."
    cost = entry_cost(state, tile)
    if cost is None:
        return f"A wall stands on {action.tile}: only time travel or Embassy gets you in."
    if cost > state.ap:
        return f"Entering {action.tile} costs {cost} AP and you have {state.ap}."
    return None


def effect(state: State, seat: int, action: Move) -> tuple[State, list[Event]]:
    tile = state.geo.tile(action.tile)
    cost = entry_cost(state, tile)
    assert cost is not None
    state = replace(
        state,
        positions=replace_at(state.positions, seat, tile),
        ap=state.ap - cost,
        marks=(tile,),
    )
    return state, [Event("move", f"{seat_ref(seat)} travels to {action.tile} ({cost} AP).")]


RULE = Rule(Move, refusal, effect, targets, stages=frozenset({TURN}))
