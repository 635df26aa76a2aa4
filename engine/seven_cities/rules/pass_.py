"""Pass: decline to react while a reaction window asks you (silence at its deadline is a
pass too). ``flow`` closes the window once nobody is left to answer it."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Pass
from engine.seven_cities.state import STAGES, State, answered

NOTHING = "There is nothing to react to: `pass` answers a reaction window."


def targets(state: State, seat: int) -> list[Pass]:
    return [Pass()] if state.windows else []


def refusal(state: State, seat: int, action: Pass) -> str | None:
    return None if state.windows else NOTHING


def effect(state: State, seat: int, action: Pass) -> tuple[State, list[Event]]:
    state = replace(answered(state, seat), marks=())
    return state, [Event("pass", f"{seat_ref(seat)} does not react.")]


#: asked in every stage, so that outside a window the refusal says what `pass` is for
RULE = Rule(Pass, refusal, effect, targets, stages=frozenset(STAGES))
