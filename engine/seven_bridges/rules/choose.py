"""Choose the item a bridge scores: the advanced rule (rulebook, end of "Scoring").

With the advanced rule, each bridge crossed commits at once to one legend item, scored at
the end whatever it is worth; an item is chosen once.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Choose
from engine.seven_bridges.legend import ITEMS
from engine.seven_bridges.state import ITEM, State, with_seat


def targets(state: State, seat: int) -> list[Choose]:
    chosen = state.seats[seat].chosen
    return [Choose(item) for item in ITEMS if item not in chosen]


def refusal(state: State, seat: int, action: Choose) -> str | None:
    if action.item not in ITEMS:
        return f"Items are: {', '.join(ITEMS)}."
    if action.item in state.seats[seat].chosen:
        return f"Advanced rule: you already chose {action.item}; pick another."
    return None


def effect(state: State, seat: int, action: Choose) -> tuple[State, list[Event]]:
    player = state.seats[seat]
    player = replace(
        player, chosen=(*player.chosen, action.item), pending_items=player.pending_items - 1
    )
    events = [Event("item", f"{seat_ref(seat)} will score {action.item}.")]
    return with_seat(state, seat, player), events


RULE = Rule(Choose, refusal, effect, targets, stages=frozenset({ITEM}))
