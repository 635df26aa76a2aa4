"""Scores (RULINGS §3.2) and the final order."""

from __future__ import annotations

from engine.core import Result, ranked
from engine.skybridge.board import Board, bridge_spans, height, roofed
from engine.skybridge.state import State, scoring_colours


def colour_scores(board: Board) -> dict[int, int]:
    """Each colour's stories: its own roofed towers, plus each tower its bridge joins to
    one of them. The board is read once for every colour (the computer players score
    thousands of positions a move)."""
    heights = [height(s) for s in board]
    owner = [s[-1].colour if roofed(s) else None for s in board]
    found: dict[int, int] = {}
    for h, o in zip(heights, owner, strict=True):
        if o is not None:
            found[o] = found.get(o, 0) + h
    for colour, (a, b) in bridge_spans(board).items():
        joined = (owner[a] == colour) * heights[b] + (owner[b] == colour) * heights[a]
        if joined:
            found[colour] = found.get(colour, 0) + joined
    return found


def scores(state: State) -> tuple[int, ...]:
    by_colour = colour_scores(state.board)
    return tuple(
        sum(by_colour.get(c, 0) for c in colours) for colours in scoring_colours(state.players)
    )


def _roofs(state: State, seat: int) -> int:
    colours = scoring_colours(state.players)[seat]
    return sum(1 for s in state.board if roofed(s) and s[-1].colour in colours)


def result(state: State) -> Result:
    """Most stories wins; [P] ties go to most roofed towers, then are shared.

    A seat that resigned finishes behind every seat that did not.
    """
    points = scores(state)
    keys = [
        (seat not in state.resigned, points[seat], _roofs(state, seat))
        for seat in range(state.players)
    ]
    return ranked(points, keys, "Ties on stories broken by most roofed towers.")
