"""Enter (attacker, step 4): a coin becomes a soldier on space 1.

One a turn: space 1 holds one soldier and stepping onto it is his move. Section 1 must
stand (RULINGS §5.2). With the option ``bridge_speed`` a soldier's move is that many
spaces, stepping on the first of them, so he walks on as far as he can, and as many
soldiers as the speed may enter a turn, each freeing space 1 for the next [P].
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Enter
from engine.bridges_and_boats.board import walk
from engine.bridges_and_boats.state import ATTACKER, ENTER, State, pay, set_at
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, offered, seat_ref


def refusal(state: State, seat: int, action: Enter) -> str | None:
    if reason := role_refusal(seat, ATTACKER):
        return reason
    if entered(state) >= state.rules.speed:
        if state.rules.speed == 1:
            return "One soldier enters the bridge a turn: stepping onto space 1 is his move."
        return f"{state.rules.speed} soldiers enter the bridge a turn, as fast as they move."
    if reason := order_refusal(state, ENTER):
        return reason
    if state.bridge[0] is None:
        return "Section 1 of the bridge does not stand, so no soldier can step onto it."
    if state.spaces[0]:
        return "Space 1 is taken: only one soldier fits on a space."
    if state.coins[ATTACKER] < 1:
        return "A soldier is a coin, and you have none."
    return None


def entered(state: State) -> int:
    """How many soldiers have entered the bridge this turn."""
    return sum(step.startswith("enter") for step in state.done)


def effect(state: State, seat: int, action: Enter) -> tuple[State, list[Event]]:
    number = entered(state) + 1
    spaces, at = walk(state.bridge, set_at(state.spaces, 0, True), 0, state.rules.speed - 1)
    on = f"the bridge, as far as space {(at or 0) + 1}" if at else "space 1"
    done = "enter" if number == 1 else f"enter {number}"
    stepped = evolve(pay(state, ATTACKER, 1), spaces=spaces, stage=ENTER, done=state.done | {done})
    return stepped, [Event("enter", f"{seat_ref(seat)} sends a soldier onto {on}.")]


RULE = Rule(Enter, refusal, effect, offered(Enter(), refusal))
