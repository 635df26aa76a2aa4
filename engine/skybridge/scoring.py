"""Scores (RULINGS §3.2) and the final order."""

from __future__ import annotations

from engine.core import Result, ranked
from engine.skybridge.board import Board, bridge_spans, height, roofed
from engine.skybridge.state import State, scoring_colours


def colour_score(board: Board, colour: int) -> int:
    """Own roofed towers, plus each tower your bridge joins to one of them."""
    heights = [height(s) for s in board]
    owner = [s[-1].colour if roofed(s) else None for s in board]
    score = sum(h for h, o in zip(heights, owner, strict=True) if o == colour)
    span = bridge_spans(board).get(colour)
    if span:
        a, b = span
        score += (owner[a] == colour) * heights[b] + (owner[b] == colour) * heights[a]
    return score


def scores(state: State) -> tuple[int, ...]:
    return tuple(
        sum(colour_score(state.board, c) for c in colours)
        for colours in scoring_colours(state.players)
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
