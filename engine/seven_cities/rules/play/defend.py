"""Defend City: after Burn City or Hostile Takeover is announced, every other player may
answer it; the first defender in turn order negates the attack (the attack card goes to
blue, Defend City to red). Nobody defending, the attack happens (``burn``, ``takeover``)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, seat_ref
from engine.seven_cities.actions import Play
from engine.seven_cities.board import Tile
from engine.seven_cities.cards import name
from engine.seven_cities.piles import take, to_red
from engine.seven_cities.state import (
    DEFEND,
    State,
    Window,
    active,
    answered,
    in_turn_order,
)


def attack(state: State, seat: int, card: str, tile: Tile) -> tuple[State, list[Event]]:
    """``seat`` announces Burn City or Hostile Takeover on ``tile``: the card is held in
    the air while everyone else is asked, holder or not, so being asked tells nothing."""
    owner = state.here[tile].owner
    text = (
        f"{seat_ref(seat)} plays {name(card)} on {seat_ref(owner)}'s city on "
        f"{state.geo.name(tile)}. Every other player may answer with Defend City, or `pass`."
    )
    waiting = in_turn_order(state, [s for s in active(state) if s != seat], seat)
    window = Window(kind=DEFEND, by=seat, waiting=waiting, card=card, tile=tile)
    state = replace(take(state, seat, card), windows=state.windows + (window,), marks=(tile,))
    return state, [Event("window", text)]


def effect(state: State, seat: int, play: Play) -> tuple[State, list[Event]]:
    """The card stays in hand until the window closes: only the first defender uses it."""
    window = state.windows[0]
    window = replace(window, defenders=window.defenders + (seat,))
    state = replace(state, windows=(window,) + state.windows[1:], marks=())
    event = Event("react", f"{seat_ref(seat)} answers with Defend City.")
    return answered(state, seat), [event]


def negate(state: State, window: Window, events: list[Event]) -> State:
    """The window closed with defenders: the first in turn order after the attacker wins."""
    winner = in_turn_order(state, list(window.defenders), window.by)[0]
    assert window.tile is not None
    events.append(
        Event(
            "defend",
            f"{seat_ref(winner)}'s Defend City negates {name(window.card)}: the city on "
            f"{state.geo.name(window.tile)} stands.",
        )
    )
    state = to_red(state, winner, DEFEND)
    return replace(state, blue=state.blue + (window.card,))
