"""Resign: at any time; the seat places nothing more and finishes last."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.skybridge.actions import Resign
from engine.skybridge.state import State


def refusal(state: State, seat: int, action: Resign) -> str | None:
    return "You have already resigned." if seat in state.resigned else None


def effect(state: State, seat: int, action: Resign) -> tuple[State, list[Event]]:
    """Fewer than two seats left ends the game; otherwise play passes on if it was theirs."""
    resigned = replace(state, resigned=state.resigned | {seat}, out=state.out | {seat})
    events = [Event("resign", f"{seat_ref(seat)} resigned.")]
    if state.players - len(resigned.resigned) < 2:
        return replace(resigned, turn=-1), [*events, Event("end", "Game over.")]
    return resigned, events


RULE = Rule(Resign, refusal, effect, anytime=True)
