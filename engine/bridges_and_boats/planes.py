"""How the defender's planes are named: by their ends while they are face up (the
rulebook), by their place at the air base (``p2``, from 1, in the order built) while
secret pilots keeps them face down, so no move's notation ever shows a secret pilot.
"""

from __future__ import annotations

from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import State


def names(state: State) -> list[Domino | int]:
    """Every plane at the air base, as moves name them."""
    if state.rules.secret_pilots:
        return list(range(1, len(state.planes) + 1))
    return list(state.planes)


def name(plane: Domino | int) -> str:
    """A plane as a move writes it: ``3-5`` or ``p2``."""
    return f"p{plane}" if isinstance(plane, int) else str(plane)


def named(state: State, domino: Domino) -> str:
    """How public text names the plane ``domino``: its place while its pilot is secret
    and it has not shown itself by flying (the ghost, the ace), else its ends."""
    if state.rules.secret_pilots and domino not in state.shown:
        return f"p{state.planes.index(domino) + 1}"
    return str(domino)


def plane_refusal(state: State, plane: Domino | int) -> str | None:
    """Whether ``plane`` names a plane at the air base the way this game names them."""
    if isinstance(plane, int):
        if not state.rules.secret_pilots:
            return "Planes are face up: name a plane by its ends, e.g. `3-5`."
        if not 1 <= plane <= len(state.planes):
            return f"You have no plane p{plane}: your air base has {len(state.planes)}."
        return None
    if state.rules.secret_pilots:
        return "Pilots are secret: name a plane by its place at the air base, e.g. `p2`."
    if plane not in state.planes:
        return f"You have no plane {plane} at your air base."
    return None


def plane_of(state: State, plane: Domino | int) -> Domino:
    """The domino of a plane named as :func:`plane_refusal` accepts."""
    return state.planes[plane - 1] if isinstance(plane, int) else plane
