"""Turn order: one piece per turn clockwise; a seat that cannot place is out for good,
and so is one that resigned (it finishes last); one seat left ends the game."""

from __future__ import annotations

from dataclasses import replace

from engine.core import TURN, Event, Stage, seat_ref, too_few_left
from engine.skybridge.actions import Action
from engine.skybridge.rules.place import can_place
from engine.skybridge.state import State


def awaited(state: State) -> dict[int, Stage]:
    return {} if state.turn < 0 else {state.turn: TURN}


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """Whoever placed passes the turn on."""
    return advance(state, seat, events)


def resigned(state: State, seat: int, events: list[Event]) -> State:
    """The seat places nothing more: fewer than two left ends the game; otherwise play
    passes on if it was theirs."""
    state = replace(state, out=state.out | {seat})
    if too_few_left(state):
        events.append(Event("end", "Game over."))
        return replace(state, turn=-1)
    return advance(state, seat, events) if state.turn == seat else state


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
