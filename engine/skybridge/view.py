"""What a seat sees: everything, as Skybridge hides nothing; computed for drawing. And
back: the state a view came from (``sample``), for the computer players."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.core import Rng
from engine.skybridge import actions
from engine.skybridge.actions import Place
from engine.skybridge.board import Stack, bridge_spans, roofed
from engine.skybridge.scoring import result, scores
from engine.skybridge.state import State, initial_stock, seat_colours


@dataclass(frozen=True)
class View:
    """Everything a player sees; Skybridge has no hidden information."""

    players: int
    seat: int | None
    seat_colours: tuple[tuple[int, ...], ...]
    board: tuple[Stack, ...]
    heights: tuple[int, ...]
    roof_owner: tuple[int | None, ...]  # colour of each tower's roof
    bridges: Mapping[int, tuple[int, int]]  # colour -> the two squares it joins
    stock: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turn: int
    out: frozenset[int]
    resigned: frozenset[int]
    last: Place | None
    last_move: str  # the last move in the notation it was played in, "" before the first
    over: bool
    places: tuple[int, ...] | None


def view(state: State, seat: int | None) -> View:
    over = state.turn < 0
    return View(
        players=state.players,
        seat=seat,
        seat_colours=seat_colours(state.players),
        board=state.board,
        heights=state.heights,
        roof_owner=tuple(s[-1].colour if roofed(s) else None for s in state.board),
        bridges=bridge_spans(state.board),
        stock=state.stock,
        scores=scores(state),
        turn=state.turn,
        out=state.out,
        resigned=state.resigned,
        last=state.last,
        last_move="" if state.last is None else actions.format(state.last),
        over=over,
        places=result(state).places if over else None,
    )


def sample(seen: View, rng: Rng) -> State:
    """The state behind ``seen``: the whole position, as nothing is hidden, with ``rng``
    for a generator (the AI must not know the game's). ``first`` and ``placed`` are
    bookkeeping no rule reads again."""
    placed = sum(map(sum, initial_stock(seen.players))) - sum(map(sum, seen.stock))
    return State(
        players=seen.players,
        board=seen.board,
        stock=seen.stock,
        turn=seen.turn,
        out=seen.out,
        resigned=seen.resigned,
        first=0,
        last=seen.last,
        placed=placed,
        rng=rng,
    )
