"""Set-up shared by the Seven Bridges tests: the game, squares and arms by name, positions
built from a real game with one seat's drawing or dice set directly, and moves played or
refused through the engine's public parse/apply.

Plain helpers, imported as ``from tests.engine.seven_bridges.conftest import ...``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import IllegalMove, Rng
from engine.seven_bridges import SevenBridges
from engine.seven_bridges.board import parse_square
from engine.seven_bridges.bonuses import NOT_TAKEN, Bonuses
from engine.seven_bridges.lines import OPPOSITE, SQUARE_ARM
from engine.seven_bridges.state import State

g = SevenBridges()


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None, name
    return square


def arms(*specs: str) -> int:
    """arms("r2c9:NW", "r12c1:E") -> the bit set of those printed arms."""
    out = 0
    for spec in specs:
        where, dirs = spec.split(":")
        for ch in dirs:
            a = SQUARE_ARM[sq(where)]["NESW".index(ch)]
            assert a >= 0, f"{where} has no {ch} arm"
            out |= 1 << a
    return out


STEP = {-12: 0, 1: 1, 12: 2, -1: 3}  # square difference -> direction N, E, S, W


def ring(*names: str) -> int:
    """The arms of a closed walk through the named squares (each next to the one before)."""
    squares = [sq(n) for n in names]
    out = 0
    for a, b in zip(squares, squares[1:] + squares[:1], strict=True):
        d = STEP[b - a]
        for s, direction in ((a, d), (b, OPPOSITE[d])):
            arm = SQUARE_ARM[s][direction]
            assert arm >= 0, f"no street from {names} at {s} {direction}"
            out |= 1 << arm
    return out


# Smith's and Grocers Bridges between the north bank and Kneiphof: 4 corners, 2 bridges
NORTH = ring("r2c5", "r3c5", "r4c5", "r4c6", "r4c7", "r3c7", "r2c7", "r2c6")
# Offal and Green Bridges between Kneiphof and the south bank: 4 corners, 2 bridges
SOUTH = ring("r6c5", "r7c5", "r8c5", "r8c6", "r7c6", "r6c6")
# a 14-square loop on the south bank with 6 corners and no bridge, round r8c5-r8c6 too
BIG = ring(
    "r8c4", "r8c5", "r8c6", "r8c7", "r8c8", "r8c9", "r9c9",
    "r9c8", "r10c8", "r10c7", "r10c6", "r10c5", "r10c4", "r9c4",
)  # fmt: skip
# a zig-zag in the south-west: 12 corners
ZIGZAG = ring(
    "r8c1", "r8c2", "r9c2", "r9c3", "r9c4", "r10c4", "r10c5", "r11c5",
    "r12c5", "r12c4", "r12c3", "r11c3", "r11c2", "r10c2", "r10c1", "r9c1",
)  # fmt: skip
UNIT = ring("r1c1", "r1c2", "r2c2", "r2c1")

START = arms("r2c9:NW")  # the rulebook's example start ii-2-3: a west arm and a north arm


def with_seat(state: State, seat: int, **changes) -> State:
    """``state`` with some fields of one seat's player changed."""
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def position(
    drawn: int,
    dice: tuple[int, ...] = (1, 2, 3, 4, 5, 6),
    footpaths: int = NOT_TAKEN,
    players: int = 2,
) -> State:
    """Seat 0 to pick first in a fresh turn, with this drawing and these dice."""
    state = replace(g.new(players, {"start": "ii-2-3"}, 1), first=0, dice=dice, rolling=False)
    return with_seat(state, 0, drawn=drawn, bonuses=Bonuses(footpaths=footpaths))


def play(state: State, seat: int, text: str) -> State:
    return g.play(state, seat, text).state


def refusal(state: State, seat: int, text: str) -> str:
    """Why the move is refused; the refusal must leave the state as it was."""
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.play(state, seat, text)
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def random_game(players: int, seed: int, options=None):
    """A whole game of random legal moves: (final state, log, every event)."""
    rnd = random.Random(seed)
    state = g.new(players, options, seed)
    log, seen = [], []
    while not g.is_over(state):
        seat = rnd.choice(g.to_play(state))
        action = rnd.choice(g.legal(state, seat))
        step = g.apply(state, seat, action)
        state = step.state
        log.append((seat, g.format(action)))
        seen += step.events
    return state, log, seen


def turn_start(players: int, reserved: tuple[int, ...]) -> State:
    """Seat 0 rolls the first turn, dice cross to horse out; seat s has reserved[s] bonuses."""
    state = g.new(players, {"start": "ii-2-3"}, 11)
    state = replace(state, first=0, dice=(1, 2, 3, 4, 5, 6), slot=0, turn=0, round=0)
    state = replace(state, rolling=False)
    for seat, n in enumerate(reserved):
        state = with_seat(state, seat, bonuses=Bonuses(reserved=n))
    return state


def next_faces(rng: Rng, count: int) -> tuple[int, ...]:
    """The next ``count`` die faces the game's generator gives: 1 + a draw below 6."""
    faces = []
    for _ in range(count):
        v, rng = rng.below(6)
        faces.append(v + 1)
    return tuple(faces)
