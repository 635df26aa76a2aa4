"""Reserve a landmark's bonus for later (rulebook "Reserved use", RULINGS §1.7).

The three re-roll/distribute bonuses are taken top to bottom; the footpaths bonus once.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Reserve
from engine.seven_bridges.bonuses import NOT_TAKEN, REROLLS, RESERVED, Bonuses
from engine.seven_bridges.state import BONUS, State, with_seat


def can_reserve(bonuses: Bonuses) -> bool:
    """Whether anything is left in the RESERVED USE column to take."""
    return bonuses.reserved < REROLLS or bonuses.footpaths == NOT_TAKEN


def targets(state: State, seat: int) -> list[Reserve]:
    bonuses = state.seats[seat].bonuses
    out = []
    if bonuses.reserved < REROLLS:
        out.append(Reserve("reroll"))
    if bonuses.footpaths == NOT_TAKEN:
        out.append(Reserve("footpaths"))
    return out


def refusal(state: State, seat: int, action: Reserve) -> str | None:
    bonuses = state.seats[seat].bonuses
    if action.what == "reroll":
        if bonuses.reserved >= REROLLS:
            return "Reserved use: all three re-roll/distribute bonuses are taken."
        return None
    if action.what == "footpaths":
        if bonuses.footpaths != NOT_TAKEN:
            return "Reserved use: you already have the footpaths bonus."
        return None
    return "You can reserve `reroll` or `footpaths`."


def effect(state: State, seat: int, action: Reserve) -> tuple[State, list[Event]]:
    player = state.seats[seat]
    bonuses = player.bonuses
    if action.what == "reroll":
        bonuses = replace(bonuses, reserved=bonuses.reserved + 1)
        text = f"{seat_ref(seat)} reserves re-roll/distribute #{bonuses.reserved}."
    else:
        bonuses = replace(bonuses, footpaths=RESERVED)
        text = f"{seat_ref(seat)} reserves the footpaths bonus."
    player = replace(player, bonuses=bonuses, pending=player.pending - 1)
    return with_seat(state, seat, player), [Event("reserve", text)]


RULE = Rule(Reserve, refusal, effect, targets, stages=frozenset({BONUS}))
