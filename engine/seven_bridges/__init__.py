"""Seven Bridges (Ron Halliday, Puzzling Pixel Games): dice drafting on a map of Königsberg.

The rulebook plus RULINGS §1 is the spec. Modules, from the ground up: ``map`` (the
city's facts and coordinates), ``lines`` (the half-square lattice lines are drawn on),
``dice``, ``drawing`` (the drawing rules by name), ``bonuses``, ``loops`` (best closed
loop), ``scoring``, ``euler`` (the solo opponent), ``notation`` and ``game`` (the flow).
"""

from engine.seven_bridges.game import SevenBridges

__all__ = ["SevenBridges"]
