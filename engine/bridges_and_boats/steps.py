"""Where a seat is in its turn: its stage, its side's own actions, the step order.

Every rule asks these before its own checks, so a refusal names the step that comes
first ("Step order: buying dominoes (step 2) comes before building (step 3) ...")
rather than a detail of a step the seat may no longer take. They answer from a few
fields of the state, never by listing what is legal.
"""

from __future__ import annotations

from engine.bridges_and_boats.options import LOOK
from engine.bridges_and_boats.state import ATTACKER, DECLARE, DEFENDER, STAGE_NAMES, State
from engine.core import TURN, Stage

#: a turn's ordinary stage; its prompt answers `reroll` or `keep` when no roll waits
PLAYING = Stage(TURN.name, prompt="No roll is waiting for the ghost pilot's re-roll.")
#: ``buying look``: the domino just bought and looked at must be put to use at once
PLACING = Stage(
    "place",
    prompt=(
        "Put the domino you have just bought to use first (look-first buying): "
        "build it from your reserve, `d1`."
    ),
)
#: a bombing run paused on a roll the ghost pilot's re-roll could change (``bombing``)
REROLL = Stage(
    "reroll",
    prompt=(
        "The bombing run waits for your dice: re-roll one die with the ghost pilot "
        "(`reroll <number>`) or `keep` them."
    ),
)


def role_refusal(seat: int, role: int) -> str | None:
    """Step 4 is each side's own: soldiers and boats for one, cannons and planes for the
    other."""
    if seat == role:
        return None
    if role == ATTACKER:
        return "Only the attacker moves soldiers and boats; you bomb and fire."
    return "Only the defender fires cannons and flies planes."


def order_refusal(state: State, step: int) -> str | None:
    """The rulebook's step order: nothing goes back to an earlier (sub-)step."""
    if state.stage <= step:
        return None
    names = STAGE_NAMES[state.turn]
    return (
        f"Step order: {names[step]} comes before {names[state.stage]}, "
        "and you have already moved on to that this turn."
    )


def fire_due(state: State) -> bool:
    """RULINGS §5.3: cannons fire by themselves whenever boats have arrived; the bot asks
    for ``fire`` as the defender's first act of step 4 [P]."""
    return (
        state.turn == DEFENDER
        and state.over is None
        and state.stage < DECLARE
        and bool(state.cannons)
        and any(b.launched for b in state.boats)
    )


def run_refusal(state: State) -> str | None:
    """What stops declaring or flying a bombing run: the run has flown today, or the
    cannons fire first."""
    if "bomb" in state.done:
        return "Today's bombing run has flown: each plane flies once a turn."
    if fire_due(state):
        return "Cannons fire first in step 4: play `fire`, then declare the bombing run."
    return order_refusal(state, DECLARE)


def placing(state: State) -> bool:
    """``buying look``: a domino just bought waits to be put to use before anything else."""
    return state.rules.buying == LOOK and bool(state.hands[state.turn])
