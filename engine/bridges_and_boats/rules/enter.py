"""Enter (attacker, step 4): a coin becomes a soldier on space 1.

One a turn: space 1 holds one soldier and stepping onto it is his move. Section 1 must
stand (RULINGS §5.2).
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Enter
from engine.bridges_and_boats.state import ATTACKER, ENTER, State, pay, set_at
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, offered, seat_ref


def refusal(state: State, seat: int, action: Enter) -> str | None:
    if reason := role_refusal(seat, ATTACKER):
        return reason
    if "enter" in state.done:
        return "One soldier enters the bridge a turn: stepping onto space 1 is his move."
    if reason := order_refusal(state, ENTER):
        return reason
    if state.bridge[0] is None:
        return "Section 1 of the bridge does not stand, so no soldier can step onto it."
    if state.spaces[0]:
        return "Space 1 is taken: only one soldier fits on a space."
    if state.coins[ATTACKER] < 1:
        return "A soldier is a coin, and you have none."
    return None


def effect(state: State, seat: int, action: Enter) -> tuple[State, list[Event]]:
    entered = evolve(
        pay(state, ATTACKER, 1),
        spaces=set_at(state.spaces, 0, True),
        stage=ENTER,
        done=state.done | {"enter"},
    )
    return entered, [Event("enter", f"{seat_ref(seat)} sends a soldier onto space 1.")]


RULE = Rule(Enter, refusal, effect, offered(Enter(), refusal))
