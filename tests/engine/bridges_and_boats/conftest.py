"""Bridges and Boats positions built by hand, dice fixed in advance, and the moves and
questions every rules test asks.

Positions are reached by real moves where that is short, and otherwise built as
``engine.bridges_and_boats.state.State`` values (``dataclasses.replace`` on a fresh game)
so one rule can be looked at on its own. Dice are fixed by giving the state a generator
whose next throws are known: :func:`rolling` finds a seed whose dice come up as asked,
drawn exactly the way the engine draws them.
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

import engine
from engine.bridges_and_boats.actions import End
from engine.bridges_and_boats.dominoes import DOUBLE_SIX, Domino
from engine.bridges_and_boats.state import State
from engine.core import Event, IllegalMove, Rng

g = engine.get("bridges-and-boats")
A, D = 0, 1  # attacker, defender


def dom(text: str) -> Domino:
    domino = Domino.parse(text)
    assert domino is not None
    return domino


@functools.cache
def rolling(*values: int) -> Rng:
    """A generator whose next dice, drawn as the engine draws them, are ``values``."""
    for seed in range(2_000_000):
        rng = Rng.from_seed(seed)
        for value in values:
            drawn, rng = rng.below(6)
            if drawn + 1 != value:
                break
        else:
            return Rng.from_seed(seed)
    raise AssertionError(f"no seed rolls {values}")


def spaces(*occupied: int) -> tuple[bool, ...]:
    """The twelve spaces with soldiers on the given ones (numbered 1–12)."""
    return tuple(n in occupied for n in range(1, 13))


def bridge(spec: str) -> tuple[Domino | None, ...]:
    """'111100' -> sections 1–4 built (with any dominoes: their values never matter)."""
    return tuple(DOUBLE_SIX[20 + i] if c == "1" else None for i, c in enumerate(spec))


def position(turn: int = A, seed: int = 0, **fields) -> State:
    """A fresh game with ``fields`` replaced; the turn starts at step 2 (buying)."""
    return replace(g.new(2, None, seed), turn=turn, **fields)


def play(state: State, *moves: str) -> State:
    """Play ``moves`` for whoever is to play."""
    for text in moves:
        state = g.apply(state, g.to_play(state)[0], g.parse(text)).state
    return state


def events_of(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    step = g.apply(state, g.to_play(state)[0], g.parse(text))
    return step.state, step.events


def public(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if e.seat is None)


def refusal(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def legal(state: State, seat: int | None = None) -> list[str]:
    seat = g.to_play(state)[0] if seat is None else seat
    return [g.format(a) for a in g.legal(state, seat)]


def airfield(*planes: str, **fields) -> State:
    """The defender's turn with these planes, a full bridge and coins to spare."""
    fields.setdefault("coins", (0, 9))
    fields.setdefault("bridge", bridge("111111"))
    return position(turn=D, planes=tuple(dom(p) for p in planes), **fields)


def random_game(seed: int, moves: int = 5000):
    """Yield (state, seat, action, new state, events) for a game of random legal moves.

    The player ends a turn a quarter of the time it may, so turns are full of actions.
    """
    rnd = random.Random(seed)
    state = g.new(2, None, seed)
    for _ in range(moves):
        if g.is_over(state):
            return
        seat = g.to_play(state)[0]
        actions = g.legal(state, seat)
        busy = [a for a in actions if not isinstance(a, End)]
        action = rnd.choice(busy) if busy and rnd.random() < 0.75 else rnd.choice(actions)
        step = g.apply(state, seat, action)
        new, events = step.state, step.events
        yield state, seat, action, new, events
        state = new
    raise AssertionError("the game did not end")
