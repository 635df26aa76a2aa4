"""Skybridge in words: each tower from the ground up, its height and roof, the bridges,
and every player's pieces left — what the picture shows, as the view holds it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.skybridge.board import COLOURS, KINDS, SQUARES
from engine.skybridge.state import initial_stock, scoring_colours
from engine.skybridge.view import View
from renders.skybridge import caption, status
from renders.text.common import heading, lines, listing, scores


def _tower(view: View, sq: int) -> str:
    """``b2, 5 high: red tall, blue cube, roofed by red``; bridges name their far end."""
    pieces = []
    for piece in view.board[sq]:
        if piece.kind == "roof":
            continue
        words = f"{COLOURS[piece.colour]} {piece.kind}"
        if piece.kind == "bridge":
            a, b = view.bridges[piece.colour]
            words += f" to {SQUARES[b if a == sq else a]}"
        pieces.append(words)
    roof = view.roof_owner[sq]
    roofed = "" if roof is None else f", roofed by {COLOURS[roof]}"
    return f"{SQUARES[sq]}, {view.heights[sq]} high: {', '.join(pieces)}{roofed}"


def _stock(view: View, seat: int) -> str:
    """``red 3 tall, 4 cube, 1 bridge, 2 roof``, per colour the seat plays."""
    start = initial_stock(view.players)[seat]
    parts = []
    for colour in view.seat_colours[seat]:
        counts = [
            f"{view.stock[seat][colour * len(KINDS) + k]} {kind}"
            for k, kind in enumerate(KINDS)
            if start[colour * len(KINDS) + k]
        ]
        parts.append(f"{COLOURS[colour]} {', '.join(counts)}")
    return "; ".join(parts)


def describe(view: View, names: Sequence[str]) -> str:
    last, turn = caption(view, names)
    last = "No move yet" if view.last is None else last.replace("Last:", "Last move:")
    colours = [
        f"{names[s]} plays {listing(COLOURS[c] for c in scoring_colours(view.players)[s])}"
        for s in range(view.players)
    ]
    if view.players == 3:
        colours.append("green is neutral: everyone has some, it scores for no one")
    built = [sq for sq in range(len(SQUARES)) if view.board[sq]]
    empty = [SQUARES[sq] for sq in range(len(SQUARES)) if not view.board[sq]]
    notes = [status(view, s) for s in range(view.players)]
    return lines(
        heading("Skybridge", view.seat, names),
        turn,
        scores(names, view.scores, notes),
        last,
        "; ".join(colours),
        *(f"Tower {_tower(view, sq)}" for sq in built),
        f"Empty squares: {listing(empty)}" if empty else None,
        *(f"{names[s]} has left: {_stock(view, s)}" for s in range(view.players)),
    )
