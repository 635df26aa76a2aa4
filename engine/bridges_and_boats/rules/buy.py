"""Buy (step 2): pay the domino price for the top domino of the pool, seen by the buyer
alone.

Buying the last domino ends the game at once (RULINGS §5.6): that domino is not used,
and the rest of the turn is not played. With declare-before-buying (option ``buying
declare``) the buyer names the domino's use first, ``buy boat``, and it is built at once,
sight unseen; with ``buying look`` it must be put to use at once (``steps.placing``).
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Build, Buy
from engine.bridges_and_boats.board import coins
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.options import DECLARE
from engine.bridges_and_boats.rules import build
from engine.bridges_and_boats.state import BUY, State, pay, set_at
from engine.bridges_and_boats.steps import order_refusal
from engine.core import Event, Rule, evolve, seat_ref


def targets(state: State, seat: int) -> list[Buy]:
    uses = build.KINDS[seat] if state.rules.buying == DECLARE else ("",)
    moves = (Buy(use) for use in uses)
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Buy) -> str | None:
    if reason := order_refusal(state, BUY):
        return reason
    declare = state.rules.buying == DECLARE
    if declare and not action.use:
        kinds = build.KINDS[seat]
        return (
            "Declare-before-buying: name the domino's use as you buy it, "
            f"`buy {kinds[0]}` or `buy {kinds[1]}`."
        )
    if action.use and not declare:
        return "Name the domino's use when you build it; here you just `buy` it."
    if action.use and (reason := build.use_refusal(state, seat, action.use)):
        return reason
    price = state.rules.price
    if state.coins[seat] < price:
        return f"A domino costs {coins(price)} and you have {coins(state.coins[seat])}."
    return None


def effect(state: State, seat: int, action: Buy) -> tuple[State, list[Event]]:
    domino, pool = state.pool[0], state.pool[1:]
    hand = state.hands[seat] + (domino,)
    slot = f"d{len(hand)}"
    hands = set_at(state.hands, seat, hand)
    state = evolve(pay(state, seat, state.rules.price), pool=pool, hands=hands, stage=BUY)
    if action.use and pool:
        return _declared(state, seat, action.use, domino)
    events = [
        Event("buy", f"{seat_ref(seat)} bought a domino ({slot}); {len(pool)} left in the pool."),
        Event("bought", f"You bought {domino} ({slot}).", seat=seat),
    ]
    if pool:
        return state, events
    events.append(Event("over", "That was the last domino of the pool: the game ends at once."))
    return evolve(state, over="pool"), events


def _declared(state: State, seat: int, use: str, domino: Domino) -> tuple[State, list[Event]]:
    """Declare-before-buying: the domino just bought is built as ``use`` at once."""
    built, events = build.effect(state, seat, Build(use, len(state.hands[seat]) - 1))
    left = f"{len(state.pool)} left in the pool"
    buying = Event("buy", f"{seat_ref(seat)} bought a domino for a {use}; {left}.")
    told = Event("bought", f"You bought {domino}, now your {use}.", seat=seat)
    return evolve(built, stage=BUY), [buying, *events, told]


RULE = Rule(Buy, refusal, effect, targets)
