"""Re-roll: use a reserved re-roll/distribute bonus (rulebook "Reserved use", RULINGS §1.7).

Just before one of their own picks a seat may spend its next reserved bonus, one per
turn, to re-roll every die it may draft. A Distribute spends the same bonus another way
(:mod:`engine.seven_bridges.rules.distribute`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Reroll
from engine.seven_bridges.dice import roll
from engine.seven_bridges.state import PICK, STUCK, State, available, dice_text, with_seat

#: a seat uses its reserved bonus before one of its picks, stuck or not
STAGES = frozenset({PICK, STUCK})


def ready(state: State, seat: int) -> bool:
    """Whether the seat has a reserved bonus to use, and has used none this turn."""
    return state.seats[seat].bonuses.reroll_ready and seat not in state.rerolled


def unready(state: State, seat: int) -> str | None:
    """Why the seat may not use a reserved re-roll/distribute bonus now, if it may not."""
    if not state.seats[seat].bonuses.reroll_ready:
        return "Reserved use: you have no reserved re-roll/distribute bonus to use."
    if seat in state.rerolled:
        return "Reserved use: only one re-roll/distribute bonus per turn."
    return None


def spent(state: State, seat: int) -> State:
    """The seat's next reserved bonus used, for this turn."""
    player = state.seats[seat]
    bonuses = replace(player.bonuses, spent=player.bonuses.spent + 1)
    state = replace(state, rerolled=state.rerolled | {seat})
    return with_seat(state, seat, replace(player, bonuses=bonuses))


def targets(state: State, seat: int) -> list[Reroll]:
    return [Reroll()] if ready(state, seat) else []


def refusal(state: State, seat: int, action: Reroll) -> str | None:
    return unready(state, seat)


def effect(state: State, seat: int, action: Reroll) -> tuple[State, list[Event]]:
    mine = available(state, seat)
    values, rng = roll(state.rng, len(mine))
    dice = list(state.dice)
    for d, v in zip(mine, values, strict=True):
        dice[d] = v
    state = replace(state, dice=tuple(dice), rng=rng)
    number = state.seats[seat].bonuses.spent + 1
    text = f"{seat_ref(seat)} uses re-roll #{number}: {dice_text(state, mine)}."
    return spent(state, seat), [Event("reroll", text)]


RULE = Rule(Reroll, refusal, effect, targets, stages=STAGES)
