"""Resign: at any time, even during setup; the seat's blocks stay where they are.

The seat is no longer owed a turn in a last round; whether the game ends, or whose
turn it is now, is :func:`engine.bridge_wars.flow.after`'s to say.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridge_wars.actions import Resign
from engine.bridge_wars.state import State
from engine.core import Event, Rule, seat_ref


def refusal(state: State, seat: int, action: Resign) -> str | None:
    return "You have already resigned." if seat in state.resigned else None


def effect(state: State, seat: int, action: Resign) -> tuple[State, list[Event]]:
    final = None if state.final is None else tuple(s for s in state.final if s != seat)
    resigned = replace(state, resigned=state.resigned | {seat}, final=final)
    return resigned, [Event("resign", f"{seat_ref(seat)} resigned.")]


RULE = Rule(Resign, refusal, effect, anytime=True)
