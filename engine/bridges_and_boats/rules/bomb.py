"""Bomb (defender, step 4 last): the declared planes pay and fly, one by one.

A plane hits when 2d6 make its pips and strikes deadly when the dice are its two ends;
a second 2d6 names the section hit (RULINGS §5.4–5.5, resolved in ``bombing``). The
ghost pilot never bombs, so a run needs one other plane.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Bomb
from engine.bridges_and_boats.board import coins
from engine.bridges_and_boats.bombing import start_run
from engine.bridges_and_boats.dominoes import run_cost
from engine.bridges_and_boats.planes import named
from engine.bridges_and_boats.state import DEFENDER, RUN, State, pay
from engine.bridges_and_boats.steps import role_refusal, run_refusal
from engine.core import Event, Rule, evolve, offered, seat_ref


def refusal(state: State, seat: int, action: Bomb) -> str | None:
    if reason := role_refusal(seat, DEFENDER) or run_refusal(state):
        return reason
    if not state.declared:
        return "Declare the planes first (`fly 3-5` for each), then `bomb`."
    if all(p.is_ghost for p in state.declared):
        return "The ghost pilot never bombs: declare at least one other plane."
    return None


def effect(state: State, seat: int, action: Bomb) -> tuple[State, list[Event]]:
    cost = run_cost(state.declared)
    planes = ", ".join(named(state, p) for p in state.declared)
    text = f"{seat_ref(DEFENDER)} sends {planes} on the bombing run ({coins(cost)})."
    events = [Event("bomb", text)]
    flying = evolve(
        pay(state, DEFENDER, cost),
        stage=RUN,
        done=state.done | {"bomb"},
        dice=state.dice if "fire" in state.done else (),
    )
    return start_run(_unmasked(flying, events), events), events


def _unmasked(state: State, events: list[Event]) -> State:
    """Secret pilots: the ghost and the ace show who they are by flying (what they cost,
    what they do), so they turn face up for good [P]."""
    special = [p for p in state.declared if p.is_ghost or p.is_ace]
    for plane in special:
        if named(state, plane) != str(plane):
            who = "the ghost pilot" if plane.is_ghost else "the ace"
            events.append(Event("bomb", f"Plane {named(state, plane)} is {who}, {plane}."))
    return evolve(state, shown=state.shown | set(special)) if state.rules.secret_pilots else state


RULE = Rule(Bomb, refusal, effect, offered(Bomb(), refusal))
