"""Bridges and Boats' search settings and evaluation for the computer players (``engine.ai``).

The score (soldiers across against the defender's coins) only moves when boats unload and
soldiers step off the bridge, a turn or more after the coins were spent, and a cannon or
a plane pays off over the whole game, not the turn it is built: judged by the score alone,
a defender never builds one and an attacker never builds a bridge. So a position is
judged by the final margin it points to, from the attacker's side:

- soldiers afloat count at their chance of surviving the cannons there are, soldiers on
  the bridge at their chance of getting off it past the planes;
- the rounds left (the pool's dominoes, or the turn limit) each bring the attacker its
  income in soldiers, at what a soldier costs by boat (a coin, and half a domino) and
  their chance against the cannons, and, by a standing bridge, those who can enter a turn
  (one a space of speed) at the planes' mercy; and the defender its income in coins;
- coins in the attacker's hand, dominoes in its reserve and its boats' empty seats are
  soldiers to come at the same rate, coins a little less (``HOARDED``: coins kept to the
  end are lost), so buying and building are no loss on the way to a boarded boat; the
  defender's reserve counts as the coins it cost.

and then by the chance that margin is still ahead at the end, as the rounds left can
move it (``SPREAD``): the game is won or lost, not won by much. Judged by the margin, a
side behind ended the game at once to lose by less, and a side far ahead saw nothing
to gain and hoarded; judged by the chance, the side behind plays on and the side ahead
ends the game when it can. The defender's side is its negative. A finished game is
judged by its result.

The search (hard) is one per side. The defender's is one step, each action judged in
twelve sampled worlds (the dice and dominoes to come) and the best by its mean played:
rollouts and the reply search judged a turn of many actions by the other side's random
or clairvoyant answers, and lost to normal's one greedy step in nearly every game. The
attacker's turn is a plan (buy, build, board, launch; or buy the pool out while ahead)
that one step at a time misjudges, so it plays each of its best actions on to the end of
its own turn, greedily, and judges the turn's end: against the one-step attacker it won
every game of the balanced variant (docs/ai.md). The defender playing its turn out too
spent every coin on cannons, and lost.
"""

from __future__ import annotations

import math

from engine.ai.search import Search
from engine.ai.worlds import margin
from engine.bridges_and_boats.board import SECTIONS, SPACES
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import ATTACKER, DEFENDER, TURN_CAP, State
from engine.core import Game

#: the attacker plays its turn out in three sampled worlds for each of its six best
#: actions (the best of all its actions at each step, until the turn passes); the
#: defender, one step judged in twelve sampled worlds (module docstring); docs/ai.md
#: measures both
SEARCH = {
    ATTACKER: Search(iterations=24, worlds=3, width=6, depth=40, greed=0, turns=1, work=2500),
    DEFENDER: Search(iterations=96, worlds=12, width=8, depth=0, work=1500),
}
#: how much the final margin may still move, per round left (its variance)
SPREAD = 4.0
#: what a coin kept in hand is worth against one spent now: coins left at the end are lost
HOARDED = 0.8
#: a little more for coins already turned into dominoes and boats, so the way to a
#: boarded boat is taken
NUDGE = 0.01
#: the chance two dice make each total
TOTALS = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
#: how much of a plane's threat falls on one soldier's section in a turn (the location
#: roll spreads strikes over six sections; the middle ones take most)
ON_SECTION = 0.25


def evaluate(game: Game, state: State, seat: int) -> float:
    """``seat``'s chance of winning from ``state``, from -1 to 1 (module docstring)."""
    if state.over is not None:
        return margin(game, state, seat)
    z = _attacker_outlook(state) / math.sqrt(SPREAD * _rounds_left(state) + 1)
    value = math.erf(z / math.sqrt(2)) + z / 1000
    return value if seat == ATTACKER else -value


def _attacker_outlook(state: State) -> float:
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
    rounds = _rounds_left(state)
    per_coin = 2 / (rules.price + 2) * _boat_odds(cannons)
    standing = sum(d is not None for d in state.bridge) / SECTIONS
    by_bridge = standing * (1 - bombed) ** (steps / rules.speed)  # each soldier who enters
    # a soldier by the bridge costs a coin the boats would have had
    by_bridge = max(0.0, by_bridge - per_coin) * rules.speed  # as many enter as they move
    future = rounds * (rules.attacker_income * per_coin + by_bridge - rules.defender_income)
    # coins, dominoes in reserve and boats' empty seats are soldiers to come, at what
    # their coins would buy: buying and building are no loss on the way to boarding
    seats = sum(2 - b.soldiers for b in state.boats if not b.launched)
    kit = (len(state.hands[ATTACKER]) + seats / 2) * rules.price
    hand = (state.coins[ATTACKER] + kit) * per_coin * HOARDED + kit * NUDGE
    hand -= len(state.hands[1]) * rules.price
    return state.crossed + afloat + on_bridge + future + hand - state.coins[1]


def _rounds_left(state: State) -> float:
    """The most rounds the game can last: a domino from the pool each, or the turn limit."""
    return min(len(state.pool), (TURN_CAP - state.turns) / 2)


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
