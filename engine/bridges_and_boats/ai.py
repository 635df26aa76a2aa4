"""Possible states behind a Bridges and Boats view, for the computer players
(``engine.ai``).

A seat sees its own reserve, the planes, every boat somebody boarded (the attacker sees
its face-down boats too) and how many dominoes lie in the pool, the rival's reserve,
the bridge, the cannons and the discard pile. The 28 dominoes are all different, so
what it cannot see is exactly the set it has not seen: those are shuffled and dealt
into the hidden places at random — a fair guess, and nothing of what the true state
holds. The state gets a new generator, so the dice to come are unknown too.
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.board import SECTIONS
from engine.bridges_and_boats.dominoes import DOUBLE_SIX
from engine.bridges_and_boats.state import STAGE_NAMES, Boat, Run, State
from engine.bridges_and_boats.view import View
from engine.core import Rng


def determinize(view: View, seat: int, rng: Rng) -> State:
    hand = view.hand or ()
    seen = {*hand, *view.planes, *(b.domino for b in view.boats if b.domino is not None)}
    unseen, rng = rng.shuffled([d for d in DOUBLE_SIX if d not in seen])
    deal = iter(unseen)

    def take(n: int) -> tuple:
        return tuple(next(deal) for _ in range(n))

    hands = tuple(hand if s == seat else take(count) for s, count in enumerate(view.hand_counts))
    bridge = tuple(take(1)[0] if view.sections[s] == "built" else None for s in range(SECTIONS))
    cannons, discard = take(view.cannons), take(view.discard)
    boats = tuple(
        Boat(b.number, b.domino if b.domino is not None else take(1)[0], b.soldiers, b.launched)
        for b in view.boats
    )
    pool = take(view.pool)
    pending = view.pending
    state = State(
        pool=pool,
        hands=hands,
        coins=view.coins,
        bridge=bridge,
        bombed=frozenset(s for s in range(SECTIONS) if view.sections[s] == "destroyed"),
        spaces=view.spaces,
        crossed=view.crossed,
        boats=boats,
        boats_built=view.boats_built,
        planes=view.planes,
        cannons=cannons,
        discard=discard,
        turn=view.turn,
        stage=STAGE_NAMES[view.turn].index(view.stage),
        done=view.done,
        declared=view.declared,
        run=None,
        dice=view.dice,
        turns=view.turns,
        over=view.reason,
        resigned=None,
        last=view.last,
        rng=rng,
    )
    if pending is None:
        return state
    run = Run(
        pending.queue, pending.reroll, pending.plane, pending.stage, pending.dice, pending.deadly
    )
    return replace(state, run=run)
