"""Draft a die and draw it (rulebook "Drafting", RULINGS §1.3, §1.8).

A seat takes one of the dice it may draft (every die left, or its hand after a
Distribute) and draws the face on its map at once, which is the bot's reading of
Continuity; a die just downgraded is drawn before anything else. Where a face may go is
:mod:`engine.seven_bridges.drawing`'s rules, applied to the seat in ``sheet``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Pick, format_placement
from engine.seven_bridges.dice import KINDS, die_token
from engine.seven_bridges.sheet import arms_of, draw, fits, placement_refusal, placements
from engine.seven_bridges.state import (
    DRAW,
    PICK,
    State,
    available,
    dice_text,
    distinct,
    matching,
    with_seat,
)


def fitting_die(state: State, seat: int, dice: tuple[int, ...]) -> int | None:
    """The first of ``dice`` (those the seat may draft) that fits somewhere on its map, if
    any: without one the seat is stuck and must downgrade or discard."""
    player = state.seats[seat]
    for d in dice:
        if fits(player, state.dice[d], KINDS[d]):
            return d
    return None


def targets(state: State, seat: int) -> list[Pick]:
    player = state.seats[seat]
    dice = [state.committed] if state.committed >= 0 else distinct(state, available(state, seat))
    return [
        Pick(KINDS[d], state.dice[d], where)
        for d in dice
        for where in placements(player, state.dice[d], KINDS[d])
    ]


def _die(state: State, seat: int, action: Pick) -> int | None:
    """The die the pick takes: the one just downgraded, or a matching one it may draft."""
    if state.committed >= 0:
        d = state.committed
        return d if (KINDS[d], state.dice[d]) == (action.kind, action.value) else None
    return matching(state, available(state, seat), action.kind, action.value)


def refusal(state: State, seat: int, action: Pick) -> str | None:
    if action.kind not in (2, 3) or action.value not in range(1, 7):
        return "That is not a die: faces cross to horse, types 2 and 3."
    if _die(state, seat, action) is None:
        if state.committed >= 0:
            return (
                f"Continuity: you drafted the {dice_text(state, (state.committed,))} by "
                f"downgrading and must draw it before anything else."
            )
        where = "in your hand" if state.hands else "left"
        mine = dice_text(state, available(state, seat))
        token = die_token(action.kind, action.value)
        return f"There is no {token} {where}; the dice you may take: {mine}."
    return placement_refusal(state.seats[seat], action.value, action.kind, action.where)


def effect(state: State, seat: int, action: Pick) -> tuple[State, list[Event]]:
    die = _die(state, seat, action)
    assert die is not None, "the refusal let through a die that is not there"
    dice = list(state.dice)
    dice[die] = 0
    state = replace(state, dice=tuple(dice), slot=state.slot + 1, committed=-1)
    token, where = die_token(action.kind, action.value), format_placement(action.where)
    events = [Event("draw", f"{seat_ref(seat)} took {token} and drew it at {where}.")]
    drawn = draw(state, seat, arms_of(action.value, action.where), events)
    return with_seat(state, seat, drawn), events


RULE = Rule(Pick, refusal, effect, targets, stages=frozenset({PICK, DRAW}))
