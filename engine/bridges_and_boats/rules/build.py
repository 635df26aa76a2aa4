"""Build (step 3): a domino of the reserve becomes a bridge section, a boat, a plane or
a cannon.

The attacker builds the bridge (always the lowest section missing, from their bank
outwards, face down) and boats (face down, numbered for good); the defender builds
planes (face up: the ghost and the ace say who they are) and cannons (face down).
"""

from __future__ import annotations

from dataclasses import replace

from engine.bridges_and_boats.actions import Build
from engine.bridges_and_boats.board import next_gap
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.state import ATTACKER, BUILD, DEFENDER, Boat, State, set_at
from engine.bridges_and_boats.steps import order_refusal
from engine.core import Event, Rule, seat_ref

#: what each side builds, in the order ``legal`` lists them
KINDS = {ATTACKER: ("bridge", "boat"), DEFENDER: ("plane", "cannon")}
_ROLE_OF = {kind: seat for seat, kinds in KINDS.items() for kind in kinds}


def targets(state: State, seat: int) -> list[Build]:
    slots = range(len(state.hands[seat]))
    moves = (Build(kind, slot) for kind in KINDS[seat] for slot in slots)
    return [move for move in moves if refusal(state, seat, move) is None]


def refusal(state: State, seat: int, action: Build) -> str | None:
    role = _ROLE_OF.get(action.kind)
    if role is None:
        return "You can build a bridge section, a boat, a plane or a cannon."
    if role != seat:
        if role == ATTACKER:
            return "Only the attacker builds bridges and boats."
        return "Only the defender builds planes and cannons."
    if reason := order_refusal(state, BUILD):
        return reason
    hand = state.hands[seat]
    if not hand:
        return "Your reserve is empty: `buy` a domino first (step 2)."
    if not 0 <= action.slot < len(hand):
        return f"You have no domino d{action.slot + 1}: your reserve holds d1 to d{len(hand)}."
    if action.kind == "bridge" and next_gap(state.bridge) is None:
        return "Your bridge is complete: all six sections stand."
    return None


def effect(state: State, seat: int, action: Build) -> tuple[State, list[Event]]:
    hand = state.hands[seat]
    domino = hand[action.slot]
    rest = hand[: action.slot] + hand[action.slot + 1 :]
    state = replace(state, hands=set_at(state.hands, seat, rest), stage=BUILD)
    built, text = _BUILDERS[action.kind](state, domino)
    return built, [Event(action.kind, f"{seat_ref(seat)} {text}")]


def _bridge(state: State, domino: Domino) -> tuple[State, str]:
    """The lowest section missing, whether never built or bombed out."""
    section = next_gap(state.bridge)
    assert section is not None
    verb = "repaired" if section in state.bombed else "built"
    bridge = set_at(state.bridge, section, domino)
    built = replace(state, bridge=bridge, bombed=state.bombed - {section})
    return built, f"{verb} bridge section {section + 1}, face down."


def _boat(state: State, domino: Domino) -> tuple[State, str]:
    number = state.boats_built + 1
    boats = state.boats + (Boat(number, domino),)
    built = replace(state, boats=boats, boats_built=number)
    return built, f"built boat b{number}, face down on their bank."


def _plane(state: State, domino: Domino) -> tuple[State, str]:
    """Face up: the ghost and the ace are told as what they are."""
    kind = ""
    if domino.is_ghost:
        kind = ": the ghost pilot, who never bombs but lends one re-roll"
    elif domino.is_ace:
        kind = ": the ace, who always hits"
    return replace(state, planes=state.planes + (domino,)), f"built plane {domino}{kind}."


def _cannon(state: State, domino: Domino) -> tuple[State, str]:
    cannons = state.cannons + (domino,)
    return replace(state, cannons=cannons), f"built cannon {len(cannons)}, face down."


_BUILDERS = {"bridge": _bridge, "boat": _boat, "plane": _plane, "cannon": _cannon}


RULE = Rule(Build, refusal, effect, targets)
