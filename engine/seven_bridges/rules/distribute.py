"""Distribute: use a reserved re-roll/distribute bonus to hand out the dice (RULINGS §1.7).

The seat gives every die left to the turn's remaining picks, one each, in pick order;
from then on each position drafts only from its own hand, in any order (Continuity is
waived), and a recipient may still re-roll its own dice with a bonus of its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.seven_bridges.actions import Distribute
from engine.seven_bridges.dice import KINDS
from engine.seven_bridges.rules.reroll import STAGES, ready, spent, unready
from engine.seven_bridges.state import (
    PICKS,
    State,
    available,
    dice_text,
    matched,
    name_of,
    owner,
    positions,
)


def targets(state: State, seat: int) -> list[Distribute]:
    if state.hands or not ready(state, seat):
        return []
    return [Distribute(dice) for dice in _distributions(state)]


def _distributions(state: State) -> list[tuple[tuple[int, int], ...]]:
    """Every way to hand the available dice to the remaining picks, each way once.

    Dice are (type, face) pairs; a position holding several picks gets its dice in face
    order across them, which makes each way of sharing the dice out one listing. Listed in
    face order pick by pick.
    """
    owners = [owner(state, s) for s in range(state.slot, PICKS)]
    pool = Counter((KINDS[d], state.dice[d]) for d in available(state, owners[0]))
    keys = sorted(pool, key=lambda die: (die[1], die[0]))
    counts = [pool[key] for key in keys]
    out: list[tuple[tuple[int, int], ...]] = []
    lowest = dict.fromkeys(owners, 0)  # a position's next die is no lower than its last

    def give(k: int, prefix: tuple[tuple[int, int], ...]) -> None:
        if k == len(owners):
            out.append(prefix)
            return
        p = owners[k]
        floor = lowest[p]
        for i in range(floor, len(keys)):
            if counts[i]:
                counts[i] -= 1
                lowest[p] = i
                give(k + 1, (*prefix, keys[i]))
                counts[i] += 1
        lowest[p] = floor

    give(0, ())
    return out


def refusal(state: State, seat: int, action: Distribute) -> str | None:
    reason = unready(state, seat)
    if reason:
        return reason
    if state.hands:
        return "Distribute: the dice of this turn have already been handed out."
    remaining = PICKS - state.slot
    if len(action.dice) != remaining:
        return (
            f"Distribute: name one die for each of the {remaining} remaining picks, in pick order."
        )
    mine = available(state, seat)
    if Counter(action.dice) != Counter((KINDS[d], state.dice[d]) for d in mine):
        return f"Distribute: hand out exactly the dice left: {dice_text(state, mine)}."
    return None


def effect(state: State, seat: int, action: Distribute) -> tuple[State, list[Event]]:
    hands: list[list[int]] = [[] for _ in range(positions(state))]
    free = list(available(state, seat))
    for slot, (kind, value) in zip(range(state.slot, PICKS), action.dice, strict=True):
        d = matched(state, tuple(free), kind, value)
        free.remove(d)
        hands[owner(state, slot)].append(d)
    state = replace(state, hands=tuple(tuple(h) for h in hands))
    given = "; ".join(
        f"{name_of(state, p)} {dice_text(state, tuple(h))}" for p, h in enumerate(hands) if h
    )
    number = state.seats[seat].bonuses.spent + 1
    text = f"{seat_ref(seat)} uses distribute #{number}: {given}."
    return spent(state, seat), [Event("distribute", text)]


RULE = Rule(Distribute, refusal, effect, targets, stages=STAGES)
