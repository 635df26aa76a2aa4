"""Downgrade: nothing fits and no horse is out (rulebook "Drafting", RULINGS §1.8).

The seat takes the die with the lowest value and turns it up a value at a time until it
fits anywhere on its map; it must then draw it (stage ``draw``). A die that never fits,
the horse included, is taken and wasted [P].
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Downgrade
from engine.seven_bridges.dice import KINDS, die_token, face_name
from engine.seven_bridges.sheet import fits
from engine.seven_bridges.state import (
    STUCK,
    State,
    available,
    distinct,
    horse_out,
    matched,
    not_among,
    wasted,
)


def targets(state: State, seat: int) -> list[Downgrade]:
    mine = available(state, seat)
    if horse_out(state, mine):
        return []
    low = min(state.dice[d] for d in mine)
    return [Downgrade(KINDS[d], low) for d in distinct(state, mine) if state.dice[d] == low]


def refusal(state: State, seat: int, action: Downgrade) -> str | None:
    mine = available(state, seat)
    missing = not_among(state, mine, action.kind, action.value)
    if missing:
        return missing
    if horse_out(state, mine):
        return "Downgrade: you cannot downgrade while a horse die is available."
    low = min(state.dice[d] for d in mine)
    if action.value != low:
        return f"Downgrade: you must take the die with the lowest value ({face_name(low)})."
    return None


def effect(state: State, seat: int, action: Downgrade) -> tuple[State, list[Event]]:
    """The die turned up to the first value that fits, to be drawn next; or wasted."""
    die = matched(state, available(state, seat), action.kind, action.value)
    player = state.seats[seat]
    dice = list(state.dice)
    token = die_token(action.kind, action.value)
    for value in range(action.value + 1, 7):
        if fits(player, value, action.kind):
            dice[die] = value
            turned = die_token(action.kind, value)
            events = [Event("downgrade", f"{seat_ref(seat)} downgrades {token} to {turned}.")]
            return replace(state, dice=tuple(dice), committed=die), events
    events = [Event("waste", f"{seat_ref(seat)} downgrades {token} but nothing fits: wasted.")]
    return wasted(state, seat, die), events


RULE = Rule(Downgrade, refusal, effect, targets, stages=frozenset({STUCK}))
