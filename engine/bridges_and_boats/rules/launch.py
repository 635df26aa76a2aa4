"""Launch (attacker, step 4 last): a loaded boat crosses to the defender's bank at once.

There it faces the cannons on the defender's turn, and unloads at the start of the
attacker's next turn if none sinks it (RULINGS §5.3). Boats may not go forth empty.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Launch
from engine.bridges_and_boats.board import soldiers
from engine.bridges_and_boats.state import ATTACKER, DEFENDER, LAUNCH, State, find_boat
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, seat_ref


def targets(state: State, seat: int) -> list[Launch]:
    moves = (Launch(b.number) for b in state.boats if not b.launched)
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Launch) -> str | None:
    if reason := role_refusal(seat, ATTACKER) or order_refusal(state, LAUNCH):
        return reason
    number = action.boat
    boat = find_boat(state, number)
    if boat is None or boat.launched:
        return f"There is no boat b{number} on your bank."
    if boat.soldiers == 0:
        return f"Boat b{number} is empty, and boats may not go forth empty: `board b{number}`."
    return None


def effect(state: State, seat: int, action: Launch) -> tuple[State, list[Event]]:
    boat = find_boat(state, action.boat)
    assert boat is not None
    text = (
        f"Boat b{boat.number} ({boat.domino}) launches with {soldiers(boat.soldiers)} and "
        f"reaches {seat_ref(DEFENDER)}'s bank; it unloads next turn if no cannon sinks it."
    )
    launched = evolve(boat, launched=True)
    boats = tuple(launched if b == boat else b for b in state.boats)
    return evolve(state, boats=boats, stage=LAUNCH), [Event("launch", text)]


RULE = Rule(Launch, refusal, effect, targets)
