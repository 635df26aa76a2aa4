"""Scores from the top (RULINGS §2.5) and the final order, with our [P] tie-breaks."""

from __future__ import annotations

from engine.bridge_wars.blocks import COLOURS
from engine.bridge_wars.board import BRASS, HOLES
from engine.bridge_wars.state import State
from engine.core import Result, ranked


def rod_value(hole: int) -> int:
    """The brass rod scores 5, every acrylic rod 1."""
    return 5 if hole == BRASS else 1


def scores(state: State) -> tuple[int, ...]:
    """Points from the top: each rod counts for the colour of its highest block."""
    by_colour = [0] * len(COLOURS)
    for c in range(HOLES):
        if state.owner[c] >= 0:
            by_colour[state.owner[c]] += rod_value(c)
    return tuple(by_colour[c] if c >= 0 else 0 for c in state.colours)


def top_layer_rods(state: State, seat: int) -> int:
    """Rods whose highest block is this seat's and sits at the very top of the rods."""
    colour = state.colours[seat]
    return sum(
        1 for c in range(HOLES) if state.owner[c] == colour and state.tops[c] == state.height
    )


def holds_brass(state: State, seat: int) -> bool:
    return state.colours[seat] >= 0 and state.owner[BRASS] == state.colours[seat]


def result(state: State) -> Result:
    """Most points wins; [P] ties go to the brass rod's holder, then to most rods held
    at the top layer, then are shared. A resigned seat finishes behind the others."""
    points = scores(state)
    keys = [
        (
            seat not in state.resigned,
            points[seat],
            holds_brass(state, seat),
            top_layer_rods(state, seat),
        )
        for seat in range(state.players)
    ]
    return ranked(
        points, keys, "Ties on points broken by the brass rod, then by rods held at the top layer."
    )
