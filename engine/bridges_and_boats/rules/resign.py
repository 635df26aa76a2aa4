"""Resign: at any time, even out of turn or while a run waits; the other side wins."""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.actions import Resign
from engine.bridges_and_boats.state import ROLES, State
from engine.core import Event, Rule, seat_ref


def refusal(state: State, seat: int, action: Resign) -> str | None:
    return None  # a resignation ends the game, so the core's guards refuse a second one


def effect(state: State, seat: int, action: Resign) -> tuple[State, list[Event]]:
    text = f"{seat_ref(seat)} resigned; the {ROLES[1 - seat]} wins."
    return replace(state, over="resign", resigned=seat, run=None), [Event("resign", text)]


RULE = Rule(Resign, refusal, effect, anytime=True)
