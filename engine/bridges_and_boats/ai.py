"""Bridges and Boats' search settings and evaluation for the computer players (``engine.ai``).

The score (soldiers across against the defender's coins) only moves when boats unload and
soldiers step off the bridge, a turn or more after the coins were spent, and a cannon or
a plane pays off over the whole game, not the turn it is built: judged by the score alone,
a defender never builds one and an attacker never builds a bridge. So a position is
judged as the final margin it points to, from the attacker's side:

- soldiers afloat count at their chance of surviving the cannons there are, soldiers on
  the bridge at their chance of getting off it past the planes;
- the rounds left (the pool's dominoes, or the turn limit) each bring the attacker its
  income in soldiers, at what a soldier costs by boat (a coin, and half a domino) and
  their chance against the cannons, and, by a standing bridge, those who can enter a turn
  (one a space of speed) at the planes' mercy; and the defender its income in coins;
- coins in the attacker's hand are soldiers to come, at the same rate.

The defender's side is its negative. A finished game is judged by its result.
"""

from __future__ import annotations

from engine.ai.search import Search
from engine.ai.worlds import margin
from engine.bridges_and_boats.board import SECTIONS, SPACES
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import ATTACKER, TURN_CAP, State
from engine.core import Game

#: the default search, its work capped to stay within a move's CPU budget (docs/ai.md)
SEARCH = Search(work=1500)
#: the chance two dice make each total
TOTALS = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
#: how much of a plane's threat falls on one soldier's section in a turn (the location
#: roll spreads strikes over six sections; the middle ones take most)
ON_SECTION = 0.25


def evaluate(game: Game, state: State, seat: int) -> float:
    """The final margin ``state`` points to, from ``seat``'s side (module docstring)."""
    if state.over is not None:
        return margin(game, state, seat)
    value = attacker_outlook(state)
    return value if seat == ATTACKER else -value


def attacker_outlook(state: State) -> float:
    rules = state.rules
    cannons = len(state.cannons)
    afloat = sum(b.soldiers * _afloat(b.domino, cannons) for b in state.boats)
    bombed = _bombing(state)
    steps = SPACES + 1
    on_bridge = sum(
        (1 - bombed) ** ((steps - space) / rules.speed)
        for space, there in enumerate(state.spaces, start=1)
        if there
    )
    rounds = min(len(state.pool), (TURN_CAP - state.turns) / 2)
    per_coin = 2 / (rules.price + 2) * _boat_odds(cannons)
    standing = sum(d is not None for d in state.bridge) / SECTIONS
    by_bridge = standing * (1 - bombed) ** (steps / rules.speed)  # each soldier who enters
    # a soldier by the bridge costs a coin the boats would have had
    by_bridge = max(0.0, by_bridge - per_coin) * rules.speed  # as many enter as they move
    future = rounds * (rules.attacker_income * per_coin + by_bridge - rules.defender_income)
    hand = state.coins[ATTACKER] * per_coin
    return state.crossed + afloat + on_bridge + future + hand - state.coins[1]


def _afloat(boat: Domino, cannons: int) -> float:
    """The chance a boat lives through one volley of ``cannons``."""
    ends = {boat.low, boat.high} & {1, 2, 3, 4, 5, 6}
    return (1 - len(ends) / 6) ** cannons


def _boat_odds(cannons: int) -> float:
    """The chance a boat to come lives through the cannons (a boat shows two numbers a
    die can roll, as most do)."""
    return (2 / 3) ** cannons


def _bombing(state: State) -> float:
    """The chance, in a turn, that the planes kill a given soldier on the bridge."""
    threat = 0.0
    for plane in state.planes:
        if plane.is_ghost:
            continue
        hit = 1.0 if plane.is_ace else TOTALS.get(plane.pips, 0.0)
        threat += hit * ON_SECTION
    return min(threat, 0.9)
