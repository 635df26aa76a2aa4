"""Time travel: 1 action point to the matching tile of the other era (walls do not stop it)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import Time
from engine.seven_cities.board import FUTURE, twin
from engine.seven_cities.state import TURN, State, replace_at


def targets(state: State, seat: int) -> list[Time]:
    return [Time()] if state.ap >= 1 else []


def refusal(state: State, seat: int, action: Time) -> str | None:
    if state.ap < 1:
        return "Time travel costs 1 AP and you have none: play a card for its points (`ap`)."
    return None


def effect(state: State, seat: int, action: Time) -> tuple[State, list[Event]]:
    pos = state.positions[seat]
    assert pos is not None
    there = twin(pos)
    era = "future" if there[0] == FUTURE else "past"
    state = replace(
        state, positions=replace_at(state.positions, seat, there), ap=state.ap - 1, marks=(there,)
    )
    text = f"{seat_ref(seat)} travels to the {era}, to {state.geo.name(there)} (1 AP)."
    return state, [Event("time", text)]


RULE = Rule(Time, refusal, effect, targets, stages=frozenset({TURN}))
