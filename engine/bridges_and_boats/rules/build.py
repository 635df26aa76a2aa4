"""Build (step 3): a domino of the reserve becomes a bridge section, a boat, a plane or
a cannon.

The attacker builds the bridge (always the lowest section missing, from their bank
outwards, face down; face up with match bombing) and boats (face down, numbered for good);
the defender builds planes (face up: the ghost and the ace say who they are; face down
with secret pilots) and cannons (face down). With look-first buying (``buying look``) a
domino is built right after it is bought, and buying goes on.
"""

from __future__ import annotations

from engine.bridges_and_boats.actions import Build
from engine.bridges_and_boats.board import next_gap
from engine.bridges_and_boats.dominoes import Domino
from engine.bridges_and_boats.options import LOOK
from engine.bridges_and_boats.state import ATTACKER, BUILD, DEFENDER, Boat, State, set_at
from engine.bridges_and_boats.steps import PLACING, order_refusal
from engine.core import TURN, Event, Rule, evolve, seat_ref

#: what each side builds, in the order ``legal`` lists them
KINDS = {ATTACKER: ("bridge", "boat"), DEFENDER: ("plane", "cannon")}
_ROLE_OF = {kind: seat for seat, kinds in KINDS.items() for kind in kinds}


def targets(state: State, seat: int) -> list[Build]:
    slots = range(len(state.hands[seat]))
    moves = (Build(kind, slot) for kind in KINDS[seat] for slot in slots)
    return [move for move in moves if refusal(state, seat, move) is None]


def role_refusal(seat: int, kind: str) -> str | None:
    """Each side builds its own things."""
    role = _ROLE_OF.get(kind)
    if role is None:
        return "You can build a bridge section, a boat, a plane or a cannon."
    if role != seat:
        if role == ATTACKER:
            return "Only the attacker builds bridges and boats."
        return "Only the defender builds planes and cannons."
    return None


def use_refusal(state: State, seat: int, kind: str) -> str | None:
    """Why ``seat`` cannot put a domino to use as ``kind`` now, whichever domino it is."""
    if reason := role_refusal(seat, kind):
        return reason
    if kind == "bridge" and next_gap(state.bridge) is None:
        return "Your bridge is complete: all six sections stand."
    return None


def refusal(state: State, seat: int, action: Build) -> str | None:
    if reason := role_refusal(seat, action.kind):
        return reason
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
    stage = state.stage if state.rules.buying == LOOK else BUILD  # look: buying goes on
    state = evolve(state, hands=set_at(state.hands, seat, rest), stage=stage)
    built, text = _BUILDERS[action.kind](state, domino)
    return built, [Event(action.kind, f"{seat_ref(seat)} {text}")]


def _bridge(state: State, domino: Domino) -> tuple[State, str]:
    """The lowest section missing, whether never built or bombed out."""
    section = next_gap(state.bridge)
    assert section is not None
    verb = "repaired" if section in state.bombed else "built"
    bridge = set_at(state.bridge, section, domino)
    built = evolve(state, bridge=bridge, bombed=state.bombed - {section})
    if state.rules.match_bombing:  # planes must see what they aim at
        return built, f"{verb} bridge section {section + 1}, face up: {domino}."
    return built, f"{verb} bridge section {section + 1}, face down."


def _boat(state: State, domino: Domino) -> tuple[State, str]:
    number = state.boats_built + 1
    boats = state.boats + (Boat(number, domino),)
    built = evolve(state, boats=boats, boats_built=number)
    return built, f"built boat b{number}, face down on their bank."


def _plane(state: State, domino: Domino) -> tuple[State, str]:
    """Face up: the ghost and the ace are told as what they are. Secret pilots: face down,
    named by its place at the air base."""
    planes = state.planes + (domino,)
    if state.rules.secret_pilots:
        return evolve(state, planes=planes), f"built plane p{len(planes)}, face down."
    kind = ""
    if domino.is_ghost:
        kind = ": the ghost pilot, who never bombs but lends one re-roll"
    elif domino.is_ace:
        kind = ": the ace, who always hits"
    return evolve(state, planes=planes), f"built plane {domino}{kind}."


def _cannon(state: State, domino: Domino) -> tuple[State, str]:
    cannons = state.cannons + (domino,)
    return evolve(state, cannons=cannons), f"built cannon {len(cannons)}, face down."


_BUILDERS = {"bridge": _bridge, "boat": _boat, "plane": _plane, "cannon": _cannon}


RULE = Rule(Build, refusal, effect, targets, stages=frozenset({TURN.name, PLACING.name}))
