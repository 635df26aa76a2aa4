"""End (step 5): the seat declares its turn over, and it counts as played.

What follows — the other side's turn starting, boats unloading, income, or the turn
limit ending the game — is ``flow.after``'s.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import End
from engine.bridges_and_boats.state import State
from engine.bridges_and_boats.steps import fire_due
from engine.core import Event, Rule, evolve, offered


def refusal(state: State, seat: int, action: End) -> str | None:
    if fire_due(state):
        return "Your cannons fire by themselves before the turn can end: play `fire`."
    return None


def effect(state: State, seat: int, action: End) -> tuple[State, list[Event]]:
    return evolve(state, turns=state.turns + 1), []


RULE = Rule(End, refusal, effect, offered(End(), refusal))
