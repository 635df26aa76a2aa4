"""Expedition: draw the next past tile group, lay it next to the past tile matching your
token's place (``place``), then found a free city on it (``found``). With the past deck
empty, or no room next to you, the card is only worth its action points."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.piles import to_red
from engine.seven_cities.state import PLACE, State


def refusal(state: State, seat: int, play: Play) -> str | None:
    pos = state.positions[seat]
    assert pos is not None
    if not state.past_deck:
        return "Expedition cannot be played now: the past tile deck is empty."
    if not state.geo.placements_touching((pos[1], pos[2])):
        return "Expedition cannot be played now: no tile group fits next to your place."
    return None


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    group, rest = state.past_deck[0], state.past_deck[1:]
    text = (
        f"{seat_ref(seat)} plays Expedition and draws past tile group {group}: "
        "lay it next to their place in the past (`place`)."
    )
    state = to_red(state, seat, play.card)
    state = replace(state, past_deck=rest, expedition=group, stage=PLACE, marks=())
    return state, [Event("expedition", text)]
