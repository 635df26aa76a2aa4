"""End your turn: unused action points are lost, the cards earned by future land builds
are drawn, and a hand of more than two must be discarded down (``discard``)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_cities.actions import End
from engine.seven_cities.cards import count
from engine.seven_cities.piles import draw
from engine.seven_cities.state import DISCARD, HAND_LIMIT, TURN, State


def targets(state: State, seat: int) -> list[End]:
    return [End()]


def refusal(state: State, seat: int, action: End) -> str | None:
    return None


def effect(state: State, seat: int, action: End) -> tuple[State, list[Event]]:
    text = f"{seat_ref(seat)} ends their turn"
    if state.ap:
        text += f" ({state.ap} unused AP lost)"
    events = [Event("end-turn", text + ".")]
    if state.land_builds:
        state = draw(state, seat, state.land_builds, events)
    state = replace(state, ap=0, land_builds=0, marks=())
    extra = len(state.hands[seat]) - HAND_LIMIT
    if extra > 0:
        text = f"{seat_ref(seat)} must discard {count(extra)} (down to 2)."
        events.append(Event("discard-due", text))
        state = replace(state, stage=DISCARD)
    return state, events


RULE = Rule(End, refusal, effect, targets, stages=frozenset({TURN}))
