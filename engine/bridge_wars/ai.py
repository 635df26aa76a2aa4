"""Bridge Wars' evaluation and search settings for the computer players (``engine.ai``)."""

from __future__ import annotations

from engine.ai.search import Search
from engine.ai.worlds import margin
from engine.bridge_wars.scoring import scores
from engine.bridge_wars.state import State
from engine.core import Game

#: hundreds of placements a turn, most of them quiet, so a few random moves ahead say
#: little: the reply search instead, the 200 best placements by one greedy step (most of
#: a turn's) each judged by the rival's best answer to it (most fall to the first answer
#: tried), until 2,200 actions are tried; no chance, so one world (docs/ai.md)
SEARCH = Search(worlds=1, width=200, iterations=200, reply=True, work=2200)

#: the corner across the board from each one
ACROSS = {"ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
#: what a rival in the corner across the board is worth, in rods
APART = 0.5


def evaluate(game: Game, state: State, seat: int) -> float:
    """The score margin (a won game far above it), and half a rod for each rival whose
    corner lies across the board. Setup offers nothing to score, so without that every
    corner looks alike; from corners across the board each side builds its own half
    before the blocks meet, and the search wins far more of those games than of games
    between neighbours (docs/ai.md). Once setup is over it is the same for every move."""
    if game.is_over(state):
        value = margin(game, state, seat)
    else:
        points = scores(state)
        value = float(points[seat] - max(p for s, p in enumerate(points) if s != seat))
    mine = state.corners[seat]
    if mine:
        value += APART * sum(corner == ACROSS[mine] for corner in state.corners)
    return value
