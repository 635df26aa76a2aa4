"""Keep (defender, while a run waits): accept the roll, saving the ghost's re-roll for a
later one of the same run."""

from __future__ import annotations

from engine.bridges_and_boats import bombing
from engine.bridges_and_boats.actions import Keep
from engine.bridges_and_boats.state import State
from engine.bridges_and_boats.steps import REROLL
from engine.core import Event, Rule


def targets(state: State, seat: int) -> list[Keep]:
    return [Keep()]


def refusal(state: State, seat: int, action: Keep) -> str | None:
    return None  # a waiting roll may always be kept: the REROLL stage is the only condition


def effect(state: State, seat: int, action: Keep) -> tuple[State, list[Event]]:
    assert state.run is not None
    events: list[Event] = []
    return bombing.settle(state, state.run, events), events


RULE = Rule(Keep, refusal, effect, targets, stages=frozenset({REROLL.name}))
