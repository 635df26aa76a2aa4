"""Reroll (defender, while a run waits): the ghost pilot re-rolls one die of the roll.

Only in the ``REROLL`` stage (``steps``): a bombing run paused on a roll the ghost's one
re-roll could change. The die is named by the number it shows.
"""

from __future__ import annotations

from engine.bridges_and_boats import bombing
from engine.bridges_and_boats.actions import Reroll
from engine.bridges_and_boats.state import State
from engine.bridges_and_boats.steps import REROLL
from engine.core import Event, Rule


def targets(state: State, seat: int) -> list[Reroll]:
    assert state.run is not None
    return [Reroll(value) for value in sorted(set(state.run.dice))]


def refusal(state: State, seat: int, action: Reroll) -> str | None:
    assert state.run is not None
    if action.value in state.run.dice:
        return None
    a, b = state.run.dice
    return f"No die shows {action.value}: the dice show {a} and {b}."


def effect(state: State, seat: int, action: Reroll) -> tuple[State, list[Event]]:
    events: list[Event] = []
    return bombing.reroll(state, action.value, events), events


RULE = Rule(Reroll, refusal, effect, targets, stages=frozenset({REROLL.name}))
