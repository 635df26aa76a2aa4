"""Fly (defender, step 4): add a plane to today's bombing run; nothing is paid or rolled
until ``bomb``.

RULINGS §5.5: all sorties are declared together; each costs 1 coin, the ghost flies
free and the ace costs 2. A plane flies at most once a turn. With match bombing a plane
names its target as it is declared: a standing section whose face-up domino shares a
number with the plane [P]; the ghost, who never bombs, names none.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Fly
from engine.bridges_and_boats.board import SECTIONS, coins
from engine.bridges_and_boats.dominoes import Domino, run_cost, sortie_cost
from engine.bridges_and_boats.planes import name, names, plane_of, plane_refusal
from engine.bridges_and_boats.state import DECLARE, DEFENDER, State
from engine.bridges_and_boats.steps import role_refusal, run_refusal
from engine.core import Event, Rule, evolve, seat_ref


def targets(state: State, seat: int) -> list[Fly]:
    aims = range(1, SECTIONS + 1) if state.rules.match_bombing else ()
    moves = [Fly(plane, aim) for plane in names(state) for aim in (0, *aims)]
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Fly) -> str | None:
    if reason := role_refusal(seat, DEFENDER) or run_refusal(state):
        return reason
    if reason := plane_refusal(state, action.plane):
        return reason
    plane = plane_of(state, action.plane)
    shown = name(action.plane)
    if plane in state.declared:
        return f"Plane {shown} is already in today's run."
    if reason := _aim_refusal(state, plane, shown, action.target):
        return reason
    cost = sortie_cost(plane)
    left = state.coins[DEFENDER] - run_cost(state.declared)
    if cost > left:
        return (
            f"Plane {shown} costs {coins(cost)} to send, and after the planes declared "
            f"so far you have {coins(left)} left."
        )
    return None


def _aim_refusal(state: State, plane: Domino, shown: str, target: int) -> str | None:
    """Match bombing: a bombing plane names a standing section it shares a number with."""
    if not state.rules.match_bombing:
        if target:
            return f"The dice pick the section a plane hits: just `fly {shown}`."
        return None
    if plane.is_ghost and target:
        return "The ghost pilot never bombs: send him with no target, `fly 0-0`."
    if plane.is_ghost:
        return None
    if not target:
        return f"Name the section plane {shown} aims at, e.g. `fly {shown} s4`."
    section = state.bridge[target - 1]
    if section is None:
        return f"Section {target} does not stand: there is nothing there to bomb."
    if not {plane.low, plane.high} & {section.low, section.high}:
        return (
            f"Plane {shown} can only aim at a section sharing a number with it, and "
            f"section {target} is {section}."
        )
    return None


def effect(state: State, seat: int, action: Fly) -> tuple[State, list[Event]]:
    plane = plane_of(state, action.plane)
    shown = name(action.plane)
    aims = state.aims + ((action.target - 1,) if state.rules.match_bombing else ())
    declared = evolve(state, declared=state.declared + (plane,), aims=aims, stage=DECLARE)
    at = f", aiming at section {action.target}" if action.target else ""
    text = f"{seat_ref(seat)} puts plane {shown} in today's run{at}."
    return declared, [Event("fly", text)]


RULE = Rule(Fly, refusal, effect, targets)
