"""Convert (defender, step 3, option ``interchangeable``): a plane becomes a cannon, or a
cannon a plane.

The rulebook says planes and cannons "are not interchangeable"; its optional rules offer
the opposite for a defence that has it too hard. We read it as a change of use in step 3,
like building, at no cost, one change of use a turn [P]: a plane turned into a cannon
lies face down, a cannon turned into a plane turns face up (face down with secret
pilots). Free and unlimited, a turn could swap the two back and forth for ever.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Convert
from engine.bridges_and_boats.planes import name, names, plane_of, plane_refusal
from engine.bridges_and_boats.state import BUILD, DEFENDER, State
from engine.bridges_and_boats.steps import order_refusal, role_refusal
from engine.core import Event, Rule, evolve, seat_ref


def targets(state: State, seat: int) -> list[Convert]:
    moves = [Convert("cannon", plane) for plane in names(state)]
    moves += [Convert("plane", number) for number in range(1, len(state.cannons) + 1)]
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Convert) -> str | None:
    if not state.rules.interchangeable:
        return (
            "Planes and cannons are not interchangeable in this game "
            "(the option interchangeable is off)."
        )
    if reason := role_refusal(seat, DEFENDER) or order_refusal(state, BUILD):
        return reason
    if "convert" in state.done:
        return "Planes and cannons make one change of use a turn, and you made it already."
    if action.kind == "plane":
        if not 1 <= action.piece <= len(state.cannons):  # type: ignore[operator]
            return f"You have no cannon c{action.piece}: you have {len(state.cannons)}."
        return None
    return plane_refusal(state, action.piece)


def effect(state: State, seat: int, action: Convert) -> tuple[State, list[Event]]:
    who = seat_ref(seat)
    if action.kind == "plane":
        number = int(action.piece)  # type: ignore[arg-type]
        domino = state.cannons[number - 1]
        cannons = state.cannons[: number - 1] + state.cannons[number:]
        planes = state.planes + (domino,)
        face = (
            f"plane p{len(planes)}, face down" if state.rules.secret_pilots else f"plane {domino}"
        )
        text = f"{who} turned cannon c{number} into {face}."
    else:
        domino = plane_of(state, action.piece)
        planes = tuple(p for p in state.planes if p != domino)
        cannons = state.cannons + (domino,)
        text = f"{who} turned plane {name(action.piece)} into cannon c{len(cannons)}, face down."
    converted = evolve(
        state, planes=planes, cannons=cannons, stage=BUILD, done=state.done | {"convert"}
    )
    return converted, [Event("convert", text)]


RULE = Rule(Convert, refusal, effect, targets)
