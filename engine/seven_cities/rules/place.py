"""Place: Expedition's drawn past tile group goes down overlapping nothing and touching the
past tile matching your token's place; its future twin appears in the same place."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Place
from engine.seven_cities.board import PAST, group_cells, neighbours_of
from engine.seven_cities.state import FOUND, PLACE, State


def targets(state: State, seat: int) -> list[Place]:
    pos = state.positions[seat]
    assert pos is not None
    return [Place(q, r, rot) for q, r, rot in state.geo.placements_touching((pos[1], pos[2]))]


def refusal(state: State, seat: int, action: Place) -> str | None:
    pos = state.positions[seat]
    assert pos is not None
    q, r, rotation = action.q, action.r, action.rotation
    taken = state.geo.cell_of
    # the anchors ``board.placements_touching`` looks at: within 3 steps either way
    near = abs(q - pos[1]) <= 3 and abs(r - pos[2]) <= 3 and rotation in range(6)
    cells = group_cells(q, r, rotation)
    touching = set(neighbours_of((pos[1], pos[2]))).intersection(cells)
    if near and touching and not any(c in taken for c in cells):
        return None
    return (
        f"Tile group {state.expedition} cannot lie at {q},{r} r{rotation}: it must "
        "overlap no tile and touch your place in the past."
    )


def effect(state: State, seat: int, action: Place) -> tuple[State, list[Event]]:
    group = state.expedition
    assert group is not None
    pos = state.positions[seat]
    assert pos is not None
    text = (
        f"{seat_ref(seat)} lays past tile group {group} next to "
        f"{state.geo.name((PAST, *pos[1:]))}; its future twin appears in the same place."
    )
    placement = (group, action.q, action.r, action.rotation)
    state = replace(state, placements=state.placements + (placement,), stage=FOUND)
    geo = state.geo
    cells = tuple((PAST, c[0], c[1]) for c in geo.order if geo.cell_of[c][0] == group)
    return replace(state, marks=cells), [Event("place", text)]


RULE = Rule(Place, refusal, effect, targets, stages=frozenset({PLACE}))
