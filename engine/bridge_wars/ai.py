"""The state behind a Bridge Wars view, for the computer players (``engine.ai``).

Bridge Wars hides nothing: the view gives the whole position back, and the generator is
new. Who chose first is read from the choices made so far — seats choose in seat order
from them — and matters only until setup ends.
"""

from __future__ import annotations

from engine.ai.hard import Search
from engine.bridge_wars.state import State
from engine.bridge_wars.view import ENDINGS, View
from engine.core import Rng

_ENDING_KEYS = {sentence: key for key, sentence in ENDINGS.items()}


#: the search within a move's CPU budget (docs/ai.md): hundreds of placements a turn,
#: each costly to list, so a narrow, shallow look; no chance, so one world
SEARCH = Search(iterations=40, worlds=1, width=6, depth=4, greed=2)


def determinize(view: View, seat: int, rng: Rng) -> State:
    return State(
        players=view.players,
        height=view.height,
        colours=view.colours,
        corners=view.corners,
        placed=view.placed,
        tops=view.tops,
        owner=view.owner,
        stock=view.stock,
        turn=view.turn,
        first=_first(view),
        final=view.final,
        ending=_ENDING_KEYS.get(view.ending, ""),
        resigned=view.resigned,
        rng=rng,
    )


def _first(view: View) -> int:
    """The seat that chose first: back from the seat to act, past every seat that chose."""
    if not view.setup:
        return 0
    first = view.turn
    for _ in range(view.players - 1):
        before = (first - 1) % view.players
        if view.colours[before] < 0:
            break
        first = before
    return first
