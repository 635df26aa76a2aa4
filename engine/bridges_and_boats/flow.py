"""Turn order: attacker and defender alternate, each turn ended by ``end``.

A new turn starts by itself: boats that survived the cannons unload (the attacker's
turn), then the seat takes its income (RULINGS §5.3). The game ends when the last
domino is bought (``rules/buy``), when a side resigns (``resigned``), or after 100
turns [P].
"""

from __future__ import annotations

from engine.bridges_and_boats import actions
from engine.bridges_and_boats.actions import Action
from engine.bridges_and_boats.board import soldiers
from engine.bridges_and_boats.state import (
    ATTACKER,
    BUY,
    ROLES,
    TURN_CAP,
    State,
    set_at,
    spend,
)
from engine.bridges_and_boats.steps import PLACING, PLAYING, REROLL, placing
from engine.core import RESIGN, Event, Stage, evolve, seat_ref


def awaited(state: State) -> dict[int, Stage]:
    """The seat whose turn it is, asked for its dice while a bombing run waits on them, or
    to put the domino it has just looked at to use (``buying look``)."""
    if state.over is not None:
        return {}
    if state.run is not None:
        return {state.turn: REROLL}
    return {state.turn: PLACING if placing(state) else PLAYING}


def after(before: State, state: State, seat: int, action: Action, events: list[Event]) -> State:
    """Every action is noted as the last one; a turn just ended starts the next."""
    state = evolve(state, last=(seat, actions.format(action)))
    if state.over is not None or state.turns == before.turns:
        return state
    if state.turns >= TURN_CAP:
        text = (
            f"{TURN_CAP} turns have been played: the game stops here and is scored "
            "(Bridgekeeper's turn limit)."
        )
        events.append(Event("over", text))
        return evolve(state, over="cap")
    nxt = 1 - state.turn
    state = evolve(state, turn=nxt, stage=BUY, done=frozenset(), declared=(), aims=())
    if nxt == ATTACKER:
        state = unload(state, events)
    income = state.rules.income(nxt)
    coins = state.coins[nxt] + income
    events.append(
        Event("income", f"{seat_ref(nxt)} takes {income} coins of income ({coins} in all).")
    )
    return evolve(state, coins=set_at(state.coins, nxt, coins))


def resigned(state: State, seat: int, events: list[Event]) -> State:
    """A side resigns at any time, even out of turn or while a run waits: the other wins."""
    events.append(Event("over", f"The {ROLES[1 - seat]} wins."))
    return evolve(state, over="resign", run=None, last=(seat, RESIGN))


def unload(state: State, events: list[Event]) -> State:
    """RULINGS §5.3: boats that survived the cannons unload before the attacker's income."""
    landed = [b for b in state.boats if b.launched]
    if not landed:
        return state
    total = sum(b.soldiers for b in landed)
    crossed = state.crossed + total
    names = ", ".join(f"b{b.number}" for b in landed)
    boats = f"Boat {names} unloads" if len(landed) == 1 else f"Boats {names} unload"
    text = f"{boats} {soldiers(total)} on the far bank ({crossed} crossed in all)."
    events.append(Event("unload", text))
    state = evolve(state, boats=tuple(b for b in state.boats if not b.launched), crossed=crossed)
    return spend(state, tuple(b.domino for b in landed))
