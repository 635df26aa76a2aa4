"""The result: soldiers crossed against the coins the defender holds (RULINGS §5.6)."""

from __future__ import annotations

from engine.bridges_and_boats.board import coins, soldiers
from engine.bridges_and_boats.state import ATTACKER, DEFENDER, ROLES, State
from engine.core import Result


def result(state: State) -> Result:
    """The attacker wins if more soldiers crossed than the defender holds coins; equal
    is a tie. A seat that resigned loses."""
    crossed, held = state.crossed, state.coins[DEFENDER]
    scores = (crossed, held)
    tally = f"{soldiers(crossed)} crossed against {coins(held)} held by the defender"
    if state.resigned:
        (loser,) = state.resigned
        places = (2, 1) if loser == ATTACKER else (1, 2)
        return Result(scores, places, f"The {ROLES[loser]} resigned.")
    if crossed > held:
        return Result(scores, (1, 2), f"{tally}: the attacker wins.")
    if crossed < held:
        return Result(scores, (2, 1), f"{tally}: the defender wins.")
    return Result(scores, (1, 1), f"{tally}: a tie.")
