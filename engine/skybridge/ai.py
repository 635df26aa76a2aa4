"""The state behind a Skybridge view, for the computer players (``engine.ai``).

Skybridge hides nothing, so the view gives the whole position back; only the generator
is new, as the AI must not know the game's. ``first`` and ``placed`` are bookkeeping no
rule reads again.
"""

from __future__ import annotations

from engine.ai.hard import Search
from engine.core import Rng
from engine.skybridge.state import State, initial_stock
from engine.skybridge.view import View

#: the search within a move's CPU budget (docs/ai.md): no chance, so one world; every
#: legal placement a candidate (a narrower list keeps the scoring ones and drops most
#: quiet ones at random), and rollouts nearly to the end of a 40-move game
SEARCH = Search(iterations=60, worlds=1, width=40, depth=16)


def determinize(view: View, seat: int, rng: Rng) -> State:
    placed = sum(map(sum, initial_stock(view.players))) - sum(map(sum, view.stock))
    return State(
        players=view.players,
        board=view.board,
        stock=view.stock,
        turn=view.turn,
        out=view.out,
        resigned=view.resigned,
        first=0,
        last=view.last,
        placed=placed,
        rng=rng,
    )
