"""What a seat sees: everything, as Bridge Wars hides nothing; computed for drawing. And
back: the state a view came from (``sample``), for the computer players."""

from __future__ import annotations

from dataclasses import dataclass

from engine.bridge_wars import actions
from engine.bridge_wars.blocks import STARTER
from engine.bridge_wars.board import HOLES
from engine.bridge_wars.scoring import result, scores
from engine.bridge_wars.state import Placed, State, in_setup, rods
from engine.core import Rng

#: why the game ends or ended, by :attr:`State.ending`
ENDINGS = {
    "top": "a block reached the top of the rods",
    "last": "a player put in their last block",
    "stuck": "a player could not put a block into play",
    "resign": "too few players are left",
}


@dataclass(frozen=True)
class View:
    """Everything a player sees; Bridge Wars has no hidden information."""

    players: int
    seat: int | None
    height: int
    colours: tuple[int, ...]  # per seat, -1 until chosen
    corners: tuple[str, ...]  # per seat, "" until chosen
    rods: tuple[bool, ...]  # per hole
    placed: tuple[Placed, ...]  # bottom-up in the order played
    tops: tuple[int, ...]  # per hole: level of its highest block, 0 for none
    owner: tuple[int, ...]  # per hole: colour of its highest block, -1 for none
    stock: tuple[tuple[int, ...], ...]  # per seat, counted like blocks.NAMES
    scores: tuple[int, ...]
    turn: int
    setup: bool
    last: Placed | None
    last_move: str  # the last block's move in the game's notation, "" before the first
    final: tuple[int, ...] | None  # seats still owed their last turn, once the end is near
    ending: str  # a sentence on why the game ends or ended, or ""
    resigned: frozenset[int]
    over: bool
    places: tuple[int, ...] | None


def view(state: State, seat: int | None) -> View:
    over = state.turn < 0
    mask = rods(state)
    return View(
        players=state.players,
        seat=seat,
        height=state.height,
        colours=state.colours,
        corners=state.corners,
        rods=tuple(bool(mask >> c & 1) for c in range(HOLES)),
        placed=state.placed,
        tops=state.tops,
        owner=state.owner,
        stock=state.stock,
        scores=scores(state),
        turn=state.turn,
        setup=in_setup(state),
        last=state.placed[-1] if state.placed else None,
        last_move=_written(state.placed[-1], state.corners) if state.placed else "",
        final=state.final,
        ending=ENDINGS.get(state.ending, ""),
        resigned=state.resigned,
        over=over,
        places=result(state).places if over else None,
    )


def _written(block: Placed, corners: tuple[str, ...]) -> str:
    """How the move that put ``block`` in is written: a starter block is a seat's choice
    of colour and corner, any other block where it went."""
    if block.block == STARTER:
        return actions.format(actions.Choose(block.colour, corners[block.seat]))
    return actions.format(actions.Place(block.block, block.orient, block.anchor))


_ENDING_KEYS = {sentence: key for key, sentence in ENDINGS.items()}


def sample(seen: View, rng: Rng) -> State:
    """The state behind ``seen``: the whole position, as nothing is hidden, with ``rng``
    for a generator. Who chose first is read from the choices made so far — seats choose
    in seat order from them — and matters only until setup ends."""
    return State(
        players=seen.players,
        height=seen.height,
        colours=seen.colours,
        corners=seen.corners,
        placed=seen.placed,
        tops=seen.tops,
        owner=seen.owner,
        stock=seen.stock,
        turn=seen.turn,
        first=_first(seen),
        final=seen.final,
        ending=_ENDING_KEYS.get(seen.ending, ""),
        resigned=seen.resigned,
        rng=rng,
    )


def _first(seen: View) -> int:
    """The seat that chose first: back from the seat to act, past every seat that chose."""
    if not seen.setup:
        return 0
    first = seen.turn
    for _ in range(seen.players - 1):
        before = (first - 1) % seen.players
        if seen.colours[before] < 0:
            break
        first = before
    return first
