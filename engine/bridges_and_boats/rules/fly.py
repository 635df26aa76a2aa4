"""Fly (defender, step 4): add a plane to today's bombing run; nothing is paid or rolled
until ``bomb``.

RULINGS §5.5: all sorties are declared together; each costs 1 coin, the ghost flies
free and the ace costs 2. A plane flies at most once a turn.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.actions import Fly
from engine.bridges_and_boats.board import coins
from engine.bridges_and_boats.dominoes import run_cost, sortie_cost
from engine.bridges_and_boats.state import DECLARE, DEFENDER, State
from engine.bridges_and_boats.steps import role_refusal, run_refusal
from engine.core import Event, Rule, seat_ref


def targets(state: State, seat: int) -> list[Fly]:
    moves = (Fly(plane) for plane in state.planes)
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Fly) -> str | None:
    if reason := role_refusal(seat, DEFENDER) or run_refusal(state):
        return reason
    plane = action.plane
    if plane not in state.planes:
        return f"You have no plane {plane} at your air base."
    if plane in state.declared:
        return f"Plane {plane} is already in today's run."
    cost = sortie_cost(plane)
    left = state.coins[DEFENDER] - run_cost(state.declared)
    if cost > left:
        return (
            f"Plane {plane} costs {coins(cost)} to send, and after the planes declared "
            f"so far you have {coins(left)} left."
        )
    return None


def effect(state: State, seat: int, action: Fly) -> tuple[State, list[Event]]:
    declared = replace(state, declared=state.declared + (action.plane,), stage=DECLARE)
    text = f"{seat_ref(seat)} puts plane {action.plane} in today's run."
    return declared, [Event("fly", text)]


RULE = Rule(Fly, refusal, effect, targets)
