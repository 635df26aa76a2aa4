"""Fire (defender, step 4 first): every cannon rolls a die at the boats on its bank.

RULINGS §5.3: each roll sinks every arrived boat showing that number on either end, and
its soldiers drown (a blank end is never hit). Cannons fire by themselves whenever boats
have arrived, so the bot asks for ``fire`` before anything else of step 4 [P]
(``steps.fire_due``); cannons with nothing left to aim at hold fire.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Fire
from engine.bridges_and_boats.board import soldiers
from engine.bridges_and_boats.dice import roll
from engine.bridges_and_boats.state import DECLARE, DEFENDER, FIRE, Roll, State, spend
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, offered, seat_ref


def refusal(state: State, seat: int, action: Fire) -> str | None:
    if reason := role_refusal(seat, DEFENDER):
        return reason
    if "fire" in state.done:
        return "Your cannons have already fired this turn."
    if reason := order_refusal(state, FIRE):
        return reason
    if not state.cannons:
        return "You have no cannon: build one with `cannon d1`."
    if not any(b.launched for b in state.boats):
        return "No boat has reached your bank, so the cannons have nothing to fire at."
    return None


def effect(state: State, seat: int, action: Fire) -> tuple[State, list[Event]]:
    events = [Event("fire", f"{seat_ref(seat)}'s cannons fire at the boats.")]
    rolls: list[Roll] = []
    for number in range(1, len(state.cannons) + 1):
        afloat = [b for b in state.boats if b.launched]
        if not afloat:
            events.append(Event("fire", "No boat is left afloat: the other cannons hold fire."))
            break
        (value,), state = roll(state, 1)
        sunk = [b for b in afloat if b.domino.shows(value)]
        if not sunk:
            rolls.append(Roll(f"cannon {number}", "fire", (value,), "miss"))
            events.append(Event("fire", f"Cannon {number} rolls {value}: no boat shows a {value}."))
            continue
        names = ("boat " if len(sunk) == 1 else "boats ") + ", ".join(
            f"b{b.number} ({b.domino})" for b in sunk
        )
        outcome = "sinks " + ", ".join(f"b{b.number}" for b in sunk)
        rolls.append(Roll(f"cannon {number}", "fire", (value,), outcome))
        drowned = soldiers(sum(b.soldiers for b in sunk))
        text = f"Cannon {number} rolls {value}: sinks {names}; {drowned} drown."
        events.append(Event("fire", text))
        state = evolve(state, boats=tuple(b for b in state.boats if b not in sunk))
        state = spend(state, tuple(b.domino for b in sunk))
    return evolve(state, dice=tuple(rolls), stage=DECLARE, done=state.done | {"fire"}), events


RULE = Rule(Fire, refusal, effect, offered(Fire(), refusal))
