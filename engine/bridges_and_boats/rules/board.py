"""Board (attacker, step 4): a coin becomes a soldier in a boat on the attacker's bank.

A boat holds two; the first soldier aboard turns it face up for both players (RULINGS
§5.1). Boats are loaded before any is launched.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Board
from engine.bridges_and_boats.state import ATTACKER, BOARD, State, find_boat, pay
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve


def targets(state: State, seat: int) -> list[Board]:
    moves = (Board(b.number) for b in state.boats if not b.launched)
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Board) -> str | None:
    if reason := role_refusal(seat, ATTACKER) or order_refusal(state, BOARD):
        return reason
    boat = find_boat(state, action.boat)
    if boat is None or boat.launched:
        return f"There is no boat b{action.boat} on your bank."
    if boat.soldiers >= 2:
        return f"Boat b{action.boat} is full: a boat holds two soldiers."
    if state.coins[ATTACKER] < 1:
        return "A soldier is a coin, and you have none."
    return None


def effect(state: State, seat: int, action: Board) -> tuple[State, list[Event]]:
    boat = find_boat(state, action.boat)
    assert boat is not None
    if boat.soldiers == 0:
        text = f"A soldier boards boat b{boat.number}, which turns face up: {boat.domino}."
    else:
        text = f"A second soldier boards boat b{boat.number} ({boat.domino}); it is full."
    loaded = evolve(boat, soldiers=boat.soldiers + 1)
    boarded = evolve(
        pay(state, ATTACKER, 1),
        boats=tuple(loaded if b == boat else b for b in state.boats),
        stage=BOARD,
    )
    return boarded, [Event("board", text)]


RULE = Rule(Board, refusal, effect, targets)
