"""Roll: the roller rolls all six dice to start a turn (rulebook "How to play").

A player's turn waits for their `roll`, so the roller sees the dice come up and the
turn's first ping goes to them; Euler rolls his own turns at once (``flow``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule
from engine.seven_bridges.actions import Roll
from engine.seven_bridges.dice import DICE, roll
from engine.seven_bridges.state import ROLL, State, dice_text, name_of, roller


def targets(state: State, seat: int) -> list[Roll]:
    return [Roll()]


def refusal(state: State, seat: int, action: Roll) -> str | None:
    """Nothing to refuse: the roller is asked to roll (stage ``roll``) until they do."""
    return None


def effect(state: State, seat: int, action: Roll) -> tuple[State, list[Event]]:
    events: list[Event] = []
    return rolled(state, events), events


def rolled(state: State, events: list[Event]) -> State:
    """The roller rolls all six dice."""
    dice, rng = roll(state.rng, DICE)
    state = replace(state, rolling=False, dice=dice, rng=rng)
    events.append(
        Event(
            "roll",
            f"Round {state.round + 1}, turn {state.turn + 1}: {name_of(state, roller(state))} "
            f"rolls {dice_text(state, tuple(range(DICE)))}.",
        )
    )
    return state


RULE = Rule(Roll, refusal, effect, targets, stages=frozenset({ROLL}))
