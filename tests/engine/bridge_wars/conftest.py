"""Shared set-up for the Bridge Wars rules tests: positions, moves and refusals.

Games start with real setup moves (``red sw``). Positions a rule needs are then built
with :func:`engine.bridge_wars.state.put`, the engine's own "drop this block in" step,
which skips the legality checks, so one rule can be looked at on its own without
playing out thirty turns first. Colours: 0 red, 1 blue, 2 yellow, 3 green. The helpers
are plain functions: ``from tests.engine.bridge_wars.conftest import ...``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.bridge_wars.actions import Place
from engine.bridge_wars.blocks import NAMES
from engine.bridge_wars.board import HOLES, parse_hole
from engine.bridge_wars.state import State, put
from engine.core import IllegalMove

g = engine.get("bridge-wars")

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


def h(text: str) -> int:
    """The hole named ``text`` (``f6``)."""
    index = parse_hole(text)
    assert index is not None, text
    return index


def play(state: State, text: str) -> State:
    """The seat to act plays ``text``."""
    return g.apply(state, g.to_play(state)[0], g.parse(text)).state


def play_first_legal(state: State) -> State:
    """The seat to act plays the first move ``legal`` lists."""
    seat = g.to_play(state)[0]
    return g.apply(state, seat, g.legal(state, seat)[0]).state


def started(*picks: str, players: int = 2, seed: int = 0, height: int | None = None) -> State:
    """A game whose players took ``picks`` (colour and corner) in choosing order."""
    state = g.new(players, None if height is None else {"height": height}, seed)
    for text in picks:
        state = play(state, text)
    return state


def holes_of(mask: int) -> list[int]:
    return [i for i in range(HOLES) if mask >> i & 1]


def seat_of(state: State, colour: int) -> int:
    return state.colours.index(colour)


def drop_in(state: State, colour: int, *moves: str) -> State:
    """Put blocks in for ``colour``'s seat without checking legality (see module doc)."""
    seat = seat_of(state, colour)
    for text in moves:
        action = g.parse(text)
        assert isinstance(action, Place)
        state, _ = put(state, seat, action)
    return state


def with_stock(state: State, seat: int, blocks: dict[str, int]) -> State:
    """Give ``seat`` exactly ``blocks`` (e.g. ``{"I2": 1}``), nothing else."""
    row = tuple(blocks.get(n, 0) for n in NAMES)
    return replace(state, stock=tuple(row if s == seat else st for s, st in enumerate(state.stock)))


def to_move(state: State, colour: int) -> State:
    return replace(state, turn=seat_of(state, colour))


def refusal(state: State, text: str) -> str:
    """Why the seat to act may not play ``text``; the state is left as it was."""
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, g.to_play(state)[0], g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def level_of(state: State, where: str) -> int:
    return state.tops[h(where)]


def owner_of(state: State, where: str) -> int:
    return state.owner[h(where)]


def red_blue() -> State:
    """Two players: red in the south-west corner, blue in the north-east; red to move."""
    return to_move(started("red sw", "blue ne"), RED)
