"""Every board in words, from the same view its picture is drawn from.

A screen reader cannot see a board, and a terminal shows none: each game's module here
reads a view aloud — the game, whose turn it is, the scores, the last move, then the
position as a sighted player takes it in at a glance. Like the renderers, these get a
*view* and never a state, so a public description cannot tell a hidden value.
Each game's ``describe`` is part of its :class:`renders.looks.Looks` (:data:`renders.LOOKS`).
"""

from renders.text import bridge_wars, bridges_and_boats, seven_bridges, seven_cities, skybridge

__all__ = ["bridge_wars", "bridges_and_boats", "seven_bridges", "seven_cities", "skybridge"]
