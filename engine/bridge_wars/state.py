"""Bridge Wars' state, how a block drops down its rods, and the state's JSON form.

RULINGS §2.4 is the model. Every rod keeps the level of its highest block (``tops``)
and that block's colour (``owner``). A block pushed down its rods stops one level
above the highest block under any of its holes (:func:`drop`); :func:`put` drops it in
without asking whether it may go there, which is how the starter goes in at setup, how
a stored game is rebuilt, and how tests build a position without playing it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.bridge_wars import actions
from engine.bridge_wars.actions import Place
from engine.bridge_wars.blocks import COUNTS, NAMES, cells_at
from engine.bridge_wars.board import HOLES, rod_mask
from engine.core import Rng
from engine.options import Whole

#: the rods' height, 12 layers unless the players choose another (RULINGS §2.3 [P])
HEIGHT = Whole("height", "the rods' height", low=4, high=16, default=12, unit="layers",
               note="[P]")  # fmt: skip


@dataclass(frozen=True)
class Placed:
    """A block in play, and the level (1 = on the board) it came to rest at."""

    seat: int
    colour: int
    block: str
    orient: str
    anchor: int
    level: int

    @property
    def cells(self) -> tuple[int, ...]:
        cells = cells_at(self.block, self.orient, self.anchor)
        assert cells is not None, "a block in play lies on the board"
        return cells


@dataclass(frozen=True)
class State:
    players: int
    height: int  # rod height in layers: nothing may rest above it
    colours: tuple[int, ...]  # per seat, -1 until chosen
    corners: tuple[str, ...]  # per seat, "" until chosen
    placed: tuple[Placed, ...]  # every block in play, in the order put in
    tops: tuple[int, ...]  # per hole: level of its highest block, 0 for none
    owner: tuple[int, ...]  # per hole: colour of that block, -1 for none
    stock: tuple[tuple[int, ...], ...]  # per seat: blocks left, counted like blocks.NAMES
    turn: int  # the seat to act; -1 once the game is over
    first: int  # the seat that chooses first and so plays first
    final: tuple[int, ...] | None  # once the end is triggered: seats still owed a turn
    ending: str  # what ended (or is ending) the game: "", "top", "last", "stuck", "resign"
    resigned: frozenset[int]
    rng: Rng


def in_setup(state: State) -> bool:
    """Colours and corners are still being chosen (the seat to act has none yet)."""
    return state.turn >= 0 and state.colours[state.turn] < 0


def rods(state: State) -> int:
    """The holes holding rods: the diamond and every claimed corner, as a bitmask."""
    return rod_mask(state.corners)


@dataclass(frozen=True)
class Landing:
    """Where a block comes to rest: its level, the holes it rests on, those it bridges."""

    level: int
    resting: tuple[int, ...]
    bridged: tuple[int, ...]


def drop(state: State, cells: tuple[int, ...]) -> Landing:
    """What the downer does: push the block down until some hole meets a block."""
    top = max(state.tops[c] for c in cells)
    resting = tuple(c for c in cells if state.tops[c] == top and top > 0)
    bridged = tuple(c for c in cells if state.tops[c] < top)
    return Landing(top + 1, resting, bridged)


def put(state: State, seat: int, action: Place) -> tuple[State, Placed]:
    """``state`` with ``action``'s block dropped in for ``seat`` (legality not checked)."""
    cells = cells_at(action.block, action.orient, action.anchor)
    assert cells is not None
    landing = drop(state, cells)
    colour = state.colours[seat]
    tops, owner = list(state.tops), list(state.owner)
    for c in cells:
        tops[c], owner[c] = landing.level, colour
    stock = list(state.stock)
    counts = list(stock[seat])
    counts[NAMES.index(action.block)] -= 1
    stock[seat] = tuple(counts)
    block = Placed(seat, colour, action.block, action.orient, action.anchor, landing.level)
    after = replace(
        state,
        placed=(*state.placed, block),
        tops=tuple(tops),
        owner=tuple(owner),
        stock=tuple(stock),
    )
    return after, block


def new(players: int, height: int, seed: int) -> State:
    """An empty board with only the diamond's rods; the first to choose is drawn by lot."""
    first, rng = Rng.from_seed(seed).below(players)
    return State(
        players=players,
        height=height,
        colours=(-1,) * players,
        corners=("",) * players,
        placed=(),
        tops=(0,) * HOLES,
        owner=(-1,) * HOLES,
        stock=(COUNTS,) * players,
        turn=first,
        first=first,
        final=None,
        ending="",
        resigned=frozenset(),
        rng=rng,
    )


def to_dict(state: State) -> dict[str, Any]:
    """Blocks in play are stored as their moves in order; levels follow from them."""
    return {
        "players": state.players,
        "height": state.height,
        "colours": list(state.colours),
        "corners": list(state.corners),
        "placed": [
            [b.seat, actions.format(Place(b.block, b.orient, b.anchor))] for b in state.placed
        ],
        "stock": [list(s) for s in state.stock],
        "turn": state.turn,
        "first": state.first,
        "final": None if state.final is None else list(state.final),
        "ending": state.ending,
        "resigned": sorted(state.resigned),
        "rng": state.rng.state,
    }


def from_dict(data: Mapping[str, Any]) -> State:
    """The stored fields, with ``tops`` and ``owner`` rebuilt by dropping each block in."""
    state = State(
        players=data["players"],
        height=data["height"],
        colours=tuple(data["colours"]),
        corners=tuple(data["corners"]),
        placed=(),
        tops=(0,) * HOLES,
        owner=(-1,) * HOLES,
        stock=tuple(tuple(s) for s in data["stock"]),
        turn=data["turn"],
        first=data["first"],
        final=None if data["final"] is None else tuple(data["final"]),
        ending=data["ending"],
        resigned=frozenset(data["resigned"]),
        rng=Rng(data["rng"]),
    )
    stock = state.stock
    for seat, text in data["placed"]:
        action = actions.parse(text)
        assert isinstance(action, Place), "only blocks are stored as placed"
        state, _ = put(state, seat, action)
    return replace(state, stock=stock)
