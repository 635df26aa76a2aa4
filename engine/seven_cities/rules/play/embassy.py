"""Embassy: send one or two other players' tokens to a tile with a city of yours (walls
do not stop them)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import State, active, replace_at


def targets(state: State, seat: int, card: str) -> list[Play]:
    others = sorted(s for s in active(state) if s != seat)
    groups = [g for k in (1, 2) for g in combinations(others, k)]
    mine = state.geo.sorted_names(t for t, c in state.here.items() if c.owner == seat)
    return [Play(card, (n,), g) for n in mine for g in groups]


def refusal(state: State, seat: int, play: Play) -> str | None:
    city = state.here.get(state.geo.tile(play.tiles[0]))
    playing = active(state)
    if city is None or city.owner != seat or any(s == seat or s not in playing for s in play.seats):
        return "Embassy sends one or two other players to a tile with your city."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    moved = " and ".join(seat_ref(s) for s in play.seats)
    text = f"{seat_ref(seat)} plays Embassy: {moved} move to {play.tiles[0]}."
    positions = state.positions
    for s in play.seats:
        positions = replace_at(positions, s, tile)
    state = replace(to_red(state, seat, play.card), positions=positions, marks=(tile,))
    return state, [Event("play", text)]
