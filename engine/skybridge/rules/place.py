"""Place a piece: the touch rule, the lowest-tower rule, bridges and roofs (RULINGS §3)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rule, seat_ref
from engine.skybridge import actions
from engine.skybridge.actions import Place
from engine.skybridge.board import ADJACENT, COLOURS, KINDS, SQUARES, Board, Piece, roofed
from engine.skybridge.state import State, seat_colours, slot


def block_targets(state: State, colour: int) -> list[int]:
    """Lowest-tower rule: among towers the block may touch, only the lowest ones."""
    heights = state.heights
    allowed = [
        sq
        for sq, s in enumerate(state.board)
        if not roofed(s) and (not s or s[-1].colour != colour)
    ]
    if not allowed:
        return []
    lowest = min(heights[sq] for sq in allowed)
    return [sq for sq in allowed if heights[sq] == lowest]


def bridge_targets(state: State, colour: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in ADJACENT if bridge_refusal(state, colour, a, b) is None]


def bridge_refusal(state: State, colour: int, a: int, b: int) -> str | None:
    board, name = state.board, COLOURS[colour]
    if (a, b) not in ADJACENT:
        return (
            f"A bridge joins two towers side by side, not diagonally or apart; "
            f"{SQUARES[a]} and {SQUARES[b]} are not neighbours."
        )
    for sq in (a, b):
        if not board[sq]:
            return f"A bridge rests on two towers, and {SQUARES[sq]} is an empty foundation."
        if roofed(board[sq]):
            return f"{SQUARES[sq]} has a roof: nothing more can be built on it."
    ha, hb = state.heights[a], state.heights[b]
    if ha != hb:
        return (
            f"A bridge needs two towers of the same height; "
            f"{SQUARES[a]} is {ha} high and {SQUARES[b]} is {hb}."
        )
    for sq in (a, b):
        if board[sq][-1].colour == colour:
            return f"Touch rule: your {name} bridge would rest on a {name} piece on {SQUARES[sq]}."
    ta, tb = board[a][-1], board[b][-1]
    if ta.kind == "bridge" and ta == tb:
        return (
            f"A bridge may not lie completely on another bridge, and the "
            f"{COLOURS[ta.colour]} bridge already joins {SQUARES[a]} and {SQUARES[b]}."
        )
    return None


def roof_targets(board: Board, colour: int) -> list[int]:
    return [sq for sq, s in enumerate(board) if s and not roofed(s) and s[-1].colour != colour]


def targets(state: State, seat: int) -> list[Place]:
    moves: list[Place] = []
    stock = state.stock[seat]
    for colour in seat_colours(state.players)[seat]:
        for kind in KINDS:
            if not stock[slot(colour, kind)]:
                continue
            if kind == "bridge":
                moves += [Place(colour, kind, ab) for ab in bridge_targets(state, colour)]
            elif kind == "roof":
                moves += [Place(colour, kind, (sq,)) for sq in roof_targets(state.board, colour)]
            else:
                moves += [Place(colour, kind, (sq,)) for sq in block_targets(state, colour)]
    return moves


def can_place(state: State, seat: int) -> bool:
    """Whether ``seat`` has any piece it may put down (cheaper than listing them all)."""
    stock = state.stock[seat]
    for colour in seat_colours(state.players)[seat]:
        if (stock[slot(colour, "tall")] or stock[slot(colour, "cube")]) and block_targets(
            state, colour
        ):
            return True
        if stock[slot(colour, "roof")] and roof_targets(state.board, colour):
            return True
        if stock[slot(colour, "bridge")] and bridge_targets(state, colour):
            return True
    return False


_COLOUR_NUMBERS = range(len(COLOURS))
_ON_BOARD = frozenset(range(len(SQUARES)))


def _shape_refusal(move: Place) -> str | None:
    """Actions come from parse, buttons or code: the rule checks their shape itself."""
    if move.colour not in _COLOUR_NUMBERS or move.kind not in KINDS:
        return "That is not a Skybridge piece."
    squares = move.squares
    if not _ON_BOARD.issuperset(squares):
        return "That square is not on the board (columns a–c, rows 1–3)."
    if move.kind == "bridge":
        if len(squares) != 2 or squares[0] >= squares[1]:
            return "A bridge joins two different squares, e.g. `blue bridge a1-a2`."
    elif len(squares) != 1:
        return f"A {move.kind} goes on one square, e.g. `{COLOURS[move.colour]} {move.kind} b2`."
    return None


def refusal(state: State, seat: int, move: Place) -> str | None:
    shape = _shape_refusal(move)
    if shape:
        return shape
    colour = move.colour
    if colour not in seat_colours(state.players)[seat]:
        return f"You don't play {COLOURS[colour]} pieces."
    if not state.stock[seat][slot(colour, move.kind)]:
        return f"You have no {COLOURS[colour]} {move.kind} left."
    if move.kind == "bridge":
        return bridge_refusal(state, colour, *move.squares)
    sq = move.squares[0]
    stack = state.board[sq]
    where = SQUARES[sq]
    if roofed(stack):
        return f"{where} has a roof: nothing more can be built on it."
    if stack and stack[-1].colour == colour:
        return (
            f"Touch rule: your {COLOURS[colour]} {move.kind} would rest on a "
            f"{COLOURS[colour]} piece on {where}."
        )
    if move.kind == "roof":
        if not stack:
            return f"A roof goes on a tower, and {where} is an empty foundation."
        return None
    if _lower_tower(state, colour, state.heights[sq]):
        blocks = block_targets(state, colour)
        options = ", ".join(SQUARES[t] for t in blocks)
        return (
            f"Lowest-tower rule: a block goes on the lowest tower it may touch "
            f"({options}, {state.heights[blocks[0]]} high); {where} is {state.heights[sq]} high."
        )
    return None


def _lower_tower(state: State, colour: int, height: int) -> bool:
    """Whether a block of ``colour`` may touch some tower lower than ``height``: the
    lowest-tower rule's question for one square, without listing them all."""
    heights = state.heights
    return height > 0 and any(
        heights[t] < height and not roofed(s) and (not s or s[-1].colour != colour)
        for t, s in enumerate(state.board)
    )


def effect(state: State, seat: int, move: Place) -> tuple[State, list[Event]]:
    board = list(state.board)
    for sq in move.squares:
        board[sq] = board[sq] + (Piece(move.colour, move.kind),)
    stock = list(state.stock)
    counts = list(stock[seat])
    counts[slot(move.colour, move.kind)] -= 1
    stock[seat] = tuple(counts)
    placed = replace(
        state, board=tuple(board), stock=tuple(stock), last=move, placed=state.placed + 1
    )
    return placed, [Event("place", f"{seat_ref(seat)} placed {actions.format(move)}.")]


RULE = Rule(Place, refusal, effect, targets)
