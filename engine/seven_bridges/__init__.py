"""Seven Bridges (Ron Halliday, Puzzling Pixel Games): dice drafting on a map of Königsberg.

The rulebook plus RULINGS §1 is the spec. The package follows engine/README.md's kit:
``actions`` (moves and notation), ``board`` (the city), ``state``, one module per kind of
action in ``rules/``, ``flow`` (stages, turns, rounds, Euler's picks), ``scoring`` and
``view``; and the game's own components: ``lines`` (the half-square lattice lines are
drawn on), ``dice``, ``bonuses`` (the bonus columns), ``drawing`` (the drawing rules by
name), ``sheet`` (those rules on one seat's map), ``legend`` (the seven items),
``loops`` (the best closed loop) and ``euler`` (the solo opponent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Game, GameInfo, Kit
from engine.seven_bridges import actions, ai, flow, scoring, state, view
from engine.seven_bridges.actions import Action
from engine.seven_bridges.rules import RULES
from engine.seven_bridges.state import OPTIONS, State, ended


class SevenBridges(Game[State, Action]):
    info = GameInfo(
        key="seven-bridges",
        name="Seven Bridges",
        min_players=1,
        max_players=6,
        personal_views=True,  # each player draws on their own sheet
        summary=(
            "Roll-and-write dice drafting on a map of Königsberg: draw streets, cross the "
            "bridges, visit landmarks; alone, you play Euler."
        ),
        help=(
            "**Seven Bridges** — 1 (against Euler) to 6 players, 5 rounds.\n"
            "Each turn one player rolls the six dice; picks go round from the roller until "
            "all six are taken, and you draw each die's lines on your own map at once: "
            "touching your lines at an end point, all of it in one square, never over a "
            "line (crossing is fine). A horse die draws a straight line of up to 2 or 3 "
            "squares from an end or corner of your lines. Passing a landmark letter gives a "
            "bonus: a shape drawn now, a re-roll/distribute for later, or footpaths.\n"
            "Score: best loop (corners × bridges on it), bridges n², landmarks, buildings, "
            "trees, map edges, used bonuses; you keep one item per bridge crossed.\n"
            "**Moves:** `roll` (the roller starts each turn), `tee3 ii-2-3 nes` (die = face "
            "+ its horse type; square quadrant-row-col; arms), `cross2 ii-2-3`, "
            "`horse3 ii-2-4w e3` (start, direction, half squares), `bonus corner i-1-2 es`, "
            "`reserve reroll`, `reroll`, "
            "`distribute ...`, `downgrade tee3`, `score trees` (advanced).\n"
            "*Bridgekeeper's reconstruction [P]:* the map, face values and order, bonus "
            "values, horse starts, footpaths from reservation, and more — see "
            "docs/rules/seven-bridges.md."
        ),
        options=OPTIONS,
    )

    rules = RULES
    kit = Kit(actions, state, flow, scoring, view, ai)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return flow.begin(state.new(players, options, seed))

    def is_over(self, state: State) -> bool:
        return ended(state)


__all__ = ["SevenBridges"]
