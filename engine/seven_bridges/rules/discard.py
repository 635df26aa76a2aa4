"""Discard: nothing fits, not even the horse that is out [P] (RULINGS §1.8).

Downgrading is barred while a horse is available, yet a horse may not fit either: then
the seat takes any die and draws nothing, and the die is wasted.
"""

from __future__ import annotations

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Discard
from engine.seven_bridges.dice import KINDS, die_token
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


def targets(state: State, seat: int) -> list[Discard]:
    mine = available(state, seat)
    if not horse_out(state, mine):
        return []
    return [Discard(KINDS[d], state.dice[d]) for d in distinct(state, mine)]


def refusal(state: State, seat: int, action: Discard) -> str | None:
    mine = available(state, seat)
    missing = not_among(state, mine, action.kind, action.value)
    if missing:
        return missing
    if not horse_out(state, mine):
        return (
            "Downgrade: nothing fits and no horse is out, so you downgrade the lowest "
            "die instead of discarding."
        )
    return None


def effect(state: State, seat: int, action: Discard) -> tuple[State, list[Event]]:
    die = matched(state, available(state, seat), action.kind, action.value)
    token = die_token(action.kind, action.value)
    events = [Event("waste", f"{seat_ref(seat)} can draw nothing and discards {token}.")]
    return wasted(state, seat, die), events


RULE = Rule(Discard, refusal, effect, targets, stages=frozenset({STUCK}))
