"""Skybridge's state, who plays which colours, and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.core import Rng
from engine.skybridge import actions
from engine.skybridge.actions import Place
from engine.skybridge.board import COLOURS, KINDS, NEUTRAL, PER_COLOUR, Board, Piece, height


@dataclass(frozen=True)
class State:
    players: int
    board: Board
    stock: tuple[tuple[int, ...], ...]  # per seat: count per (colour, kind), see slot
    turn: int  # the seat to move; -1 once the game is over
    out: frozenset[int]  # seats that could not place when their turn came
    resigned: frozenset[int]
    first: int
    last: Place | None
    placed: int
    rng: Rng

    @cached_property
    def heights(self) -> tuple[int, ...]:
        """Each tower's height in stories, worked out once per state: every rule asks."""
        return tuple(height(stack) for stack in self.board)


def slot(colour: int, kind: str) -> int:
    return colour * len(KINDS) + KINDS.index(kind)


def seat_colours(players: int) -> tuple[tuple[int, ...], ...]:
    """The colours each seat may play, the neutral one included in a 3-player game."""
    if players == 2:
        return ((0, 2), (1, 3))
    if players == 3:
        return tuple((seat, NEUTRAL) for seat in range(3))
    return tuple((seat,) for seat in range(players))


def scoring_colours(players: int) -> tuple[tuple[int, ...], ...]:
    """The colours whose towers score for each seat: neutral pieces own nothing."""
    return tuple(
        tuple(c for c in cs if players != 3 or c != NEUTRAL) for cs in seat_colours(players)
    )


def initial_stock(players: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's pieces at the start, as counts indexed by :func:`slot`."""
    stocks = []
    for colours in seat_colours(players):
        counts = [0] * (len(COLOURS) * len(KINDS))
        for colour in colours:
            for kind, n in PER_COLOUR.items():
                counts[slot(colour, kind)] = n
        if players == 3:
            counts[slot(NEUTRAL, "tall")] = 1
            counts[slot(NEUTRAL, "cube")] = 1
            counts[slot(NEUTRAL, "bridge")] = 0
            counts[slot(NEUTRAL, "roof")] = 0
        stocks.append(tuple(counts))
    return tuple(stocks)


def new(players: int, seed: int) -> State:
    """An empty city; the first player is drawn by lot."""
    first, rng = Rng.from_seed(seed).below(players)
    return State(
        players=players,
        board=((),) * 9,
        stock=initial_stock(players),
        turn=first,
        out=frozenset(),
        resigned=frozenset(),
        first=first,
        last=None,
        placed=0,
        rng=rng,
    )


def to_dict(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "board": [[p.code for p in stack] for stack in state.board],
        "stock": [list(s) for s in state.stock],
        "turn": state.turn,
        "out": sorted(state.out),
        "resigned": sorted(state.resigned),
        "first": state.first,
        "last": None if state.last is None else actions.format(state.last),
        "placed": state.placed,
        "rng": state.rng.state,
    }


def from_dict(data: Mapping[str, Any]) -> State:
    last = data["last"]
    return State(
        players=data["players"],
        board=tuple(tuple(Piece.from_code(c) for c in stack) for stack in data["board"]),
        stock=tuple(tuple(s) for s in data["stock"]),
        turn=data["turn"],
        out=frozenset(data["out"]),
        resigned=frozenset(data["resigned"]),
        first=data["first"],
        last=None if last is None else actions.parse(last),  # a Place: only those are kept
        placed=data["placed"],
        rng=Rng(data["rng"]),
    )
