"""Seven Bridges' evaluation and search settings for the computer players (``engine.ai``).

Alone, a seat is judged by its margin over Euler, who scores what it leaves.
"""

from __future__ import annotations

from engine.ai.search import Search
from engine.ai.worlds import WIN
from engine.core import Game
from engine.seven_bridges import euler
from engine.seven_bridges.scoring import cards
from engine.seven_bridges.state import State, ended

#: the search within a move's CPU budget (docs/ai.md)
SEARCH = Search(iterations=80, depth=6, work=500)


def evaluate(game: Game, state: State, seat: int) -> float:
    """The margin over the best rival — Euler, alone — and a finished game's verdict."""
    seats = cards(state)
    mine = seats[seat].total
    if state.players > 1:
        rival = max(
            card.total
            for other, card in enumerate(seats)
            if other != seat and other not in state.resigned
        )
    else:
        rival = euler.total(seats[0])
    value = float(mine - rival)
    if ended(state) and value:
        value += WIN if value > 0 else -WIN
    return value
