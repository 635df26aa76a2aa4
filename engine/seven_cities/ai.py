"""Seven Cities' evaluation and search settings for the computer players (``engine.ai``)."""

from __future__ import annotations

from contextlib import suppress

from engine.ai.search import Search
from engine.ai.worlds import margin
from engine.core import Game, IllegalMove
from engine.seven_cities.actions import End
from engine.seven_cities.state import TURN, State

#: the search within a move's CPU budget (docs/ai.md): judging a turn as though it ended
#: plays its end, so each rollout is short
SEARCH = Search(iterations=60, depth=6, greed=2, work=300)


def evaluate(game: Game, state: State, seat: int) -> float:
    """The margin as though the seat ended its turn now. Moving along a railway costs
    nothing, and ending a turn can hand the rival something at once (the round's
    Timeshift), so judged as it stands, one more free move would always look better than
    ending and one greedy step would never end its turn."""
    if state.over is None and not state.windows and state.turn == seat and state.stage == TURN:
        with suppress(IllegalMove):
            state = game.apply(state, seat, End()).state
    return margin(game, state, seat)
