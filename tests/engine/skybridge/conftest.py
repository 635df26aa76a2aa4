"""Skybridge positions built by hand, and the moves and questions every rules test asks.

Colours: 0 red, 1 blue, 2 yellow, 3 green.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.core import IllegalMove
from engine.skybridge.board import KINDS, SQUARES, Piece
from engine.skybridge.state import State, slot

g = engine.get("skybridge")

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
STORY = {"tall": 3, "cube": 2, "bridge": 1, "roof": 0}
FULL_SET = {"tall": 4, "cube": 4, "bridge": 1, "roof": 2}
ORTHOGONAL = {
    frozenset((a, b))
    for a in range(9)
    for b in range(9)
    if abs(a // 3 - b // 3) + abs(a % 3 - b % 3) == 1
}


def sq(name: str) -> int:
    return SQUARES.index(name)


def pieces(spec: str) -> tuple[Piece, ...]:
    """'BT YC RB' -> blue tall, yellow cube, red bridge (bottom first)."""
    return tuple(Piece.from_code(code) for code in spec.split())


def board(**stacks: str) -> tuple[tuple[Piece, ...], ...]:
    """board(a1='BT RC', b2='YT') — unnamed squares are empty foundations."""
    return tuple(pieces(stacks.get(name, "")) for name in SQUARES)


def position(players: int, turn: int = 0, seed: int = 0, **stacks: str) -> State:
    return replace(g.new(players, None, seed), board=board(**stacks), turn=turn)


def with_stock(state: State, seat: int, **counts: int) -> State:
    """Give ``seat`` exactly the pieces named like red_tall=1 (everything else 0)."""
    row = [0] * 16
    for name, n in counts.items():
        colour, kind = name.split("_")
        row[slot(("red", "blue", "yellow", "green").index(colour), kind)] = n
    stock = list(state.stock)
    stock[seat] = tuple(row)
    return replace(state, stock=tuple(stock))


def stock_of(state: State, seat: int, colour: int, kind: str) -> int:
    return state.stock[seat][slot(colour, kind)]


def play(state: State, seat: int, text: str) -> State:
    step = g.apply(state, seat, g.parse(text))
    new_state, _events = step.state, step.events
    return new_state


def refusal(state: State, seat: int, text: str) -> str:
    before = g.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        g.apply(state, seat, g.parse(text))
    assert g.to_json(state) == before, "a refused move changed the state"
    return caught.value.reason


def legal_texts(state: State, seat: int) -> set[str]:
    return {g.format(a) for a in g.legal(state, seat)}


def block_squares(state: State, seat: int, colour_kind: str) -> set[str]:
    """The squares where ``seat`` may put e.g. 'red tall'."""
    return {
        t.rsplit(" ", 1)[1] for t in legal_texts(state, seat) if t.startswith(colour_kind + " ")
    }


def heights(state: State) -> tuple[int, ...]:
    return g.view(state, None).heights


def scores(state: State) -> tuple[int, ...]:
    return g.result(state).scores


def assert_touch_invariant(b) -> None:
    for name, stack in zip(SQUARES, b, strict=True):
        for lower, upper in zip(stack, stack[1:], strict=False):
            assert lower.colour != upper.colour, f"{name}: {upper} rests on {lower}"


def initial_totals(players: int) -> dict[tuple[int, str], int]:
    state = g.new(players, None, 0)
    return {
        (c, k): sum(state.stock[s][slot(c, k)] for s in range(players))
        for c in range(4)
        for k in KINDS
    }


def independent_score(b, colour: int) -> int:
    """RULINGS §3.2's formula, written again from the text."""
    h = [sum(STORY[p.kind] for p in stack) for stack in b]
    owner = [stack[-1].colour if stack and stack[-1].kind == "roof" else None for stack in b]
    total = sum(h[i] for i in range(9) if owner[i] == colour)
    ends = [i for i in range(9) if Piece(colour, "bridge") in b[i]]
    if ends:
        a, c = ends
        total += (owner[a] == colour) * h[c] + (owner[c] == colour) * h[a]
    return total


def check_invariants(state: State, players: int, totals) -> None:
    b = state.board
    assert_touch_invariant(b)
    for stack in b:
        if any(p.kind == "roof" for p in stack):
            assert stack[-1].kind == "roof" and sum(p.kind == "roof" for p in stack) == 1
    for colour in range(4):
        ends = [i for i in range(9) if Piece(colour, "bridge") in b[i]]
        assert len(ends) in (0, 2), f"bridge of colour {colour} on {ends}"
        if ends:
            assert frozenset(ends) in ORTHOGONAL
            levels = [
                sum(STORY[p.kind] for p in b[i][: b[i].index(Piece(colour, "bridge"))])
                for i in ends
            ]
            assert levels[0] == levels[1], "a bridge lies level"
    on_board: dict[tuple[int, str], int] = {}
    for i, stack in enumerate(b):
        for p in stack:
            if p.kind == "bridge" and i == max(j for j in range(9) if p in b[j]):
                continue  # count each bridge once
            on_board[(p.colour, p.kind)] = on_board.get((p.colour, p.kind), 0) + 1
    for (colour, kind), total in totals.items():
        in_stock = sum(state.stock[s][slot(colour, kind)] for s in range(players))
        assert on_board.get((colour, kind), 0) + in_stock == total, (colour, kind)
