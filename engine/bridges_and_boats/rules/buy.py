"""Buy (step 2): 2 coins for the top domino of the pool, seen by the buyer alone.

Buying the last domino ends the game at once (RULINGS §5.6): that domino is not used,
and the rest of the turn is not played.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.actions import Buy
from engine.bridges_and_boats.board import coins
from engine.bridges_and_boats.dominoes import PRICE
from engine.bridges_and_boats.state import BUY, State, pay, set_at
from engine.bridges_and_boats.steps import order_refusal
from engine.core import Event, Rule, offered, seat_ref


def refusal(state: State, seat: int, action: Buy) -> str | None:
    if reason := order_refusal(state, BUY):
        return reason
    if state.coins[seat] < PRICE:
        return f"A domino costs {coins(PRICE)} and you have {coins(state.coins[seat])}."
    return None


def effect(state: State, seat: int, action: Buy) -> tuple[State, list[Event]]:
    domino, pool = state.pool[0], state.pool[1:]
    hand = state.hands[seat] + (domino,)
    slot = f"d{len(hand)}"
    events = [
        Event("buy", f"{seat_ref(seat)} bought a domino ({slot}); {len(pool)} left in the pool."),
        Event("bought", f"You bought {domino} ({slot}).", seat=seat),
    ]
    hands = set_at(state.hands, seat, hand)
    state = replace(pay(state, seat, PRICE), pool=pool, hands=hands, stage=BUY)
    if pool:
        return state, events
    events.append(Event("over", "That was the last domino of the pool: the game ends at once."))
    return replace(state, over="pool"), events


RULE = Rule(Buy, refusal, effect, offered(Buy(), refusal))
