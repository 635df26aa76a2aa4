"""Scores and places: most future cities wins (a Metropolis is 2); ties go to most future
cities on water, then most cities in all [P], then are shared. A resigned seat is last."""

from __future__ import annotations

from engine.core import Result
from engine.seven_cities.cities import all_cities, future_cities, water_cities
from engine.seven_cities.state import State


def result(state: State) -> Result:
    def key(s: int) -> tuple[int, int, int, int]:
        out = int(s not in state.resigned)
        return (out, future_cities(state, s), water_cities(state, s), all_cities(state, s))

    keys = [key(s) for s in range(state.players)]
    places = tuple(1 + sum(k > keys[s] for k in keys) for s in range(state.players))
    scores = tuple(future_cities(state, s) for s in range(state.players))
    detail = "Score: future cities (a Metropolis counts 2)"
    winners = [s for s in range(state.players) if places[s] == 1]
    best = [s for s in range(state.players) if scores[s] == max(scores)]
    if len(best) > 1 and len(winners) < len(best):
        detail += "; tied on future cities, broken by future cities on water, then all cities"
    return Result(scores, places, detail + ".")
