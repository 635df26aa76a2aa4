"""Draw an immediate bonus: a landmark's shape, drawn at once (rulebook "Immediate use").

Each of the six shapes is used once; it follows the drawing rules like a die, and the
bonus horse reaches 3 squares [P]. A bonus line that passes another letter gives another
choice, so bonuses chain.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Bonus, format_placement
from engine.seven_bridges.dice import face_name
from engine.seven_bridges.sheet import arms_of, draw, fits, placement_refusal, placements
from engine.seven_bridges.state import BONUS, Player, State, with_seat

VALUES = range(1, 7)


def can_draw(player: Player) -> bool:
    """Whether some unused immediate shape fits on the seat's map."""
    return any(player.bonuses.immediate_free(v) and fits(player, v, None) for v in VALUES)


def targets(state: State, seat: int) -> list[Bonus]:
    player = state.seats[seat]
    return [
        Bonus(value, where)
        for value in VALUES
        if player.bonuses.immediate_free(value)
        for where in placements(player, value, None)
    ]


def refusal(state: State, seat: int, action: Bonus) -> str | None:
    if action.value not in VALUES:
        return "That is not a bonus shape."
    player = state.seats[seat]
    if not player.bonuses.immediate_free(action.value):
        return f"Immediate use: you have already used the {face_name(action.value)} bonus."
    return placement_refusal(player, action.value, None, action.where)


def effect(state: State, seat: int, action: Bonus) -> tuple[State, list[Event]]:
    player = state.seats[seat]
    bonuses = replace(player.bonuses, immediate=player.bonuses.immediate | 1 << action.value)
    state = with_seat(state, seat, replace(player, bonuses=bonuses, pending=player.pending - 1))
    name, where = face_name(action.value), format_placement(action.where)
    events = [Event("bonus", f"{seat_ref(seat)} drew the {name} bonus at {where}.")]
    drawn = draw(state, seat, arms_of(action.value, action.where), events)
    return with_seat(state, seat, drawn), events


RULE = Rule(Bonus, refusal, effect, targets, stages=frozenset({BONUS}))
