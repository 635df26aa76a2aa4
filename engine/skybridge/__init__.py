"""Skybridge: towers, bridges and roofs on a 3x3 board (Gigamic, 2006).

The rulebook's text plus RULINGS §3 is the spec. Pieces are stacked on nine
foundations; two pieces of one colour may never touch. Blocks must go on the lowest
tower they may touch; bridges join two orthogonally adjacent towers of equal height and
cover both tops; roofs close a tower and give it to their colour. [P] rulings (bridge
footprint, automatic passing, the 2-player turn, tie-breaks) are Bridgekeeper's
reconstruction and say so in the docs. This package is engine/README.md's worked example.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Game, GameInfo, Kit
from engine.skybridge import actions, ai, flow, scoring, state, view
from engine.skybridge.actions import Action
from engine.skybridge.board import COLOURS
from engine.skybridge.rules import RULES
from engine.skybridge.state import State, seat_colours


class Skybridge(Game[State, Action]):
    info = GameInfo(
        key="skybridge",
        name="Skybridge",
        min_players=2,
        max_players=4,
        summary="Build towers on a 3x3 city, link them with bridges, roof them to own them.",
        help=(
            "**Skybridge** — 2 to 4 players, one piece per turn.\n"
            "Each colour has 4 tall blocks (3 stories), 4 cubes (2), 1 bridge (1) and 2 roofs.\n"
            "• Two pieces of one colour never touch (rest one on the other).\n"
            "• A block goes on the lowest tower it may touch.\n"
            "• A bridge joins two side-by-side towers of equal height and covers both tops.\n"
            "• A roof closes a tower and makes it yours.\n"
            "Score: the stories of your roofed towers, plus the tower your bridge joins to "
            "one of them (both doubled when you own both).\n"
            "**Moves:** colour, piece, square — `red tall b2`, `blue cube a1`, "
            "`yellow bridge a1-a2`, `green roof c3` (or short: `rt b2`). Columns a–c, rows 1–3.\n"
            "*Bridgekeeper's reconstruction [P]:* a bridge covers both tops completely; a player "
            "who cannot place is out for the rest of the game; with 2 players each plays two "
            "colours, one piece of either per turn; ties go to most roofed towers. "
            "Full rules: docs/rules/skybridge.md."
        ),
    )
    rules = RULES
    kit = Kit(actions, state, flow, scoring, view, ai)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return state.new(players, seed)

    def is_over(self, state: State) -> bool:
        return state.turn < 0

    def seat_label(self, state: State, seat: int) -> str:
        colours = [COLOURS[c] for c in seat_colours(state.players)[seat]]
        if state.players == 3:
            return f"{colours[0]}, with neutral {colours[1]}"
        return " and ".join(colours)
