"""Resign: at any time; the seat's cards go to the red pile and the others play on. A
window stops waiting for the seat, and ``flow`` passes the turn on if it was theirs."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Resign
from engine.seven_cities.state import State, active, answered, replace_at


def refusal(state: State, seat: int, action: Resign) -> str | None:
    return None  # a seat that resigned is no longer seated: the core refuses it


def effect(state: State, seat: int, action: Resign) -> tuple[State, list[Event]]:
    events = [Event("resign", f"{seat_ref(seat)} resigned.")]
    state = replace(
        state,
        resigned=state.resigned | {seat},
        red=state.red + state.hands[seat],
        hands=replace_at(state.hands, seat, ()),
        marks=(),
    )
    if len(active(state)) < 2:
        events.append(Event("over", "Only one player is left: the game ends."))
        return replace(state, over="resign", windows=()), events
    windows = tuple(
        replace(w, offers=tuple(o for o in w.offers if o[0] != seat)) for w in state.windows
    )
    state = replace(state, windows=windows)
    if windows and seat in windows[0].waiting:
        state = answered(state, seat)
    # a later window simply asks one seat fewer, and is gone if it asked only this one
    later = []
    for window in state.windows[1:]:
        waiting = tuple(s for s in window.waiting if s != seat)
        if waiting:
            later.append(replace(window, waiting=waiting))
    return replace(state, windows=state.windows[:1] + tuple(later)), events


RULE = Rule(Resign, refusal, effect, anytime=True)
