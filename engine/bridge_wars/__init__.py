"""Bridge Wars: blocks dropped down rods on an 11 x 11 board, bridging over rivals.

``board`` holds the holes and rods, ``blocks`` the block set and its orientations,
``rules`` positions and the placement rules, ``game`` the :class:`BridgeWars` engine.
"""

from engine.bridge_wars.game import BridgeWars, View

__all__ = ["BridgeWars", "View"]
