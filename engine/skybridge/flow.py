"""Turn order: one piece per turn clockwise; a seat that cannot place is out for good."""

from __future__ import annotations

from dataclasses import replace

from engine.core import TURN, Event, Stage, seat_ref
from engine.skybridge.actions import Action
from engine.skybridge.rules.place import can_place
from engine.skybridge.state import State


def awaited(state: State) -> dict[int, Stage]:
    return {} if state.turn < 0 else {state.turn: TURN}


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """Whoever held the turn and acted (placed, or resigned on it) passes it on."""
    if state.turn < 0 or before.turn != seat:
        return state
    return advance(state, seat, events)


def skipped(state: State, seat: int) -> tuple[State, list[Event]]:
    """The seat places nothing this turn; play goes on as after a placement."""
    events = [Event("skip", f"{seat_ref(seat)}'s turn was skipped.")]
    return advance(state, seat, events), events


def up_next(state: State) -> int | None:
    """The seat the turn passes to after this one: the next clockwise still in (one
    that cannot place when its turn comes is out then, and the turn passes it by)."""
    if state.turn < 0:
        return None
    for step in range(1, state.players):
        candidate = (state.turn + step) % state.players
        if candidate not in state.out:
            return candidate
    return None


def advance(state: State, seat: int, events: list[Event]) -> State:
    """Pass the turn on; a seat that cannot place when its turn comes is out for good."""
    out = set(state.out)
    for step in range(1, state.players + 1):
        candidate = (seat + step) % state.players
        if candidate in out:
            continue
        if can_place(state, candidate):
            return replace(state, turn=candidate, out=frozenset(out))
        out.add(candidate)
        if any(state.stock[candidate]):
            events.append(Event("out", f"{seat_ref(candidate)} cannot place any piece and is out."))
    events.append(Event("end", "Game over."))
    return replace(state, turn=-1, out=frozenset(out))
