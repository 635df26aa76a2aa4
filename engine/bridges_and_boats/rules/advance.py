"""Advance (attacker, step 4 first): soldiers on the bridge move one space, front first
(with the option ``bridge_speed``, up to that many spaces each).

A soldier moves if the space ahead is free and its section stands; moving off space 12
is crossing the river. Once a turn, before any new soldier enters (RULINGS §5.2).
"""

from __future__ import annotations

from engine.bridges_and_boats import board
from engine.bridges_and_boats.actions import Advance
from engine.bridges_and_boats.board import movable, soldiers
from engine.bridges_and_boats.state import ADVANCE, ATTACKER, State
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, seat_ref


def targets(state: State, seat: int) -> list[Advance]:
    if _turn_refusal(state, seat):
        return []
    can = movable(state.bridge, state.spaces, state.rules.speed)
    return [Advance(n) for n in range(1, can + 1)]


def _turn_refusal(state: State, seat: int) -> str | None:
    """What stops any advance now, however many soldiers it names."""
    if reason := role_refusal(seat, ATTACKER):
        return reason
    if "advance" in state.done:
        return f"You have already advanced this turn: a soldier moves {_reach(state)} a turn."
    return order_refusal(state, ADVANCE)


def refusal(state: State, seat: int, action: Advance) -> str | None:
    if reason := _turn_refusal(state, seat):
        return reason
    can = movable(state.bridge, state.spaces, state.rules.speed)
    if can == 0:
        return (
            "No soldier on the bridge can move: each needs a free space ahead "
            "on a section that stands."
        )
    if not 1 <= action.count <= can:
        return f"Advance 1 to {can} soldiers (front first): that many can move now."
    return None


def effect(state: State, seat: int, action: Advance) -> tuple[State, list[Event]]:
    speed = state.rules.speed
    spaces, moved, crossed = board.advance(state.bridge, state.spaces, action.count, speed)
    text = f"{seat_ref(ATTACKER)} advances {soldiers(moved)}"
    text += " one space" if speed == 1 else f" up to {_reach(state)}"
    if crossed:
        text += f"; {soldiers(crossed)} crossed the river ({state.crossed + crossed} in all)"
    advanced = evolve(
        state,
        spaces=spaces,
        crossed=state.crossed + crossed,
        stage=ADVANCE,
        done=state.done | {"advance"},
    )
    return advanced, [Event("advance", text + ".")]


def _reach(state: State) -> str:
    """How far a soldier moves a turn, in words (option ``bridge_speed``)."""
    return "one space" if state.rules.speed == 1 else f"{state.rules.speed} spaces"


RULE = Rule(Advance, refusal, effect, targets)
