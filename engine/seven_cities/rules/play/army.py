"""Standing Army: a shield on a city with none, protecting it for good from removal and
from the timeshift. Four shields in all, at most three placed by one player."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import SHIELDS, SHIELDS_EACH, State
from engine.seven_cities.tokens import shielded


def _spent(state: State, seat: int) -> str | None:
    if len(state.shields) >= SHIELDS:
        return f"Standing Army cannot be played now: all {SHIELDS} shields are out."
    if sum(1 for _, s in state.shields if s == seat) >= SHIELDS_EACH:
        return f"Standing Army cannot be played now: {SHIELDS_EACH} of the shields are yours."
    return None


def targets(state: State, seat: int, card: str) -> list[Play]:
    if _spent(state, seat):
        return []
    guarded = shielded(state)
    bare = [t for t in state.here if t not in guarded]
    return [Play(card, (n,)) for n in state.geo.sorted_names(bare)]


def refusal(state: State, seat: int, play: Play) -> str | None:
    spent = _spent(state, seat)
    if spent:
        return spent
    tile = state.geo.tile(play.tiles[0])
    if tile not in state.here or tile in shielded(state):
        return f"Standing Army shields a city with no shield yet, and {play.tiles[0]} is not one."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    text = f"{seat_ref(seat)} plays Standing Army: a shield on {play.tiles[0]}."
    state = to_red(state, seat, play.card)
    return replace(state, shields=state.shields + ((tile, seat),), marks=(tile,)), [
        Event("play", text)
    ]
