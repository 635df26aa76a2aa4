"""Bridge Wars: blocks dropped down rods on an 11 x 11 board, bridging over rivals.

The rulebook's text plus RULINGS §2 is the spec. A game starts with setup: each player
takes a colour and claims a corner, whose 15 rods go in with the player's 2 x 2
starter on them. Then, turn by turn, a player drops one block onto the rods; it must
rest on their own colour alone, but may bridge over anything with a gap under it. Each
rod scores for the colour of its highest block: 1 per acrylic rod, 5 for the brass one.
The package follows engine/README.md: ``board`` holds the holes and rods, ``blocks``
the colours and the block set, ``rules/`` one module per kind of action, ``flow`` the
turns and the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.bridge_wars import actions, ai, flow, scoring, state, view
from engine.bridge_wars.actions import Action
from engine.bridge_wars.rules import RULES
from engine.bridge_wars.state import HEIGHT, State
from engine.bridge_wars.view import View
from engine.core import Game, GameInfo, Kit

__all__ = ["BridgeWars", "View"]


class BridgeWars(Game[State, Action]):
    info = GameInfo(
        key="bridge-wars",
        name="Bridge Wars",
        min_players=2,
        max_players=4,
        summary="Drop blocks down rods, bridge over rivals, own the tops of the most rods.",
        help=(
            "**Bridge Wars** — 2 to 4 players. An 11×11 board: a diamond of 60 rods with the "
            "brass rod in the middle (f6), and a 15-hole corner for each player.\n"
            "**Setup:** from a seat drawn at random, in seat order, each player takes a colour "
            "and a corner (`red ne`); the corner's rods go in with your 2×2 starter on them. "
            "Whoever chose first plays first.\n"
            "**Turn:** put one block into play; it drops down its rods as far as it goes.\n"
            "• It must rest on your own colour, and on nothing else — but it may *bridge* "
            "over anything, leaving a gap.\n"
            "• Every hole of it on a rod, and no higher than the rods (12 layers).\n"
            "**End:** a block reaching the top, or someone's last block, gives everyone else "
            "one more turn; a player who cannot place ends the game at once.\n"
            "**Score:** every rod counts for the colour on top: 1 point, the brass rod 5.\n"
            "**Moves:** block, orientation, reference hole (the block's lowest hole, "
            "leftmost if tied): `I3 h f6`, `I4 v c4`, `L4 ne e3`, `T4 s g7`, `S4 zh d5`. "
            "Bars `h`/`v`; L3 arms `ne nw se sw`; L4 long arm then foot (`ne`, `en`, ...); "
            "T4 nose `n e s w`; S4 `sh sv zh zv`.\n"
            "*Bridgekeeper's reconstruction [P]:* the block set (O4 starter, I2×3, I3×3, "
            "I4×3, I5×2, L3×2, L4×2, T4×2, S4×2), one-layer blocks, rods "
            f"{HEIGHT.default} layers high (option `height`, {HEIGHT.low}–{HEIGHT.high}), "
            "the starter in the outermost 2×2, ties to the brass "
            "rod, then most rods held at the top layer. Full rules: docs/rules/bridge-wars.md."
        ),
        options=(HEIGHT,),
    )
    rules = RULES
    kit = Kit(actions, state, flow, scoring, view, ai)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return state.new(players, options["height"], seed)

    def is_over(self, state: State) -> bool:
        return state.turn < 0
