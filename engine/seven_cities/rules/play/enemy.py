"""The Enemy of my Enemy: an unshielded rival city becomes a third player's, if that
player has a city token (3+ players)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import Tile
from engine.seven_cities.cities import place_city, supply
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import State, active
from engine.seven_cities.tokens import shielded


def _rival(state: State, seat: int, tile: Tile, guarded: frozenset[Tile]) -> bool:
    city = state.here.get(tile)
    return city is not None and city.owner != seat and tile not in guarded


def _third(state: State, seat: int, owner: int, third: int) -> bool:
    return third not in (seat, owner) and third in active(state) and supply(state, third) > 0


def targets(state: State, seat: int, card: str) -> list[Play]:
    guarded = shielded(state)
    rivals = [t for t in state.here if _rival(state, seat, t, guarded)]
    moves = []
    for name in state.geo.sorted_names(rivals):
        owner = state.here[state.geo.tile(name)].owner
        for third in sorted(active(state)):
            if _third(state, seat, owner, third):
                moves.append(Play(card, (name,), (third,)))
    return moves


def refusal(state: State, seat: int, play: Play) -> str | None:
    tile = state.geo.tile(play.tiles[0])
    rival = _rival(state, seat, tile, shielded(state))
    if rival and _third(state, seat, state.here[tile].owner, play.seats[0]):
        return None
    return "The Enemy of my Enemy names an unshielded rival city and a third player."


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    tile = state.geo.tile(play.tiles[0])
    third = play.seats[0]
    text = (
        f"{seat_ref(seat)} plays The Enemy of my Enemy: {seat_ref(state.here[tile].owner)}'s "
        f"city on {play.tiles[0]} becomes {seat_ref(third)}'s."
    )
    state = place_city(to_red(state, seat, play.card), tile, third)
    return replace(state, marks=(tile,)), [Event("play", text)]
