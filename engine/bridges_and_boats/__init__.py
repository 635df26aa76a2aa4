"""Bridges and Boats (Thomas Gale, 2003–2007): a river, one bridge, boats, planes,
cannons and secret dominoes.

The attacker (seat 0) buys dominoes to build one bridge and boats and sends coins
across the river as soldiers; the defender (seat 1) buys dominoes for planes that bomb
the bridge and cannons that sink boats, and keeps coins as victory points. The game
ends the moment the last domino leaves the pool. The rulebook text plus RULINGS §5 is
the spec; [P] rulings are Bridgekeeper's reconstruction and say so in the help.

Each step of a turn is one or more small actions (``actions``), one rule each
(``rules/``), taken in the rulebook's step order (``steps``); ``flow`` starts the next
turn, ``bombing`` flies a run, and ``view`` keeps face-down dominoes hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.bridges_and_boats import actions, ai, flow, scoring, state, view
from engine.bridges_and_boats.actions import Action
from engine.bridges_and_boats.options import OPTIONS, Rules
from engine.bridges_and_boats.rules import RULES
from engine.bridges_and_boats.state import ROLES, State
from engine.core import Game, GameInfo, Kit

HELP = (
    "**Bridges and Boats** — 2 players: attacker (seat 1, moves first) against defender.\n"
    "Each turn, in order: take 3 coins; `buy` dominoes (2 coins, secret to you); build with "
    "them; deploy; `end`.\n"
    "• Attacker: `bridge d2` builds the next bridge section (face down, from your bank "
    "outwards; 6 sections, 12 spaces); `boat d2` a face-down boat. Then `advance N` moves N "
    "soldiers one space, front first (off space 12 = crossed); `enter` turns a coin into a "
    "soldier on space 1 (one a turn); `board b1` a coin into a soldier in boat b1 (2 a boat; "
    "the boat turns face up); `launch b1` sends a loaded boat to the far bank.\n"
    "• Defender: `plane d2` (face up) or `cannon d2` (face down). Then `fire` (cannons at "
    "arrived boats: a die matching an end sinks it), `fly 3-5` for each plane in today's run "
    "(1 coin; ghost 0-0 free, ace 0-1 2 coins), `bomb`. A plane hits if 2d6 = its pips, "
    "deadly if the dice are its ends (kills soldiers next door too); 2d6 again picks the "
    "section (2→1, 3-4→2, 5-6→3, 7-8→4, 9-10→5, 11-12→6). Ace always hits; ghost gives one "
    "`reroll <die>` (or `keep`).\n"
    "Boats not sunk unload at the start of the attacker's next turn.\n"
    "**End:** the moment the last domino is bought. Attacker wins if soldiers crossed > the "
    "defender's coins; equal is a tie.\n"
    "*Bridgekeeper's reconstruction [P]:* the order within step 4 (advance, enter, board, "
    "launch; defender: fire, then planes); boats unload before income; a hit on an empty "
    "section does nothing; the ghost's re-roll is offered only when it could change the "
    "roll; the game stops after 100 turns. Full rules: "
    "docs/rules/bridges-and-boats.md."
)


class BridgesAndBoats(Game[State, Action]):
    info = GameInfo(
        key="bridges-and-boats",
        name="Bridges and Boats",
        min_players=2,
        max_players=2,
        summary=(
            "Attacker against defender: build a bridge and boats from secret dominoes to get "
            "soldiers across a river, or bomb and sink them and hoard coins."
        ),
        help=HELP,
        options=OPTIONS,
        hidden_information=True,
    )
    rules = RULES
    kit = Kit(actions, state, flow, scoring, view, ai)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return state.new(seed, Rules.of(options))

    def is_over(self, state: State) -> bool:
        return state.over is not None

    def seat_label(self, state: State, seat: int) -> str:
        return ROLES[seat]
